import Accounts
import Foundation
import Terminal
import Theme

/// One account's details: everything known about its tokens, never a token itself.
enum DetailsView {
  static func draw(
    _ name: AccountName, state: AppState, body: Rect, now: Date, in buffer: inout ScreenBuffer
  ) {
    buffer.fill(body, role: .details)
    Chrome.titleBar(name.description, detail: state.configuration.vaultPath, in: &buffer)
    var page = Page(
      Rect(row: body.top + 1, column: 2, rows: body.size.rows - 1, columns: body.size.columns - 4))
    guard let account = state.account(name) else {
      page.line([("This account is no longer in the vault.", .details)], in: &buffer)
      return
    }
    let labelWidth = 14
    let zone = state.configuration.timeZone
    let defaultNote =
      account.isDefault
      ? " (the default: `authtui token \(name.provider)` names it)" : ""
    page.field("Account", name.description + defaultNote, labelWidth: labelWidth, in: &buffer)
    let provider =
      account.providerName == name.provider.rawValue
      ? account.providerName : "\(account.providerName) (\(name.provider))"
    page.field("Provider", provider, labelWidth: labelWidth, in: &buffer)
    if let identity = account.identity {
      page.field("Signed in as", identity, labelWidth: labelWidth, in: &buffer)
    }
    if let tenant = account.tenant {
      page.field("Tenant", tenant, labelWidth: labelWidth, in: &buffer)
    }
    let status = account.status(at: now)
    let (badge, badgeRole) = Chrome.badge(status, busy: state.isBusy(name), now: now)
    if !page.isFull {
      buffer.write("Status", at: Point(row: page.row, column: page.rect.left), role: .detailsLabel)
      page.line(
        [(badge, badgeRole), ("  " + TimeText.expiry(of: account, now: now), .details)],
        indent: labelWidth, in: &buffer)
    }
    page.field(
      "Scopes", account.scopes.isEmpty ? "none listed" : account.scopes.joined(separator: " "),
      labelWidth: labelWidth, in: &buffer)
    if account.isDPoPBound {
      drawDPoPKey(of: account, labelWidth: labelWidth, on: &page, in: &buffer)
    } else {
      page.field(
        "Token type", account.tokenType ?? "not given", labelWidth: labelWidth, in: &buffer)
    }
    if let obtained = account.obtainedAt {
      page.field(
        "Obtained",
        TimeText.date(obtained, in: zone) + " ("
          + TimeText.duration(now.timeIntervalSince(obtained))
          + " ago)", labelWidth: labelWidth, in: &buffer)
    }
    let expires: String
    if account.needsSignIn || !account.hasAccessToken {
      expires = "no token: sign in again"
    } else if let expiresAt = account.expiresAt {
      expires =
        TimeText.date(expiresAt, in: zone) + " (" + TimeText.expiry(of: account, now: now) + ")"
    } else {
      expires = "never (the provider gave no expiry)"
    }
    page.field("Expires", expires, labelWidth: labelWidth, in: &buffer)
    let refreshable: String
    if !account.refreshable {
      refreshable = "no: sign in again when the token expires"
    } else if let validity = account.refreshValidity {
      let end = TimeText.date(validity.end, in: zone)
      refreshable =
        validity.end > now
        ? "yes, until \(end), when its refresh token ends: sign in again before then"
        : "no longer: the refresh token ended \(end); sign in again"
    } else {
      refreshable = "yes: authtui refreshes the token before it is used"
    }
    page.field("Refreshable", refreshable, labelWidth: labelWidth, in: &buffer)
    // One line at 60 columns; on a screen with a single row left it goes there, without the
    // blank line before it, rather than off the screen.
    if page.remaining > 1 { page.skip() }
    let handOut =
      account.needsSignIn || !account.hasAccessToken
      ? "There is no token to hand out until \(state.keyName(.signInAgain, in: .details)) signs "
        + "\(name) in again."
      : account.isDPoPBound
        ? "The token is never shown and works only with a proof of its key: "
          + "`authtui token \(name) --header --for METHOD URL` gives both."
        : "The token is never shown: \(state.keyName(.copy, in: .details)) copies it, "
          + "\(state.keyName(.export, in: .details)) exports it."
    page.wrapped(handOut, role: .listSecondary, in: &buffer)
  }

  /// The token type of a DPoP-bound account (RFC 9449), and the thumbprint of its key (`jkt`,
  /// RFC 7638): beside its label when it fits, else on the line below (it cannot be broken).
  private static func drawDPoPKey(
    of account: AccountSummary, labelWidth: Int, on page: inout Page,
    in buffer: inout ScreenBuffer
  ) {
    page.field(
      "Token type", "DPoP, bound to the key below",
      labelWidth: labelWidth, in: &buffer)
    guard let jkt = account.dpopThumbprint else {
      page.field(
        "Key (jkt)", "not readable from the vault", labelWidth: labelWidth, in: &buffer)
      return
    }
    if jkt.count <= page.rect.size.columns - labelWidth {
      page.field("Key (jkt)", jkt, labelWidth: labelWidth, in: &buffer)
    } else {
      page.line([("Key (jkt)", .detailsLabel)], in: &buffer)
      page.line([(jkt, .details)], indent: 2, in: &buffer)
    }
  }
}
