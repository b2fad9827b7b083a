import Foundation

/// What an issued token stands for: who approved which client for which scopes. Every token
/// that comes from one approval shares a `family`, so a detected replay can revoke them all.
struct TokenGrant: Sendable, Equatable {
  let clientID: String
  let username: String
  let scopes: [String]
  let family: String

  init(clientID: String, username: String, scopes: [String], family: String = RandomToken.opaque())
  {
    self.clientID = clientID
    self.username = username
    self.scopes = scopes
    self.family = family
  }
}

/// Every access and refresh token a profile issued, with its state. Refresh tokens can rotate:
/// a redeemed one is kept as "rotated", and presenting it again is a reuse that revokes its
/// whole family (OAuth 2.0 Security BCP, RFC 9700 §4.14.2).
struct TokenLedger: Sendable {
  enum Kind: Sendable { case access, refresh }
  enum Status: Sendable { case active, rotated, revoked }

  struct Entry: Sendable {
    let kind: Kind
    let grant: TokenGrant
    let expiresAt: Date?
    var status: Status
    /// The RFC 7638 thumbprint of the DPoP key the token is bound to (`cnf.jkt`, RFC 9449 §6),
    /// kept here instead of in the token, which stays opaque.
    var jkt: String? = nil
  }

  /// The outcome of presenting a refresh token.
  enum RefreshOutcome: Sendable, Equatable {
    case valid(TokenGrant)
    /// A rotated-out token came back: its family is now revoked.
    case reused
    case invalid
  }

  /// The outcome of a revocation request (RFC 7009 §2.2).
  enum RevocationOutcome: Sendable, Equatable {
    case revoked
    case unknown
    case otherClient
  }

  private var entries: [String: Entry] = [:]
  private var revokedFamilies: Set<String> = []

  /// A new access token for `grant`.
  mutating func issueAccessToken(
    for grant: TokenGrant, lifetime: Int, now: Date, hex: Bool = false, jkt: String? = nil
  ) -> String {
    let token = hex ? RandomToken.hex() : RandomToken.opaque()
    entries[token] = Entry(
      kind: .access, grant: grant, expiresAt: now.addingTimeInterval(TimeInterval(lifetime)),
      status: .active, jkt: jkt)
    return token
  }

  /// A new refresh token for `grant`, bound to the DPoP key `jkt` when given.
  mutating func issueRefreshToken(
    for grant: TokenGrant, lifetime: Int, now: Date, jkt: String? = nil
  ) -> String {
    let token = RandomToken.opaque()
    entries[token] = Entry(
      kind: .refresh, grant: grant,
      expiresAt: lifetime > 0 ? now.addingTimeInterval(TimeInterval(lifetime)) : nil,
      status: .active, jkt: jkt)
    return token
  }

  /// The thumbprint of the DPoP key `token` is bound to; nil for a Bearer token or an unknown
  /// one.
  func boundKey(of token: String) -> String? {
    entries[token]?.jkt
  }

  /// The grant behind `token` when it is an unexpired, unrevoked access token.
  func activeAccessToken(_ token: String, now: Date) -> TokenGrant? {
    guard let entry = entries[token], entry.kind == .access, isUsable(entry, now: now) else {
      return nil
    }
    return entry.grant
  }

  /// Checks a refresh token presented by `clientID`; with `rotate`, a valid one is retired,
  /// and a retired one presented again revokes its family when `reuseRevokesFamily`.
  mutating func redeemRefreshToken(
    _ token: String, clientID: String, now: Date, rotate: Bool, reuseRevokesFamily: Bool = true
  ) -> RefreshOutcome {
    guard let entry = entries[token], entry.kind == .refresh, entry.grant.clientID == clientID,
      !revokedFamilies.contains(entry.grant.family)
    else { return .invalid }
    switch entry.status {
    case .revoked:
      return .invalid
    case .rotated:
      guard reuseRevokesFamily else { return .invalid }
      revokeFamily(entry.grant.family)
      return .reused
    case .active:
      guard isUsable(entry, now: now) else { return .invalid }
      if rotate { entries[token]?.status = .rotated }
      return .valid(entry.grant)
    }
  }

  /// Revokes every token of `family`.
  mutating func revokeFamily(_ family: String) {
    revokedFamilies.insert(family)
  }

  /// Ends the access tokens of `family` issued so far (a GitLab refresh retires them).
  mutating func revokeAccessTokens(of family: String) {
    for (token, entry) in entries where entry.kind == .access && entry.grant.family == family {
      entries[token]?.status = .revoked
    }
  }

  /// Revokes the grant behind a live `token` of either kind (Google); false when the token is
  /// unknown, expired or already revoked.
  mutating func revokeGrant(of token: String, now: Date) -> Bool {
    guard let entry = entries[token], isUsable(entry, now: now) else { return false }
    revokeFamily(entry.grant.family)
    return true
  }

  /// RFC 7009 §2.1: revoking a refresh token revokes its family (the access tokens of the same
  /// grant included); revoking an access token revokes that token only.
  mutating func revoke(_ token: String, clientID: String) -> RevocationOutcome {
    guard let entry = entries[token] else { return .unknown }
    guard entry.grant.clientID == clientID else { return .otherClient }
    switch entry.kind {
    case .refresh: revokeFamily(entry.grant.family)
    case .access: entries[token]?.status = .revoked
    }
    return .revoked
  }

  /// Revokes every token issued to `clientID` (its registration was deleted, RFC 7592 §2.3).
  mutating func revokeClient(_ clientID: String) {
    for (_, entry) in entries where entry.grant.clientID == clientID {
      revokeFamily(entry.grant.family)
    }
  }

  /// Makes every refresh token unusable (the `/_sandbox/invalidate` hook); returns how many
  /// were still usable.
  mutating func invalidateRefreshTokens(now: Date) -> Int {
    var count = 0
    for (token, entry) in entries where entry.kind == .refresh && entry.status != .revoked {
      if isUsable(entry, now: now) { count += 1 }
      entries[token]?.status = .revoked
    }
    return count
  }

  private func isUsable(_ entry: Entry, now: Date) -> Bool {
    guard entry.status == .active, !revokedFamilies.contains(entry.grant.family) else {
      return false
    }
    if let expiresAt = entry.expiresAt, expiresAt <= now { return false }
    return true
  }
}

extension TokenLedger: CustomStringConvertible {
  /// Counts only: the tokens are the keys of the ledger and never printed.
  var description: String {
    "TokenLedger(\(entries.count) tokens, \(revokedFamilies.count) revoked families)"
  }
}
