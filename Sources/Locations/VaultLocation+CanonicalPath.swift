#if canImport(Glibc)
  import Glibc
#endif

extension VaultLocation {
  /// The vault's path with links and `..` resolved, so that the agent and `authtui token` name
  /// the same file the same way however each was told of it (`--vault`, `AUTHTUI_VAULT`, a
  /// relative path, a linked folder). A file that does not exist keeps its plain absolute path.
  package var canonicalPath: String {
    // realpath resolves a relative path against the working folder, as `fileURL` does.
    guard let resolved = realpath(path, nil) else {
      return PathText.standardized(path)
    }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
