import Foundation
import Terminal
import TestSupport
import Testing
import Theme

/// Choosing themes by name: built-in and user themes, and the errors users see.
@Suite struct ThemeCatalogTests {
  @Test func loadsUserThemesFromTheConfigFolderBesideTheBuiltInOnes() throws {
    let folder = try TemporaryDirectory()
    try folder.write("[styles]\ntitle = red black bold\n", to: "ocean.theme")
    try folder.write("not a theme", to: "notes.txt")
    let catalog = ThemeCatalog(userThemesDirectory: folder.path)
    #expect(catalog.names == ["default", "high-contrast", "light", "monochrome", "ocean"])
    let ocean = try catalog.theme(named: "ocean")
    #expect(
      ocean.style(for: "title")
        == Style(foreground: .indexed(1), background: .indexed(0), attributes: [.bold]))
  }

  @Test func aUserThemeReplacesTheBuiltInOfTheSameName() throws {
    let folder = try TemporaryDirectory()
    try folder.write("[styles]\ndefault = green black\n", to: "default.theme")
    let catalog = ThemeCatalog(userThemesDirectory: folder.path)
    #expect(try catalog.theme(named: "default").style(for: .default).foreground == .indexed(2))
  }

  @Test func aBrokenUserThemeIsReportedWithFileAndLineAndTheRestStillLoads() throws {
    let folder = try TemporaryDirectory()
    try folder.write("[styles]\ntitle = red\nlist = bright-purple\n", to: "broken.theme")
    let catalog = ThemeCatalog(userThemesDirectory: folder.path)
    #expect(!catalog.names.contains("broken"))
    #expect(catalog.names.contains("default"))
    #expect(catalog.problems.count == 1)
    #expect(
      catalog.problems.first?.description.hasPrefix(
        folder.file("broken.theme") + ":3: unknown colour \"bright-purple\"") == true)
  }

  @Test func aMissingUserFolderMeansOnlyBuiltInThemes() {
    let catalog = ThemeCatalog(userThemesDirectory: "/nonexistent/authtui/themes")
    #expect(catalog.names == ["default", "high-contrast", "light", "monochrome"])
    #expect(catalog.problems.isEmpty)
  }

  @Test func anUnknownNameListsTheAvailableThemes() {
    let catalog = ThemeCatalog()
    #expect(throws: ThemeCatalogError.self) { try catalog.theme(named: "ligth") }
    do {
      _ = try catalog.theme(named: "ligth")
    } catch {
      #expect(
        error.description
          == "no theme called \"ligth\" (did you mean \"light\"? available: default, "
          + "high-contrast, light, monochrome; user themes go in <config dir>/themes/NAME.theme)")
    }
  }

  @Test func noColourPicksTheMonochromeThemeUnlessOneWasRequested() throws {
    let catalog = ThemeCatalog()
    #expect(try catalog.theme(requested: nil, colorsOff: false).name == "default")
    #expect(try catalog.theme(requested: nil, colorsOff: true).name == "monochrome")
    #expect(try catalog.theme(requested: "light", colorsOff: true).name == "light")
  }

  @Test func anUnreadableThemeFileNamesThePath() {
    #expect(throws: ThemeCatalogError.self) {
      try ThemeCatalog.load(path: "/nonexistent/x.theme", name: "x")
    }
  }
}
