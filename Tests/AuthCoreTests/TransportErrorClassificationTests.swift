import Foundation
import Testing

@testable import AuthCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// URLSession's failures as the user reads them: FoundationNetworking gives most of libcurl's
/// errors no code of their own (a refused certificate is `URLError -1` with curl's text), and
/// those reached the user as raw codes.
@Suite struct TransportErrorClassificationTests {
  static func classify(_ code: URLError.Code, _ description: String? = nil) -> TransportError {
    let info = description.map { [NSLocalizedDescriptionKey: $0] } ?? [:]
    return URLSessionTransport.classify(
      URLError(code, userInfo: info), host: "id.example.com", timeout: 30)
  }

  @Test(arguments: [
    "SSL certificate problem: self-signed certificate",
    "SSL certificate problem: self signed certificate in certificate chain",
    "SSL certificate problem: unable to get local issuer certificate",
    "The certificate is NOT trusted. The certificate issuer is unknown.",
  ])
  func aCertificateFromNoTrustedAuthorityIsSaidSo(curlText: String) {
    let error = Self.classify(.unknown, curlText)
    #expect(error == .untrustedCertificate(host: "id.example.com"))
    #expect(
      error.message
        == "The certificate of id.example.com is not trusted (self-signed or from an unknown "
        + "authority); give the server a certificate from a trusted authority, or add its "
        + "authority to this computer's trust store (/usr/local/share/ca-certificates, then "
        + "update-ca-certificates), and do not continue on a network you do not trust.")
  }

  @Test func anotherTLSFailureIsAnInsecureConnection() {
    #expect(
      Self.classify(.unknown, "SSL certificate problem: certificate has expired")
        == .insecureConnection(host: "id.example.com"))
    #expect(
      Self.classify(.unknown, "OpenSSL SSL_connect: SSL_ERROR_SYSCALL")
        == .insecureConnection(host: "id.example.com"))
  }

  @Test func aNameThatDoesNotResolveIsSaidToBeDNS() {
    let error = Self.classify(.cannotFindHost, "Could not resolve host: id.example.com")
    #expect(error == .hostNotFound(host: "id.example.com"))
    #expect(
      error.message
        == "Cannot find id.example.com (DNS); check the host name in the URL, then your network "
        + "connection (and any proxy), and try again.")
  }

  @Test func anAddressTheClientCannotUseSaysWhy() {
    #expect(
      Self.classify(.badURL).message
        == "The address of id.example.com cannot be used (a port above 65535, or an IPv6 "
        + "address such as [::1], which this HTTP client cannot reach: use 127.0.0.1); check "
        + "your network connection and try again.")
  }

  @Test func anUnknownFailureKeepsItsCodeAndNoText() {
    #expect(
      Self.classify(.unknown, "Failed writing body (secret-code)")
        == .failed("the request to id.example.com failed (URLError -1)"))
  }
}
