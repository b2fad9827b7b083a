extension SandboxPaths {
  /// GitHub (`github.com` is `/github`, `api.github.com` is `/github-api`).
  public enum GitHub {
    /// Device flow start (`POST github.com/login/device/code`).
    public static let deviceCode = "/github/login/device/code"
    /// Where the person types the code (`github.com/login/device`).
    public static let device = "/github/login/device"
    /// Token endpoint: device codes and refresh tokens (`POST github.com/login/oauth/access_token`).
    public static let token = "/github/login/oauth/access_token"
    /// The signed-in user (`GET api.github.com/user`).
    public static let user = "/github-api/user"
    /// The OAuth app token API, which needs the client secret (`api.github.com/applications/…`).
    public static let applications = "/github-api/applications/"
  }
}
