// Medians of the vault's everyday operations on a vault of many accounts (Benchmarks/vault).
//
//   VaultBenchmark [ACCOUNTS] [RUNS]      defaults: 10000 accounts, 5 runs of the slow operations
//
// Unlock uses the real scrypt parameters (N = 2^17, r = 8, p = 1), since the KDF is the point.
import Crypto
import Foundation
import Vault

func median(_ samples: [Duration]) -> Duration {
  let sorted = samples.sorted()
  return sorted[sorted.count / 2]
}

func measure(_ runs: Int, _ body: () async throws -> Void) async rethrows -> Duration {
  var samples: [Duration] = []
  let clock = ContinuousClock()
  for _ in 0..<runs {
    let start = clock.now
    try await body()
    samples.append(clock.now - start)
  }
  return median(samples)
}

func format(_ duration: Duration) -> String {
  let milliseconds =
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  return milliseconds >= 10
    ? String(format: "%8.0f ms", milliseconds) : String(format: "%8.3f ms", milliseconds)
}

let arguments = CommandLine.arguments
let accountCount = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
let slowRuns = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let fastRuns = 201

let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
  "authtui-bench-\(ProcessInfo.processInfo.processIdentifier)")
defer { try? FileManager.default.removeItem(at: folder) }
let location = VaultLocation(path: folder.path + "/vault.db")
let passphrase = Passphrase("benchmark passphrase, not a secret")

let clock = ContinuousClock()
let buildStart = clock.now
let vault = try await Vault.create(at: location, passphrase: passphrase)
let now = Date()
let accounts = (0..<accountCount).map { number in
  NewAccount(
    providerID: ["simkl", "hivesigner", "muhajir", "work"][number % 4], label: "user-\(number)",
    subject: "subject-\(number)",
    identity: ["username": "user\(number)", "email": "u\(number)@example.org"],
    tokens: TokenSet(
      accessToken: String(repeating: "a", count: 40) + "\(number)",
      refreshToken: String(repeating: "r", count: 40) + "\(number)",
      idToken: String(repeating: "i", count: 600), tokenType: "Bearer",
      scopes: ["openid", "profile", "offline_access"], expiresAt: now.addingTimeInterval(3600),
      obtainedAt: now))
}
let records = try await vault.insert(contentsOf: accounts)
await vault.close()
let buildTime = clock.now - buildStart

let unlock = try await measure(slowRuns) {
  let opened = try await Vault.open(at: location)
  try await opened.unlock(with: passphrase)
  await opened.close()
}

let unlocked = try await Vault.open(at: location)
try await unlocked.unlock(with: passphrase)
var listed = 0
let list = try await measure(slowRuns) {
  listed = try await unlocked.listAccounts().accounts.count
}
precondition(listed == accountCount, "listing returned \(listed) accounts")

var generator = SystemRandomNumberGenerator()
let read = try await measure(fastRuns) {
  let record = records[Int.random(in: 0..<records.count, using: &generator)]
  let found = try await unlocked.account(providerID: record.providerID, label: record.label)
  precondition(found?.id == record.id)
}

var counter = 0
let update = try await measure(fastRuns) {
  counter += 1
  let record = records[Int.random(in: 0..<records.count, using: &generator)]
  _ = try await unlocked.updateTokens(
    of: record.id,
    to: TokenSet(
      accessToken: "new-access-\(counter)", refreshToken: "new-refresh-\(counter)",
      expiresAt: Date().addingTimeInterval(3600), obtainedAt: Date()))
}
let status = try await unlocked.status()
await unlocked.close()
let size =
  (try? FileManager.default.attributesOfItem(atPath: location.fileURL.path)[.size] as? Int) ?? 0

print(
  "vault benchmark: \(accountCount) accounts, file \(size / 1024) KiB, built in \(format(buildTime))"
)
print(
  "  scrypt N=\(status.kdfParameters.cost) r=\(status.kdfParameters.blockSize)"
    + " p=\(status.kdfParameters.parallelism); medians of \(slowRuns) runs (unlock, list)"
    + " and \(fastRuns) runs (read, update)")
print("  unlock (open + KDF + unwrap)       \(format(unlock))")
print("  list all accounts, decrypted       \(format(list))")
print("  read one account by name           \(format(read))")
print("  update one account's tokens        \(format(update))")
