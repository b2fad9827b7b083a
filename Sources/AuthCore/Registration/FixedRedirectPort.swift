import Loopback

/// The loopback port a registration fixes in its redirect URI: chosen when authtui registers
/// itself, kept in the provider file (`redirect_port`) and listened on at every sign-in.
public enum FixedRedirectPort {
  /// A port nothing listens on now, outside the kernel's ephemeral range so that no other
  /// program's port-0 socket is given it later (`LoopbackServer.freeFixedPort`); nil when no
  /// socket could be opened.
  public static func choose() -> UInt16? {
    LoopbackServer.freeFixedPort()
  }
}
