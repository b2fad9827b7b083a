import Vault

extension FuzzTargets {
  /// The vault's side file (`vault.db-refresh`) as read back from disk, where a crash, a full
  /// disk or a damaged block may have left anything.
  ///
  /// The records read are a whole prefix of the input, each as long as its header says, and
  /// written out again they are that prefix byte for byte.
  static let refreshSideFile = FuzzTarget(
    name: "refresh-side-file", summary: "RefreshSideFile: the vault's kept-aside refreshes"
  ) { bytes in
    let (records, end) = RefreshSideFile.parse(bytes[...])
    require(end >= 0 && end <= bytes.count, "the used part ends at \(end) of \(bytes.count)")
    let written = records.flatMap(\.bytes)
    require(written == Array(bytes[..<end]), "the records do not write back as they were read")
    // Read from a slice that does not start at 0 (the reader gets the file's bytes as one).
    let shifted = ([0] + bytes)[1...]
    let again = RefreshSideFile.parse(shifted)
    require(again.records == records && again.end == end, "the reading depends on the slice")
  }
}
