import Foundation
import Sandbox

#if canImport(Glibc)
  import Glibc
#endif

// authtui-test-browser URL [USER_CODE]: a stand-in for a person with a browser, for tests.
// Set BROWSER to this program and it plays the sign-in honestly over HTTP (see
// Sandbox.ScriptedBrowser): it loads the page, fills the form, presses a button and
// follows the redirects, the last one to the app's loopback callback included.
//
// Environment:
//   AUTHTUI_TEST_BROWSER_ACTION      approve (default), deny or ignore
//   AUTHTUI_TEST_BROWSER_USER        the user name to type (default: the page's suggestion)
//   AUTHTUI_TEST_BROWSER_USER_CODE   the code to type on a device or PIN page
//   AUTHTUI_TEST_BROWSER_USER_CODE_FILE  a file to wait for that will hold that code
//   AUTHTUI_TEST_BROWSER_DELAY_MS    wait this long before loading the page
//   AUTHTUI_TEST_BROWSER_TIMEOUT_MS  give up after this long (default 60000)
//   AUTHTUI_TEST_BROWSER_LOG         append the log here instead of standard error
//   AUTHTUI_TEST_BROWSER_ARGV_FILE   append the arguments it was started with here, one per
//                                    line, then an empty line (what `ps` shows other users)
//   AUTHTUI_TEST_BROWSER_PAGE_FILE   write the last page's body here (what the person sees at
//                                    the end: an app's "signed in" or "signed out" page)
//   AUTHTUI_TEST_BROWSER_DETACH=1    return at once, like a launcher, and browse in the
//                                    background (new session, standard streams on /dev/null)
// Exit status: 0 the visit ended on a page without a form (or was ignored), 1 it failed,
// 2 usage. The log names methods, paths and statuses: never a query, code or token.

let environment = ProcessInfo.processInfo.environment
let logPath = environment["AUTHTUI_TEST_BROWSER_LOG"].flatMap { $0.isEmpty ? nil : $0 }

@Sendable func log(_ line: String) {
  let text = "authtui-test-browser: \(line)\n"
  if let logPath, let handle = FileHandle(forWritingAtPath: logPath) ?? createLog(logPath) {
    handle.seekToEndOfFile()
    handle.write(Data(text.utf8))
    handle.closeFile()
  } else {
    FileHandle.standardError.write(Data(text.utf8))
  }
}

@Sendable func createLog(_ path: String) -> FileHandle? {
  _ = FileManager.default.createFile(
    atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
  return FileHandle(forWritingAtPath: path)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if let argvPath = environment["AUTHTUI_TEST_BROWSER_ARGV_FILE"], !argvPath.isEmpty,
  environment["AUTHTUI_TEST_BROWSER_DETACHED"] != "1",
  let handle = FileHandle(forWritingAtPath: argvPath) ?? createLog(argvPath)
{
  handle.seekToEndOfFile()
  handle.write(Data(arguments.map { $0 + "\n" }.joined().appending("\n").utf8))
  handle.closeFile()
}
guard (1...2).contains(arguments.count), !arguments[0].hasPrefix("-") else {
  log(
    "usage: authtui-test-browser URL [USER_CODE] (behaviour from AUTHTUI_TEST_BROWSER_* variables)")
  exit(2)
}

var script: ScriptedBrowser.Script
do {
  script = try ScriptedBrowser.Script.fromEnvironment(environment)
} catch {
  log("\(error)")
  exit(2)
}
if arguments.count == 2 { script.userCode = arguments[1] }

/// Starts this program again in a new session with its streams on /dev/null and returns:
/// what a launcher such as xdg-open does, so whoever started us never waits for the visit.
func detach() -> Never {
  var childEnvironment = environment
  childEnvironment["AUTHTUI_TEST_BROWSER_DETACH"] = nil
  childEnvironment["AUTHTUI_TEST_BROWSER_DETACHED"] = "1"
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  for fd: Int32 in [0, 1, 2] {
    posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
  }
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  var emptySet = sigset_t()
  sigemptyset(&emptySet)
  posix_spawnattr_setsigmask(&attributes, &emptySet)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
  let executable =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? CommandLine.arguments[0]
  let argv = ([executable] + arguments).map { strdup($0) } + [nil]
  let envp = childEnvironment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  var pid: pid_t = 0
  let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
  if result != 0 {
    log("could not start in the background: \(String(cString: strerror(result)))")
    exit(1)
  }
  exit(0)
}

if environment["AUTHTUI_TEST_BROWSER_DETACH"] == "1" { detach() }
if environment["AUTHTUI_TEST_BROWSER_DETACHED"] == "1" { _ = setsid() }

let outcome = await ScriptedBrowser(script: script, log: log).visit(arguments[0])
if let pagePath = environment["AUTHTUI_TEST_BROWSER_PAGE_FILE"], !pagePath.isEmpty {
  _ = FileManager.default.createFile(
    atPath: pagePath, contents: Data(outcome.finalBody.utf8), attributes: [.posixPermissions: 0o600]
  )
}
exit(outcome.succeeded ? 0 : 1)
