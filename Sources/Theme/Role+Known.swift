import Terminal

/// The roles of authtui's screens: the only names a theme's `[styles]` may use.
///
/// Views draw with these constants; a role a theme leaves out falls back to its parent
/// (`badge.expired` → `badge` is not listed, so → `default`). Add a role here before drawing
/// with it, and give it a line in every file of `Themes/`.
extension Role {
  /// The top bar: application name and current screen.
  public static let title: Role = "title"
  /// Secondary text in the top bar (vault path, account count).
  public static let titleDetail: Role = "title.detail"
  /// The bottom status line.
  public static let status: Role = "status"
  /// Key hints in the status line ("a add  / filter").
  public static let statusHint: Role = "status.hint"
  /// The key part of a hint (`a`, `/`).
  public static let statusKey: Role = "status.key"
  /// An error shown in place in the status line.
  public static let statusError: Role = "status.error"
  /// A warning in the status line.
  public static let statusWarning: Role = "status.warning"
  /// A success message in the status line ("signed in as alice").
  public static let statusSuccess: Role = "status.success"
  /// "Refreshing…" and other work-in-progress text.
  public static let statusBusy: Role = "status.busy"
  /// The spinner of background work.
  public static let spinner: Role = "spinner"
  /// Rows of the account list.
  public static let list: Role = "list"
  /// Column headings of the account list.
  public static let listHeader: Role = "list.header"
  /// A provider's group heading in the account list.
  public static let listGroup: Role = "list.group"
  /// The selected row.
  public static let listSelected: Role = "list.selected"
  /// Secondary columns (expiry time, scopes, refreshable).
  public static let listSecondary: Role = "list.secondary"
  /// The part of a label that matches the filter.
  public static let listMatch: Role = "list.match"
  /// The part of the selected row's label that matches the filter: on the row's highlight.
  public static let listSelectedMatch: Role = "list.selected.match"
  /// The status badge of the selected row: on the row's highlight, so the bar is unbroken.
  public static let listSelectedBadge: Role = "list.selected.badge"
  /// The message of an empty list ("no accounts yet: press a").
  public static let listEmpty: Role = "list.empty"
  /// Status badge: token valid.
  public static let badgeValid: Role = "badge.valid"
  /// Status badge: token expires soon.
  public static let badgeExpiring: Role = "badge.expiring"
  /// Status badge: token expired.
  public static let badgeExpired: Role = "badge.expired"
  /// Status badge: sign-in needed.
  public static let badgeSignIn: Role = "badge.signin"
  /// A countdown (expiry, sign-in wait).
  public static let countdown: Role = "countdown"
  /// A countdown about to run out.
  public static let countdownUrgent: Role = "countdown.urgent"
  /// The filled part of a countdown bar.
  public static let countdownBar: Role = "countdown.bar"
  /// The empty part of a countdown bar.
  public static let countdownTrack: Role = "countdown.track"
  /// The user code of a device or PIN sign-in, shown large.
  public static let code: Role = "code"
  /// The QR code of a device or PIN sign-in's address: the dark modules are the text, so the
  /// role should be dark on light (scanners want it so).
  public static let qr: Role = "qr"
  /// A URL to open (verification page, authorization URL).
  public static let url: Role = "url"
  /// Text of the details screen.
  public static let details: Role = "details"
  /// Field names of the details screen ("Scopes", "Expires").
  public static let detailsLabel: Role = "details.label"
  /// A dialog's inside (sign-out confirmation, export).
  public static let dialog: Role = "dialog"
  /// A dialog's frame.
  public static let dialogBorder: Role = "dialog.border"
  /// A dialog's title.
  public static let dialogTitle: Role = "dialog.title"
  /// A dialog button.
  public static let dialogButton: Role = "dialog.button"
  /// The focused dialog button.
  public static let dialogButtonSelected: Role = "dialog.button.selected"
  /// A warning inside a dialog ("this revokes the token").
  public static let dialogWarning: Role = "dialog.warning"
  /// A text field (filter, file path, variable name, passphrase, pasted URL).
  public static let input: Role = "input"
  /// A text field's label.
  public static let inputLabel: Role = "input.label"
  /// A text field's placeholder when it is empty.
  public static let inputPlaceholder: Role = "input.placeholder"
  /// Text of the help screen.
  public static let help: Role = "help"
  /// Section headings of the help screen.
  public static let helpSection: Role = "help.section"
  /// Keys on the help screen.
  public static let helpKey: Role = "help.key"
  /// Frames and separator lines outside dialogs.
  public static let border: Role = "border"
  /// Full-screen notices ("the terminal is too small: 60×16 needed").
  public static let notice: Role = "notice"
  /// The scroll position indicator of long lists.
  public static let scrollbar: Role = "scrollbar"

  /// Every role a theme may style, `default` first.
  public static let known: [Role] = [
    .default, .title, .titleDetail, .status, .statusHint, .statusKey, .statusError,
    .statusWarning, .statusSuccess, .statusBusy, .spinner, .list, .listHeader, .listGroup,
    .listSelected, .listSelectedMatch, .listSelectedBadge, .listSecondary, .listMatch, .listEmpty,
    .badgeValid, .badgeExpiring,
    .badgeExpired, .badgeSignIn, .countdown, .countdownUrgent, .countdownBar, .countdownTrack,
    .code, .qr, .url, .details, .detailsLabel, .dialog, .dialogBorder, .dialogTitle, .dialogButton,
    .dialogButtonSelected, .dialogWarning, .input, .inputLabel, .inputPlaceholder, .help,
    .helpSection, .helpKey, .border, .notice, .scrollbar,
  ]
}
