/// Handing an access token out as it is, to be used elsewhere without authtui: written to an
/// env file, put on the clipboard, given to git, or printed as a header with no proof. The
/// command line's `export`, `git-credential` and `token --header` without `--for`, and the
/// UI's copy and export keys, all ask here.
public enum TokenHandOut {
  /// Throws `dpopBound` when `account`'s token is DPoP-bound (RFC 9449): it works only with a
  /// fresh proof of the key authtui keeps, made for each request, so a copy of it is useless;
  /// `refusing` names what would have handed it out (`export`, `copying`).
  public static func check(account: AccountName, isDPoPBound: Bool, refusing: String)
    throws(AccountsError)
  {
    if isDPoPBound { throw .dpopBound(account, refusing: refusing) }
  }
}
