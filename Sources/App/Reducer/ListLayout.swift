import AuthCore

/// The lines of the account list: a heading per provider, then its accounts. The reducer uses
/// it to keep the selection on screen, the list view to draw.
struct ListLayout {
  /// One line of the list.
  enum Line: Equatable {
    /// A provider's heading: its display name, id and how many accounts follow.
    case group(name: String, provider: ProviderID, count: Int)
    /// The account at this index of the visible accounts.
    case account(Int)
  }

  /// Every line, top first.
  let lines: [Line]
  /// For each visible account, the index of its line.
  let accountLines: [Int]

  /// The lines for `accounts` (sorted by provider, so each provider's accounts are together).
  init(accounts: [AccountSummary]) {
    var lines: [Line] = []
    var accountLines: [Int] = []
    lines.reserveCapacity(accounts.count + 8)
    accountLines.reserveCapacity(accounts.count)
    var index = 0
    while index < accounts.count {
      let provider = accounts[index].name.provider
      var end = index
      while end < accounts.count && accounts[end].name.provider == provider { end += 1 }
      lines.append(
        .group(name: accounts[index].providerName, provider: provider, count: end - index))
      for member in index..<end {
        accountLines.append(lines.count)
        lines.append(.account(member))
      }
      index = end
    }
    self.lines = lines
    self.accountLines = accountLines
  }

  /// The first line to show so that `line` is visible in `height` lines, moving as little as
  /// possible from `top` (and showing a group's heading with its first account).
  static func scrollTop(keeping line: Int, visibleIn height: Int, from top: Int, lineCount: Int)
    -> Int
  {
    guard height > 0 else { return 0 }
    var top = top
    let wanted = max(0, line - 1)  // the heading above, when there is one
    if wanted < top { top = wanted }
    if line >= top + height { top = line - height + 1 }
    return max(0, min(top, max(0, lineCount - height)))
  }
}
