// A child process running Vault code, driven by VaultTests through standard input and output, so
// that tests can race real processes and kill them with SIGKILL at a chosen moment.
//
//   VaultProbe VAULT serve                   unlock, print "ready", then answer stdin commands:
//       begin ID HOLDER SECONDS [NOW_MS]     -> "acquired EXPIRES_MS" | "held HOLDER UNTIL_MS"
//       complete ID ACCESS REFRESH           -> "completed VERSION" | "lost"
//   VaultProbe VAULT update-loop START COUNT ID…
//                                            updates i = START…START+COUNT-1: access-i, refresh-i
//                                            and expiry i (Unix time) to ID[i % n], then prints
//                                            "committed i"
//   VaultProbe VAULT passwd-interrupted      change the passphrase to $VAULT_PROBE_NEW_PASSPHRASE
//                                            and stop forever just before the commit
//
// The passphrase comes from $VAULT_PROBE_PASSPHRASE (never argv).
import Foundation
import Vault

#if canImport(Glibc)
  import Glibc
#endif

func say(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
  let bytes = Array(("VaultProbe: " + message + "\n").utf8)
  _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(1)
}

func milliseconds(_ date: Date) -> Int64 {
  Int64((date.timeIntervalSince1970 * 1000).rounded())
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
  fail("usage: VaultProbe VAULT serve|update-loop|passwd-interrupted")
}
let environment = ProcessInfo.processInfo.environment
let passphrase = Passphrase(environment["VAULT_PROBE_PASSPHRASE"] ?? "")

let vault: Vault
do {
  vault = try await Vault.open(at: VaultLocation(path: arguments[0]))
  try await vault.unlock(with: passphrase)
} catch {
  fail("\(error)")
}

switch arguments[1] {
case "serve":
  say("ready")
  var leases: [Int64: RefreshLease] = [:]
  while let line = readLine() {
    let words = line.split(separator: " ").map(String.init)
    do {
      switch words.first {
      case "begin":
        let now =
          words.count > 4
          ? Int64(words[4]).map { Date(timeIntervalSince1970: Double($0) / 1000) } : nil
        let outcome = try await vault.beginRefresh(
          of: AccountID(Int64(words[1]) ?? 0), holder: words[2],
          duration: TimeInterval(words[3]) ?? 60, now: now ?? Date())
        switch outcome {
        case .acquired(let lease, _):
          leases[lease.accountID.rawValue] = lease
          say("acquired \(milliseconds(lease.expiresAt))")
        case .heldByOther(let holder, let until):
          say("held \(holder) \(milliseconds(until))")
        case .keptAside(let record):
          say("kept-aside \(record.version)")
        }
      case "complete":
        guard let lease = leases[Int64(words[1]) ?? 0] else { fail("no lease on \(words[1])") }
        do {
          let record = try await vault.completeRefresh(
            lease,
            tokens: TokenSet(accessToken: words[2], refreshToken: words[3], obtainedAt: Date()))
          say("completed \(record.version)")
        } catch .leaseLost {
          say("lost")
        }
      default:
        fail("unknown command: \(line)")
      }
    } catch {
      fail("\(error)")
    }
  }
case "update-loop":
  guard arguments.count > 4, let start = Int(arguments[2]), let count = Int(arguments[3]) else {
    fail("update-loop START COUNT ID…")
  }
  let ids = arguments[4...].compactMap { Int64($0) }.map(AccountID.init)
  for index in start..<(start + count) {
    do {
      _ = try await vault.updateTokens(
        of: ids[index % ids.count],
        to: TokenSet(
          accessToken: "access-\(index)", refreshToken: "refresh-\(index)",
          expiresAt: Date(timeIntervalSince1970: Double(index)), obtainedAt: Date()))
    } catch {
      fail("\(error)")
    }
    say("committed \(index)")
  }
case "passwd-interrupted":
  let newPassphrase = Passphrase(environment["VAULT_PROBE_NEW_PASSPHRASE"] ?? "")
  do {
    try await vault.changePassphrase(to: newPassphrase, parameters: nil) {
      say("before-commit")
      // Wait here, inside the transaction, until the test kills this process.
      while true { pause() }
    }
  } catch {
    fail("\(error)")
  }
default:
  fail("unknown mode \(arguments[1])")
}
