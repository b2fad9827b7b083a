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

  /// "Could not connect to 127.0.0.1" named no port, when a port is what tells one local
  /// server from another: a connection's failure names the host and the port the URL gives.
  @Test func aConnectionsFailureNamesTheHostAndThePortTheURLGives() throws {
    let address = { (text: String) in
      URLSessionTransport.address(of: try #require(URL(string: text)))
    }
    #expect(try address("http://127.0.0.1:8443/oidc/token?code=secret") == "127.0.0.1:8443")
    #expect(try address("https://id.example.com/token") == "id.example.com")
    #expect(try address("https://id.example.com:443/token") == "id.example.com:443")
    #expect(try address("http://[::1]:8443/token") == "[::1]:8443")
    #expect(try address("http://[::1]/token") == "[::1]")
    #expect(try address("file:///tmp/x") == nil)

    let refused = URLSessionTransport.classify(
      URLError(.cannotConnectToHost), host: "127.0.0.1", address: "127.0.0.1:8443", timeout: 30)
    #expect(refused == .cannotConnect(host: "127.0.0.1:8443"))
    #expect(
      refused.message
        == "Could not connect to 127.0.0.1:8443; check your network connection (and any proxy) "
        + "and try again.")
    #expect(
      URLSessionTransport.classify(
        URLError(.networkConnectionLost), host: "::1", address: "[::1]:8443", timeout: 30
      ).message == "The connection to [::1]:8443 dropped before the answer arrived; try again.")
    // The name alone where the name is at fault.
    #expect(
      URLSessionTransport.classify(
        URLError(.cannotFindHost), host: "id.example.com", address: "id.example.com:8443",
        timeout: 30) == .hostNotFound(host: "id.example.com"))
  }

  @Test func anUnknownFailureKeepsItsCodeAndNoText() {
    #expect(
      Self.classify(.unknown, "Failed writing body (secret-code)")
        == .failed("the request to id.example.com failed (URLError -1)"))
  }
}
