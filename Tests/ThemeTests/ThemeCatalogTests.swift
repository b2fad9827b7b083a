import Foundation
import Providers
import Terminal
import TestSupport
import Testing
import Theme

#if canImport(Glibc)
  import Glibc
#endif

/// Choosing themes by name: built-in and user themes, and the errors users see.
@Suite struct ThemeCatalogTests {
  /// How authtui reads theme files.
  static func read(_ path: String) throws -> String { try ConfigurationFile.read(path: path) }

  @Test func loadsUserThemesFromTheConfigFolderBesideTheBuiltInOnes() throws {
    let folder = try TemporaryDirectory()
    try folder.write("[styles]\ntitle = red black bold\n", to: "ocean.theme")
    try folder.write("not a theme", to: "notes.txt")
    let catalog = ThemeCatalog(userThemesDirectory: folder.path, readFile: Self.read)
    #expect(catalog.names == ["default", "high-contrast", "light", "monochrome", "ocean"])
    let ocean = try catalog.theme(named: "ocean")
    #expect(
      ocean.style(for: "title")
        == Style(foreground: .indexed(1), background: .indexed(0), attributes: [.bold]))
  }

  @Test func aUserThemeReplacesTheBuiltInOfTheSameName() throws {
    let folder = try TemporaryDirectory()
    try folder.write("[styles]\ndefault = green black\n", to: "default.theme")
    let catalog = ThemeCatalog(userThemesDirectory: folder.path, readFile: Self.read)
    #expect(try catalog.theme(named: "default").style(for: .default).foreground == .indexed(2))
  }

  @Test func aBrokenUserThemeIsReportedWithFileAndLineAndTheRestStillLoads() throws {
    let folder = try TemporaryDirectory()
    try folder.write("[styles]\ntitle = red\nlist = bright-purple\n", to: "broken.theme")
    let catalog = ThemeCatalog(userThemesDirectory: folder.path, readFile: Self.read)
    #expect(!catalog.names.contains("broken"))
    #expect(catalog.names.contains("default"))
    #expect(catalog.problems.count == 1)
    #expect(
      catalog.problems.first?.description.hasPrefix(
        folder.file("broken.theme") + ":3: unknown colour \"bright-purple\"") == true)
  }

  @Test func aMissingUserFolderMeansOnlyBuiltInThemes() {
    let catalog = ThemeCatalog(
      userThemesDirectory: "/nonexistent/authtui/themes", readFile: Self.read)
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
      try ThemeCatalog.load(path: "/nonexistent/x.theme", name: "x", readFile: Self.read)
    }
  }

  @Test func choosingABrokenUserThemeByNameNamesItsFileAndLine() throws {
    let folder = try TemporaryDirectory()
    try folder.write("[styles]\ntitle = red\ntitel = blue\n", to: "ocean.theme")
    let catalog = ThemeCatalog(userThemesDirectory: folder.path, readFile: Self.read)
    #expect {
      try catalog.theme(named: "ocean")
    } throws: { error in
      (error as? ThemeCatalogError)?.description
        == folder.file("ocean.theme")
        + ":3: unknown role \"titel\" (did you mean \"title\"? the roles are listed in docs/configuration.md "
        + "\"Themes and keys\" and in Themes/default.theme)"
    }
  }

  @Test func aThemeFileThatIsAFIFOOrADirectoryIsNamedAsSuchAndNeverOpened() async throws {
    let folder = try TemporaryDirectory()
    #expect(mkfifo(folder.file("pipe.theme"), 0o600) == 0)
    try FileManager.default.createDirectory(
      atPath: folder.file("dir.theme"), withIntermediateDirectories: false)
    let watch = try FileOpenWatch([folder.file("pipe.theme")])
    let path = folder.path
    let catalog = try #require(
      await finishing(within: 30) { ThemeCatalog(userThemesDirectory: path, readFile: Self.read) },
      "reading a FIFO theme blocked")
    #expect(
      catalog.problems.map(\.description) == [
        folder.file("dir.theme")
          + ": is a directory, not a file; remove it or give it a name that does not end in the file's extension",
        folder.file("pipe.theme")
          + ": is a FIFO (named pipe), not a file; authtui does not read from pipes: replace it with a regular file",
      ])
    #expect(watch.openedPaths().isEmpty)
    #expect(catalog.names == ["default", "high-contrast", "light", "monochrome"])
  }
}
