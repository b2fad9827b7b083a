import Testing

@testable import Commands

/// `rename ACCOUNT LABEL` takes the new name whole (`sandbox/bob`) when its provider is the
/// account's own; any other text is the label as typed, checked by the label rules.
@Suite struct RenameLabelTests {
  @Test(arguments: [
    ("sandbox/alice", "sandbox/bob", "bob"), ("sandbox", "sandbox/bob", "bob"),
    ("sandbox/alice", "github/bob", "github/bob"), ("#3", "sandbox/bob", "sandbox/bob"),
    ("sandbox/alice", "bob", "bob"), ("sandbox/alice", "sandbox/", ""),
  ])
  func aNewNameWholeGivesItsLabel(target: String, text: String, label: String) {
    #expect(RenameCommand.label(text, renaming: target) == label)
  }
}
