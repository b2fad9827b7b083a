import Terminal
import Testing

/// Dotted roles fall back to their parents and finally to `default`.
@Suite struct RoleTests {
  @Test func aDottedRoleFallsBackToItsParentsThenDefault() {
    #expect(Role("list.selected").fallbackChain == ["list.selected", "list", "default"])
    #expect(Role("dialog.button.selected").parent == "dialog.button")
  }

  @Test func aTopLevelRoleFallsBackToDefaultAndDefaultToNothing() {
    #expect(Role("title").parent == .default)
    #expect(Role.default.parent == nil)
    #expect(Role.default.fallbackChain == [.default])
  }
}
