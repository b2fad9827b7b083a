import Accounts
import Foundation

extension AgentService {
  /// The answer to `list`, `export`, `logout`, `default` or `rename`: the same work as the
  /// command does over a vault it unlocked itself (`AgentListing(_:)`, `AccountBook.export`,
  /// `AccountBook.signOut`, `AccountBook.makeDefault`, `AccountBook.clearDefault`,
  /// `AccountBook.rename`), and the same failures. Nil when the agent is stopping and the work
  /// could not start.
  func answerAboutAccounts(_ operation: AgentRequest.Operation) async -> AgentResponse? {
    do throws(AccountsError) {
      switch operation {
      case .list:
        let answer = AgentResponse.listing(AgentListing(try await book.listing()))
        // A client reads at most this much; the listing of a vault that large is read by
        // the command itself.
        let bytes = answer.line.utf8.count + 1
        guard bytes <= AgentConnection.maximumAnswerBytes else {
          return .failure(failure(.answerTooLong(bytes: bytes)))
        }
        return answer
      case .export(let name, let startedAt, let minimumValidity):
        return .export(
          try await book.export(
            named: name, startedAt: startedAt ?? Date(),
            minimumValidity: TimeInterval(minimumValidity)))
      case .logout(let name, let localOnly):
        return .signedOut(try await book.signOut(named: name, localOnly: localOnly))
      case .makeDefault(let name):
        return .defaultChanged(try await book.makeDefault(named: name))
      case .clearDefault(let provider):
        return .defaultChanged(try await book.clearDefault(provider: provider))
      case .rename(let name, let label):
        return .renamed(try await book.rename(named: name, to: label))
      default:
        // `answer` sends only the six above here.
        return nil
      }
    } catch .auth(.cancelled) {
      return nil
    } catch {
      return .failure(failure(.account(error)))
    }
  }
}
