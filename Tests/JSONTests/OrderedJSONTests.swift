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
