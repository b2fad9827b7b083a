import Accounts
import Agent
import Foundation
import System

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui agent [--idle-timeout DURATION]`: unlocks the vault once and answers `authtui token`
/// (and `list`, `export`, `logout`) over a private Unix socket, so that each call skips the
/// scrypt unlock (about half a second).
struct AgentCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration<Self>(
    name: "agent",
    summary:
      "Unlock the vault once and answer `authtui token` from memory (start, stop, status).",
    details: """
      Unlocks the vault once (the passphrase as for every command) and answers `authtui token`,
      `list`, `export` and `logout` for that vault on a socket only you can use:
      $XDG_RUNTIME_DIR/authtui/agent.sock, else /tmp/authtui-UID/agent.sock, or
      AUTHTUI_AGENT_SOCKET. The folder is 0700 and the socket 0600, and every connection from
      another user is refused. Those commands skip their own unlock when the agent answers for
      their vault and unlock the vault themselves otherwise; AUTHTUI_NO_AGENT=1 makes them
      never ask. Refreshes stay one at a time across the agent and
      every other authtui process. Tokens leave the agent only over the socket, to the caller.
      While it runs it refreshes every account that has a refresh token ahead of its expiry
      (when a quarter of the token's lifetime is left, at most five minutes ahead, as the
      interactive UI does), so `token` answers without waiting on the network; a failed
      refresh is tried again after 30 s, doubling up to five minutes, and said on standard
      error. Accounts added or removed by other authtui processes are picked up within a
      second. It reads the provider files and config.json again when one changes (looked at
      every 2 s) and on SIGHUP, and says on standard error what it read; a file that cannot
      be read keeps the providers as they were. Run it with `authtui agent &`, or as a
      systemd --user service (see docs/scripting.md), or in the background with `authtui agent
      start` (below); stop it with Ctrl-C, SIGTERM or `authtui agent stop`, or let
      --idle-timeout stop it: only requests count as activity, not the background refreshes
      (one under way is finished and stored before the agent stops). With --lifetime it
      stops when that time has passed since it started, whatever its activity, finishing
      what is under way as `agent stop` does, and forgets the vault's key; `agent status`
      says when. It also stops by
      itself, saying why, when its socket's folder is removed or its socket replaced: no
      command could reach it. With "agent": {"unlock_once": true} in config.json, the first
      command that unlocks the vault leaves one running by itself (see docs/scripting.md).
      """,
    options: [
      // First: a refusal of the rest is reported on it too.
      .value(
        handoverOption, \.handover, .descriptor, "FD",
        help: "the descriptor agent start hands the vault key over", hidden: true),
      .idleTimeout(\.idleTimeout), .lifetime(\.lifetime),
      .confirm(\.confirm),
    ],
    actions: [AgentStartCommand.self, AgentStopCommand.self, AgentStatusCommand.self])

  /// Between `agent start` and the agent it starts: the option naming the inherited socket the
  /// vault's key comes in on and the agent's readiness goes out on (`AgentHandover`). Not for
  /// people.
  static let handoverOption = "handover-fd"

  var global = GlobalOptions()
  /// `--idle-timeout`: stop after this many seconds without a request; 0 never.
  var idleTimeout = 0
  /// `--lifetime`: stop this long after starting, whatever the activity; nil never.
  var lifetime: Duration?
  /// `--handover-fd`: started by `agent start`, which hands the vault's key over on it.
  var handover: Int32?
  /// `--confirm`: which token requests wait for a person; none unless given (or set per
  /// account in config.json).
  var confirm: ConfirmationMode?

  /// How often the agent looks whether its socket's path still names its socket.
  static let socketCheckInterval: Duration = .seconds(1)

  /// Why the agent stopped.
  enum Stop: Sendable {
    case signal(Int32)
    case idle
    /// Its `--lifetime` ended.
    case lifetime
    /// Its socket's path no longer names its socket: no command can reach it any more.
    case socketLost(AgentSocketIdentity.Change)
  }

  /// What the agent's loop hears of.
  enum Event: Sendable {
    case stop(Stop)
    /// Read the provider files again.
    case reload(AgentProviderReload.Trigger)
  }

  /// The refusal on standard error, and to `agent start` when it started this agent.
  func refuse(_ failure: CommandFailure, console: Console) async -> ExitCode {
    console.err(failure.line)
    if let handover { AgentHandover.report(.failure(failure), on: handover) }
    return failure.exitCode
  }

  func run(console: Console) async -> ExitCode {
    do throws(CommandFailure) {
      let location = AgentSocketLocation.resolve()
      // Refuse a bad folder, a running agent or rules config.json cannot state before asking
      // for the passphrase (`agent start` checked the rules before it asked, too).
      try location.claim()
      let rules = try AgentConfirmation.rules(confirm, global)
      // Before the files are read: one saved meanwhile is read again at the first look.
      let stamps = await AgentProviderReload.stamps(global)
      let book =
        if let handover {
          try await AgentLauncher.book(handedOverOn: handover, global, console: console)
        } else {
          try await AccountAccess.book(global, console: console, leavingAgent: false)
        }
      let service = AgentService(
        book: book, vaultPath: book.vault.location.canonicalPath,
        idleTimeout: idleTimeout > 0 ? idleTimeout : nil,
        endsAt: lifetime.map { Date().addingTimeInterval(Self.seconds($0)) },
        confirmation: AgentConfirmation.desk(),
        rules: rules, failure: CommandFailure.answering)
      let reload = AgentProviderReload(
        options: global, catalog: book.catalog, stamps: stamps)
      let (events, continuation) = AsyncStream<Event>.makeStream()
      // SIGINT and SIGTERM stop it cleanly (the socket removed, requests and refreshes under
      // way finished); SIGHUP reads the provider files again.
      TerminationSignals.shared.intercept { number in
        continuation.yield(number == SIGHUP ? .reload(.signal) : .stop(.signal(number)))
        return .handled
      }
      let (listener, identity) = try Self.listen(at: location, for: service, console: console)
      let pid = ProcessInfo.processInfo.processIdentifier
      if let handover {
        AgentHandover.report(.pong(pid: pid, vault: service.vaultPath), on: handover)
        close(handover)
      }
      console.out(
        "authtui agent (pid \(pid)) listening on \(location.path) for the vault "
          + "\(service.vaultPath); stop it with Ctrl-C or `kill \(pid)`")
      // A rule of config.json for an account the vault does not hold protects nothing, and
      // nothing else would show it.
      if let line = await AgentConfirmation.unmatchedRulesLine(
        global,
        accounts: {
          (try? await book.listing()).map { AgentConfirmation.accountNames(AgentListing($0)) }
        })
      {
        console.err(line)
      }
      let idleWatch = Task {
        guard idleTimeout > 0 else { return }
        await Self.watchIdleness(
          of: service, timeout: TimeInterval(idleTimeout), then: continuation)
      }
      let lifetimeWatch = Task {
        guard let endsAt = service.endsAt else { return }
        // Wall-clock time, in steps: a machine asleep meanwhile wakes to an agent that ends.
        while !Task.isCancelled {
          let left = endsAt.timeIntervalSinceNow
          if left <= 0 {
            continuation.yield(.stop(.lifetime))
            return
          }
          try? await Task.sleep(for: .seconds(min(left, 60)))
        }
      }
      let refresher = Task {
        // Started, the agent mostly waits: what starting touched of its libraries' code is
        // given back (StartupPages), and comes back from the page cache as it is used.
        await service.refresher.run(for: service, afterFirstLook: { StartupPages.release() }) {
          console.err($0)
        }
      }
      let fileWatch = Task {
        while !Task.isCancelled {
          try? await Task.sleep(for: .seconds(AgentProviderReload.pollInterval))
          if !Task.isCancelled, await reload.filesChanged() {
            continuation.yield(.reload(.fileChanged))
          }
        }
      }
      // An agent nobody can reach (its folder removed by a cleaner or at logout, or its socket
      // replaced) would keep the vault's key for ever, unseen by `agent status` and `agent
      // stop`, beside a second agent that `agent start` would then start.
      let socketWatch = Task {
        while !Task.isCancelled {
          try? await Task.sleep(for: Self.socketCheckInterval)
          if !Task.isCancelled, let change = location.change(since: identity) {
            continuation.yield(.stop(.socketLost(change)))
            return
          }
        }
      }
      var reason = Stop.idle
      events: for await event in events {
        switch event {
        case .reload(let trigger):
          console.err(await reload.reload(after: trigger, into: service))
        case .stop(let stop):
          reason = stop
          break events
        }
      }
      idleWatch.cancel()
      lifetimeWatch.cancel()
      fileWatch.cancel()
      socketWatch.cancel()
      refresher.cancel()
      // New callers find no agent and unlock the vault themselves; those being answered get
      // their answer before the vault closes.
      await listener.stop()
      location.remove(identity)
      // The refresher's loop ends at once (it only reads the vault between its sleeps); the
      // refreshes it started are the service's to wait for.
      await refresher.value
      await service.drain()
      await service.vault.close()
      switch reason {
      case .idle:
        console.err(
          "authtui agent: stopped after \(DurationText.words(idleTimeout)) without a request")
      case .lifetime:
        console.err(
          "authtui agent: stopped: its lifetime "
            + "(\(DurationText.words(Int(lifetime?.components.seconds ?? 0)))) ended; "
            + "it forgot the vault's key (`authtui agent start` starts a new one)")
      case .signal(let number):
        let name = [SIGINT: "SIGINT", SIGTERM: "SIGTERM"][number] ?? "signal"
        console.err("authtui agent: stopped (\(name))")
      case .socketLost(let change):
        console.err(
          "authtui agent: stopped: \(change.sentence), so no command could reach it any more; "
            + "it forgot the vault's key (`authtui agent start` starts a new one)")
      }
      return .ok
    } catch {
      console.err(error.line)
      if let handover { AgentHandover.report(.failure(error), on: handover) }
      return error.exitCode
    }
  }

  /// Binds the socket and starts answering on it; returns the listener and the identity of the
  /// socket file (to remove only our own socket at the end, and to see it taken away).
  /// Debug and test builds only: the seconds a connection may take to send its request
  /// instead of `AgentListener.readTimeout`, so that a test holding the agent's every place
  /// for connections does not race their timeout on a busy machine.
  static let testReadTimeoutVariable = "AUTHTUI_TEST_AGENT_READ_TIMEOUT"

  /// How long a connection may take to send its request.
  private static func readTimeout(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> TimeInterval {
    TestSeconds.value(of: testReadTimeoutVariable, in: environment) ?? AgentListener.readTimeout
  }

  private static func listen(
    at location: AgentSocketLocation, for service: AgentService, console: Console
  ) throws(CommandFailure) -> (AgentListener, AgentSocketIdentity) {
    let socket: (fd: Int32, identity: AgentSocketIdentity)
    do {
      socket = try location.listen()
    } catch {
      throw error.failure
    }
    do {
      let listener = try AgentListener(
        listening: socket.fd, readTimeout: readTimeout(),
        refused: { who in
          console.err("authtui agent: refused a connection from \(who): not uid \(geteuid())")
        },
        busy: AgentResponse.failure(
          CommandFailure.answering(
            .busy(vault: service.vaultPath, connections: AgentListener.maximumConnections))
        ).line,
        answering: service.vault.sharedTaskExecutor,
        handler: { await service.answer($0, from: $1) })
      return (listener, socket.identity)
    } catch {
      location.remove(socket.identity)
      throw error.failure
    }
  }

  /// Yields `.idle` once no request has been answered for `timeout` seconds (a request being
  /// answered, such as a slow refresh, keeps the agent up; a background refresh does not).
  private static func watchIdleness(
    of service: AgentService, timeout: TimeInterval,
    then continuation: AsyncStream<Event>.Continuation
  ) async {
    while !Task.isCancelled {
      let since = await service.idleSince()
      let left = since.map { $0.addingTimeInterval(timeout).timeIntervalSinceNow } ?? 1
      if left <= 0 {
        continuation.yield(.stop(.idle))
        return
      }
      try? await Task.sleep(for: .seconds(min(left, 60)))
    }
  }
}

extension Option {
  /// `--idle-timeout DURATION`, as `agent` and `agent start` take it (absent or 0: never), in
  /// the forms `--lifetime` takes.
  static func idleTimeout(_ path: WritableKeyPath<Root, Int> & Sendable) -> Option {
    .value(
      "idle-timeout", path, .durationOrNever,
      help: "stop after this long without a request (90s, 15m, 8h; default, or 0: never)")
  }
}

extension AgentCommand {
  /// `duration` in seconds.
  static func seconds(_ duration: Duration) -> TimeInterval {
    TimeInterval(duration.components.seconds)
      + TimeInterval(duration.components.attoseconds) / 1e18
  }
}

extension Option {
  /// `--lifetime DURATION`, as `agent` and `agent start` take it (absent: none).
  static func lifetime(_ path: WritableKeyPath<Root, Duration?> & Sendable) -> Option {
    .value(
      "lifetime", path, .duration,
      help: "stop this long after starting (90s, 15m, 8h), whatever the activity")
  }
}

extension Option {
  /// `--confirm forwarded|always`, as `agent` and `agent start` take it (absent: none).
  static func confirm(_ path: WritableKeyPath<Root, ConfirmationMode?> & Sendable) -> Option {
    .value(
      "confirm", path, .choice(ConfirmationMode.allCases),
      help: "hold token requests until a person allows them: forwarded ones, or always")
  }
}

extension ValueType where Value == Int32? {
  /// An inherited file descriptor's number; anything else is none.
  static var descriptor: ValueType { ValueType { text, _ in Int32(text) } }
}
