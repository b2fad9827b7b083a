import Foundation
import Sandbox

// authtui-sandbox [--listen 127.0.0.1:PORT]: the sandbox provider in the foreground.
func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("authtui-sandbox: \(message)\n".utf8))
  exit(status)
}

let usage = "usage: authtui-sandbox [--listen 127.0.0.1:PORT]"
var arguments = Array(CommandLine.arguments.dropFirst())
var address = ListenAddress(port: 0)
while let argument = arguments.first {
  arguments.removeFirst()
  switch argument {
  case "--listen":
    guard let value = arguments.first else { fail("--listen needs a value (\(usage))", status: 2) }
    arguments.removeFirst()
    do {
      address = try ListenAddress(parsing: value)
    } catch {
      fail("\(error)", status: 2)
    }
  case "--help", "-h":
    print(usage)
    exit(0)
  default:
    fail("unknown argument '\(argument)' (\(usage))", status: 2)
  }
}
fail("the provider emulator is not in this build yet (asked for \(address))", status: 1)
