import AuthCore
import Foundation
import Providers

/// The "Other provider…" form at the end of the sign-in's provider list: a provider of one's
/// own from its issuer URL, as `authtui providers add` makes it. Enter discovers the server
/// (in the background), the form then shows what it offers and whether authtui can register
/// itself there, with the provider's id to confirm; Enter again registers (when no client id
/// was given and the server allows it), saves `providers/ID.json` and goes on to the sign-in.
public struct IssuerForm: Sendable, Equatable {
  /// The fields, in focus order.
  public enum Field: Sendable, Equatable {
    case issuer, clientID, providerID
  }

  /// The work in flight; the form takes no second request meanwhile.
  public enum Pending: Sendable, Equatable {
    /// Discovering the issuer (Esc stops waiting for it).
    case discovering(RequestID)
    /// Registering and saving the provider.
    case adding(RequestID)
  }

  /// The issuer URL typed or pasted (prefilled with the demo's sandbox server).
  public var issuer: TextField
  /// A client id the person has already; empty: authtui registers itself where it can.
  public var clientID = TextField()
  /// The provider's id, shown once the issuer is discovered (prefilled from its host).
  public var providerID = TextField()
  /// The focused field.
  public var focus: Field = .issuer
  /// What the server offers, once discovered, and the issuer as it was typed then: editing
  /// the issuer forgets it.
  public var discovery: IssuerSummary?
  /// Why the last step failed and what to do, said under the form; the fields keep what was
  /// typed.
  public var problem: String?
  /// The work in flight.
  public var pending: Pending?

  /// An empty form; `suggestion` prefills the issuer (the demo's sandbox server).
  public init(suggestion: String? = nil) {
    issuer = TextField(suggestion ?? "")
  }

  /// The fields shown, in focus order.
  public var fields: [Field] {
    discovery == nil ? [.issuer, .clientID] : [.issuer, .clientID, .providerID]
  }

  /// The client id typed, without surrounding spaces; nil when none was.
  public var givenClientID: String? {
    let text = clientID.text.trimmingCharacters(in: .whitespaces)
    return text.isEmpty ? nil : text
  }

  /// True when saving registers authtui with the server first (RFC 7591): no client id was
  /// given and the discovered server offers registration.
  public var registers: Bool { givenClientID == nil && discovery?.registration == true }

  /// The request the form waits for, if any.
  public var pendingRequest: RequestID? {
    switch pending {
    case .discovering(let id)?, .adding(let id)?: return id
    case nil: return nil
    }
  }
}
