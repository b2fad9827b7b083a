import JSON
import Testing

@Suite struct JSONParserTests {
  @Test func readsEveryKindOfValueWithItsPosition() throws {
    let document = try JSONParser.parse(
      """
      {
        "id": "work",
        "port": 8765,
        "flows": ["pkce", "device"],
        "ok": true, "none": null, "ratio": -1.5e2,
        "text": "a\\"b\\u00e9\\ud83d\\ude00\\n"
      }
      """)
    guard case .object(let members) = document.root else {
      Issue.record("the root is an object")
      return
    }
    #expect(members["id"] == .string("work"))
    #expect(document.position(of: "id") == SourcePosition(line: 2, column: 9))
    #expect(members["port"] == .number(8765))
    #expect(document.position(of: "flows").line == 4)
    #expect(document.position(of: "flows[1]") == SourcePosition(line: 4, column: 21))
    #expect(document.position(of: "flows[7]").line == 4)
    #expect(members["ok"] == .bool(true))
    #expect(members["none"] == JSONValue.null)
    #expect(members["ratio"] == .number(-150))
    #expect(members["text"] == .string("a\"bé😀\n"))
  }

  @Test(arguments: [
    (
      "{\n  \"a\": 1\n  \"b\": 2\n}", 3,
      "expected ',' or '}' after the value of \"a\" (a missing comma?)"
    ),
    ("{\"a\": [1, 2,]}", 1, "trailing comma before ']'; remove the last comma"),
    ("{\"a\": 1,\n}", 2, "trailing comma before '}'; remove the last comma"),
    ("{'a': 1}", 1, "expected a member name in double quotes"),
    ("{\"a\": 'x'}", 1, "strings take double quotes (\"), not single quotes"),
    ("{\n// note\n\"a\": 1}", 2, "expected a member name in double quotes"),
    ("{\"a\": 1, \"a\": 2}", 1, "the name \"a\" appears twice in this object"),
    ("{\"a\": 08765}", 1, "numbers cannot start with 0 (write 8765, not 08765)"),
    (
      "{\"a\": \"x\n\"}", 1,
      "a string contains a raw control character (a line break?); write it as \\n"
    ),
    ("{\"a\": 1} x", 1, "unexpected text after the end of the JSON value"),
    ("{\"a\": \"open", 1, "a string is not closed; add the closing '\"'"),
    ("", 1, "expected a value before the end of the file"),
  ])
  func reportsMalformedJSONWithItsLineAndTheFix(text: String, line: Int, message: String) {
    #expect {
      _ = try JSONParser.parse(text)
    } throws: { error in
      guard let error = error as? JSONParseError else { return false }
      return error.position.line == line && error.message == message
    }
  }

  @Test func refusesDocumentsNestedDeeperThan64() {
    let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
  }

  @Test func readsAnswersFromTheWireAsUTF8Bytes() throws {
    let bytes = Array(#"{"access_token":"a\u00e9","expires_in":3600,"scope":["x"]}"#.utf8)
    #expect(
      try JSONParser.parseWire(bytes)
        == .object([
          "access_token": .string("aé"), "expires_in": .number(3600),
          "scope": .array([.string("x")]),
        ]))
    #expect(JSONValue.object(from: [0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == [:])
    #expect(JSONValue.object(from: Array("[1]".utf8)) == nil)
  }

  @Test func keepsTheLastValueOfANameGivenTwiceOnTheWire() throws {
    let members = try #require(
      JSONValue.object(from: Array(#"{"a":1,"b":{"c":1,"c":3},"a":2}"#.utf8)))
    #expect(members == ["a": .number(2), "b": .object(["c": .number(3)])])
  }

  @Test(arguments: [
    [0x22, 0xFF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], Array("[1,]".utf8),
    Array(#"{"a":1,}"#.utf8), Array("01".utf8), Array("1e400".utf8), [],
  ])
  func refusesWhatIsNotStrictJSONOnTheWire(bytes: [UInt8]) {
    #expect(throws: JSONParseError.self) { try JSONParser.parseWire(bytes) }
  }

  /// From a task on the cooperative pool, whose threads have the smallest stacks.
  @Test func readsWireAnswersNestedAsDeepAsFoundationDid() async throws {
    let depth = JSONParser.wireMaximumDepth
    let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    _ = try JSONParser.parseWire(Array(deep.utf8))
    let deeper = "[" + deep + "]"
    #expect(throws: JSONParseError.self) { try JSONParser.parseWire(Array(deeper.utf8)) }
  }

  @Test func readsAnArrayOfStringsOnlyAsStrings() throws {
    let members = try #require(JSONValue.object(from: Array(#"{"a":["x","y"],"b":["x",1]}"#.utf8)))
    #expect(members["a"]?.stringArrayValue == ["x", "y"])
    #expect(members["b"]?.stringArrayValue == nil)
    #expect(JSONValue.string("x").stringArrayValue == nil)
  }
}
