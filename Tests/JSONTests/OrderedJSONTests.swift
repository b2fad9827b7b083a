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

  @Test func escapesEveryCharacterATerminalActsOnAndReadsBackTheSame() throws {
    let name = "Evil\u{1B}]0;title\u{07} \u{202E}Name\u{7F}\u{85}\u{2066}\u{200F}\u{61C}\t"
    let text = OrderedJSON.object([("name", .string(name))]).text
    #expect(
      text == #"{"name":"Evil\u001b]0;title\u0007 \u202eName\u007f\u0085\u2066\u200f\u061c\t"}"#)
    #expect(text.unicodeScalars.allSatisfy { (0x20..<0x7F).contains($0.value) })
    let members = try #require(JSONValue.object(from: Data(text.utf8)))
    #expect(members["name"] == .string(name))
    let foundation = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
    #expect(foundation["name"] == name)
  }

  @Test func writesANumberThatIsNotFiniteAsNull() {
    #expect(
      OrderedJSON.array([.double(.nan), .double(.infinity), .double(2)]).text == "[null,null,2.0]")
  }

  @Test func writesPrettyTextAsFoundationLaidOutTheSandboxFiles() {
    let value: OrderedJSON = [
      "a": [1, "x"], "e": [], "n": ["k": true], "o": [:], "s": "x/y",
    ]
    #expect(
      value.prettyText == """
        {
          "a" : [
            1,
            "x"
          ],
          "e" : [

          ],
          "n" : {
            "k" : true
          },
          "o" : {

          },
          "s" : "x/y"
        }
        """)
  }

  @Test func sortsTheMembersOfEveryObjectByName() {
    let value: OrderedJSON = ["b": ["z": 1, "_": 2], "a": [["y": 1, "x": 2]]]
    #expect(value.sortedByName.text == #"{"a":[{"x":2,"y":1}],"b":{"_":2,"z":1}}"#)
  }
}

@Suite struct OrderedReadingTests {
  @Test func readsMembersInTheFileOrderAtEveryDepth() throws {
    let text = #"{"z": 1, "a": {"y": true, "b": null}, "m": [{"q": 2.5, "c": "x"}], "k": -3}"#
    let ordered = try JSONParser.parse(text).ordered
    #expect(ordered.text == #"{"z":1,"a":{"y":true,"b":null},"m":[{"q":2.5,"c":"x"}],"k":-3}"#)
  }

  @Test func keepsAWholeNumberAnInteger() throws {
    #expect(try JSONParser.parse(#"{"redirect_port": 8765}"#).ordered.prettyText.contains("8765\n"))
  }
}
