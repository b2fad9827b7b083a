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

/// `count` accounts of four providers, their tokens about as long as real ones.
func benchmarkAccounts(_ count: Int, now: Date) -> [NewAccount] {
  (0..<count).map { number in
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
}

let arguments = CommandLine.arguments

// `VaultBenchmark --write-vault PATH ACCOUNTS [interactive]`: only writes a vault of ACCOUNTS
// accounts at PATH, its passphrase AUTHTUI_PASSPHRASE's, for the benchmarks of the command
// line. Its scrypt is the cheapest authtui writes (the throwaway vaults' of the demo and the
// tests), so that they pay for what they measure and not for a key derivation; or, with
// `interactive`, the real one (for the memory after a real unlock).
if (4...5).contains(arguments.count), arguments[1] == "--write-vault",
  let count = Int(arguments[3])
{
  guard let passphrase = ProcessInfo.processInfo.environment["AUTHTUI_PASSPHRASE"] else {
    FileHandle.standardError.write(Data("VaultBenchmark: set AUTHTUI_PASSPHRASE\n".utf8))
    exit(2)
  }
  let vault = try await Vault.create(
    at: VaultLocation(path: arguments[2]), passphrase: Passphrase(passphrase),
    parameters: arguments.count == 5 && arguments[4] == "interactive"
      ? .interactive : Scrypt.Parameters(cost: 1 << 10, blockSize: 8, parallelism: 1))
  _ = try await vault.insert(contentsOf: benchmarkAccounts(count, now: Date()))
  await vault.close()
  exit(0)
}

let accountCount = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
let slowRuns = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let listRuns = 2 * slowRuns + 1
let fastRuns = 201

let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
  "authtui-bench-\(ProcessInfo.processInfo.processIdentifier)")
defer { try? FileManager.default.removeItem(at: folder) }
let location = VaultLocation(path: folder.path + "/vault.db")
let passphrase = Passphrase("benchmark passphrase, not a secret")

let clock = ContinuousClock()
let buildStart = clock.now
let vault = try await Vault.create(at: location, passphrase: passphrase)
let records = try await vault.insert(contentsOf: benchmarkAccounts(accountCount, now: Date()))
await vault.close()
let buildTime = clock.now - buildStart

let unlock = try await measure(slowRuns) {
  let opened = try await Vault.open(at: location)
  try await opened.unlock(with: passphrase)
  await opened.close()
}
// The unlock's baseline: the key derivation alone, with the same parameters.
let keyDerivation = try await measure(slowRuns) {
  _ = try Scrypt.deriveKey(
    password: Array("benchmark passphrase, not a secret".utf8),
    salt: [UInt8](repeating: 7, count: 32), parameters: .interactive, byteCount: 32)
}

let unlocked = try await Vault.open(at: location)
try await unlocked.unlock(with: passphrase)
var listed = 0
let list = try await measure(listRuns) {
  listed = try await unlocked.listAccounts().accounts.count
}
precondition(listed == accountCount, "listing returned \(listed) accounts")

// A reload after another process wrote one account: `elsewhere` (a connection of its own, as
// another process has) writes it, untimed, and the listing is brought up to date.
let elsewhere = try await Vault.open(at: location)
try await elsewhere.unlock(with: passphrase)
var listing = try await unlocked.listAccounts()
var written = 0
var generator = SystemRandomNumberGenerator()
var reloadSamples: [Duration] = []
for _ in 0..<fastRuns {
  written += 1
  let record = records[Int.random(in: 0..<records.count, using: &generator)]
  _ = try await elsewhere.updateTokens(
    of: record.id,
    to: TokenSet(
      accessToken: "elsewhere-\(written)", refreshToken: "elsewhere-refresh-\(written)",
      expiresAt: Date().addingTimeInterval(3600), obtainedAt: Date()))
  let start = clock.now
  let update = try await unlocked.listAccounts(updating: listing)
  reloadSamples.append(clock.now - start)
  precondition(
    update.rowsRead == 1 && update.changed.map(\.id) == [record.id]
      && update.listing.accounts.count == accountCount,
    "the reload read \(update.rowsRead) rows")
  listing = update.listing
}
await elsewhere.close()
let reload = median(reloadSamples)

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
    + " p=\(status.kdfParameters.parallelism); medians of \(slowRuns) runs (unlock),"
    + " \(listRuns) (list) and \(fastRuns) (the others)")
print("  unlock (open + KDF + unwrap)       \(format(unlock))")
print("  the KDF alone (scrypt)             \(format(keyDerivation))")
print("  list all accounts, decrypted       \(format(list))")
print("  reload after one changed elsewhere \(format(reload))")
print("  read one account by name           \(format(read))")
print("  update one account's tokens        \(format(update))")
