import AuthCore
import Commands

// The command line owns exit codes (Commands' `ExitCode`); these tests check AuthCore's errors
// against them through the same names they always used.

extension AuthError {
  var exitCode: Int32 { ExitCode(self).rawValue }
}

extension DiscoveryError {
  var exitCode: Int32 { ExitCode(self).rawValue }
}

extension IDTokenError {
  var exitCode: Int32 { ExitCode(self).rawValue }
}

extension IdentityError {
  var exitCode: Int32 { ExitCode(self).rawValue }
}
