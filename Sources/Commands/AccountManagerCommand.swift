/// `authtui [--vault PATH] [--config DIR] [--theme NAME] [--no-color]`: the interactive account
/// manager, which the composition root runs on the main thread.
struct AccountManagerCommand: ParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "", summary: "Open the interactive account manager.")

  var global = GlobalOptions()
}
