import Accounts
import Agent
import Foundation
import System

#if canImport(Glibc)
  import Glibc
#endif

/// `authtui agent [--idle-timeout SECONDS]`: unlocks the vault once and answers `authtui token`
/// over a private Unix socket, so that each call skips the scrypt unlock (about half a second).
enum AgentCommand {
  static let spec = CommandSpec(
    name: "agent", usage: "agent [--idle-timeout SECONDS]",
    summary:
      "Unlock the vault once and answer `authtui token` from memory (start, stop, status).",
    details: """
      Unlocks the vault once (the passphrase as for every command) and answers `authtui token`
      for that vault on a socket only you can use: $XDG_RUNTIME_DIR/authtui/agent.sock, else
      /tmp/authtui-UID/agent.sock, or AUTHTUI_AGENT_SOCKET. The folder is 0700 and the socket
      0600, and every connection from another user is refused. `token` skips its own unlock
      when the agent answers for its vault and unlocks the vault itself otherwise;
      AUTHTUI_NO_AGENT=1 makes it never ask. Refreshes stay one at a time across the agent and
      every other authtui process. Tokens leave the agent only over the socket, to the caller.
      Run it in the background with `authtui agent start` (below), or as a systemd --user
      service (see the README); stop it with Ctrl-C, SIGTERM or `authtui agent stop`, or let
      --idle-timeout stop it. Provider files are read once, at start: restart the agent after
      changing them. With "agent": {"unlock_once": true} in config.json, the first command
      that unlocks the vault leaves one running by itself (see the README).
      """,
    arguments: [], requiredArguments: 0,
    options: [idleTimeoutOption, handoverOption],
    actions: [AgentStartCommand.spec, AgentStopCommand.spec, AgentStatusCommand.spec])

  static let idleTimeoutOption = OptionSpec.value(
    "idle-timeout", "SECONDS", "stop after this long without a request (default, or 0: never)")

  /// Between `agent start` and the agent it starts: the inherited socket the vault's key comes
  /// in on and the agent's readiness goes out on (`AgentHandover`). Not for people.
  static let handoverOption = OptionSpec(
    name: "handover-fd", valueName: "FD",
    help: "the descriptor agent start hands the vault key over", hidden: true)

  /// Why the agent stopped.
  enum Stop: Sendable {
    case signal(Int32)
    case idle
  }

  static func run(_ invocation: Invocation, console: Console) async -> ExitCode {
    let handover = invocation.value(handoverOption).flatMap { Int32($0) }
    do throws(CommandFailure) {
      // Absent (or 0): never. The default given is only the example of a usage error.
      let idleTimeout =
        invocation.value(idleTimeoutOption) == nil
        ? 0 : try AccountAccess.seconds(invocation, idleTimeoutOption, default: 3600)
      let location = AgentSocketLocation.resolve()
      // Refuse a bad folder or a running agent before asking for the passphrase.
      try location.claim()
      let book =
        if let handover {
          try await AgentLauncher.book(handedOverOn: handover, invocation.global, console: console)
        } else {
          try await AccountAccess.book(invocation.global, console: console, leavingAgent: false)
        }
      let service = AgentService(
        book: book, vaultPath: book.vault.location.canonicalPath,
        idleTimeout: idleTimeout > 0 ? idleTimeout : nil, failure: AgentFailure.answering)
      let (stops, continuation) = AsyncStream<Stop>.makeStream()
      // SIGINT, SIGTERM and SIGHUP stop it cleanly (the socket removed, requests answered).
      TerminationSignals.shared.intercept { number in
        continuation.yield(.signal(number))
        return .handled
      }
      let (listener, inode) = try listen(at: location, for: service, console: console)
      let pid = ProcessInfo.processInfo.processIdentifier
      if let handover {
        AgentHandover.report(.pong(pid: pid, vault: service.vaultPath), on: handover)
        close(handover)
      }
      console.out(
        "authtui agent (pid \(pid)) listening on \(location.path) for the vault "
          + "\(service.vaultPath); stop it with Ctrl-C or `kill \(pid)`")
      let idleWatch = Task {
        guard idleTimeout > 0 else { return }
        await watchIdleness(of: service, timeout: TimeInterval(idleTimeout), then: continuation)
      }
      var reason = Stop.idle
      for await stop in stops {
        reason = stop
        break
      }
      idleWatch.cancel()
      // New callers find no agent and unlock the vault themselves; those being answered get
      // their answer before the vault closes.
      await listener.stop()
      location.remove(inode: inode)
      await service.drain()
      await book.vault.close()
      switch reason {
      case .idle:
        console.err("authtui agent: stopped after \(idleTimeout) s without a request")
      case .signal(let number):
        let name = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"][number] ?? "signal"
        console.err("authtui agent: stopped (\(name))")
      }
      return .ok
    } catch {
      console.err(error.line)
      if let handover { AgentHandover.report(.failure(AgentFailure(error)), on: handover) }
      return error.exitCode
    }
  }

  /// Binds the socket and starts answering on it; returns the listener and the socket file's
  /// inode (to remove only our own socket at the end).
  private static func listen(
    at location: AgentSocketLocation, for service: AgentService, console: Console
  ) throws(CommandFailure) -> (AgentListener, ino_t) {
    let socket: (fd: Int32, inode: ino_t)
    do {
      socket = try location.listen()
    } catch {
      throw error.failure
    }
    do {
      let listener = try AgentListener(
        listening: socket.fd,
        refused: { who in
          console.err("authtui agent: refused a connection from \(who): not uid \(geteuid())")
        },
        handler: { await service.answer($0) })
      return (listener, socket.inode)
    } catch {
      location.remove(inode: socket.inode)
      throw error.failure
    }
  }

  /// Yields `.idle` once no request has been answered for `timeout` seconds (a request being
  /// answered, such as a slow refresh, keeps the agent up).
  private static func watchIdleness(
    of service: AgentService, timeout: TimeInterval,
    then continuation: AsyncStream<Stop>.Continuation
  ) async {
    while !Task.isCancelled {
      let since = await service.idleSince()
      let left = since.map { $0.addingTimeInterval(timeout).timeIntervalSinceNow } ?? 1
      if left <= 0 {
        continuation.yield(.idle)
        return
      }
      try? await Task.sleep(for: .seconds(min(left, 60)))
    }
  }
}
