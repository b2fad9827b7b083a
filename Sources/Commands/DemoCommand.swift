/// `authtui demo`: the interactive account manager on a throwaway vault against the built-in
/// sandbox provider, which the composition root runs on the main thread.
struct DemoCommand: ParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "demo",
    summary: "Try authtui against the built-in sandbox provider, with a throwaway vault.",
    details: """
      Nothing leaves this machine: the sandbox provider runs inside authtui on 127.0.0.1,
      the vault is a temporary file deleted on exit, and no provider registration is needed.
      """)

  var global = GlobalOptions()
}
