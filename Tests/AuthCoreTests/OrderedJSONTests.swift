import AuthCore
import Foundation
import JSON
import Testing

@Suite struct OrderedJSONTests {
  @Test func writesAFractionalNumberThatReadsBackExactly() throws {
    let seconds = 1_712_345_678.123_456
    let text = OrderedJSON.object([("started_at", .double(seconds))]).text
    #expect(text == #"{"started_at":1712345678.123456}"#)
    let members = try #require(JSONValue.object(from: Data(text.utf8)))
    #expect(members["started_at"] == .number(seconds))
  }

  @Test func writesANumberThatIsNotFiniteAsNull() {
    #expect(
      OrderedJSON.array([.double(.nan), .double(.infinity), .double(2)]).text == "[null,null,2.0]")
  }
}
