import AgentWire
import Hardening
import Spelling

#if canImport(Glibc)
  import Glibc
#endif

// The front of `authtui`: statically linked and free of Foundation, so it starts in about a
// millisecond. It answers `authtui token ACCOUNT` from a running agent for this vault, the
// call scripts, mail clients and git make many times a minute, and hands every other command
// line (and `token` when no agent answers) to the full program by `exec`: same process, same
// arguments, same environment.
// First, before anything opens a descriptor: a closed 0, 1 or 2 is held on /dev/null.
StandardDescriptors.guardClosed()
ProcessHardening.apply()  // before a token is read: the same switches as the full program's

let arguments = CommandLine.arguments
// Only the variables that name the agent and the vault are read: building the whole
// environment as a dictionary costs as much as the rest of the answer.
let variable: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }
if let shortcut = TokenShortcut(arguments: Array(arguments.dropFirst())),
  AgentConnection.enabled(variable: variable),
  let request = shortcut.request(variable: variable, startedAt: UnixTime.now())
{
  let exchange = AgentConnection.exchange(
    request, at: .resolve(variable: variable),
    timeout: AgentConnection.connectTimeout + AgentConnection.tokenTimeout)
  let answer: TokenAnswer?
  if case .answered(let response) = exchange { answer = response } else { answer = nil }
  switch answer {
  case .token(let token)? where shortcut.target == nil && TerminalText.isClean(token):
    FrontOutput.deliver(token + "\n")
  case .notedToken(let token, let note)?
  where shortcut.target == nil && TerminalText.isClean(token):
    // The token has less validity than asked for: why, on standard error, as the full
    // program says it.
    FrontOutput.note(note)
    FrontOutput.deliver(token + "\n")
  case .headers(let headers)?
  where shortcut.target != nil && TerminalText.isClean(headers.token)
    && headers.proof.map(TerminalText.isClean) ?? true:
    // `--header --for`: the lines the full program prints, the proof signed by the agent,
    // and its note, if any, as for a token.
    if let note = headers.note { FrontOutput.note(note) }
    FrontOutput.deliver(headers.lines + "\n")
  case .failure(let failure)?:
    // What the full program prints for the same answer, cleaned as its `Console` cleans it:
    // the message may quote a provider.
    FrontOutput.write(
      TerminalText.cleaned(failure.line, keeping: TerminalText.lineBreaksAndTabs) + "\n", to: 2)
    exit(failure.exitStatus)
  case nil where exchange == .noAgent:
    // No usable agent: the full program is told, and unlocks the vault without asking again.
    AgentAbsenceNote.leave()
  case nil where exchange == .unanswered:
    // An agent that took the request and gave no answer (stopped or killed meanwhile): the
    // full program asks again, and says so if it must then unlock the vault and cannot.
    AgentAbsenceNote.leave(.stoppedAnswering)
  default:
    // An answer that is not a token's, or a token holding a control character: the full
    // program asks again (and refuses that token with its message).
    break
  }
}
FullProgram.exec(arguments)
