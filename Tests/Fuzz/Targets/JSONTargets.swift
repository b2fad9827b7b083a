import JSON

extension FuzzTargets {
  /// The JSON reader in its configuration mode (`JSONParser.parse`, with source positions):
  /// provider files and `config.json`.
  ///
  /// What it reads, written back by the JSON writer (`OrderedJSON`), reads back equal; every
  /// error position lies inside the text.
  static let jsonParser = FuzzTarget(
    name: "json-parser", summary: "JSON.JSONParser.parse: provider files and config.json"
  ) { bytes in
    let text = String(fuzzInput: bytes)
    let document: JSONDocument
    do throws(JSONParseError) {
      document = try JSONParser.parse(text)
    } catch {
      let lines = lineCount(of: text)
      require(
        error.position.line >= 1 && error.position.line <= lines && error.position.column >= 1,
        "error at \(error.position) in a text of \(lines) lines")
      return
    }
    let written = document.root.ordered.text
    do {
      let reread = try JSONParser.parse(written)
      require(reread.root == document.root, "parse(write(value)) differs: \(written)")
    } catch {
      require(false, "the writer's output does not parse: \(error) in \(written)")
    }
    _ = document.position(of: "flows[0]")
  }

  /// The JSON reader in its wire mode (`JSONParser.parseWire`, UTF-8 bytes): token, device,
  /// JWKS, discovery, userinfo and error answers and the agent's lines all go through it.
  ///
  /// What it reads, written back by the JSON writer, reads back equal; where the configuration
  /// mode reads the same text, both read the same value.
  static let jsonWire = FuzzTarget(
    name: "json-wire", summary: "JSON.JSONParser.parseWire: every JSON answer from the network"
  ) { bytes in
    guard let value = try? JSONParser.parseWire(bytes) else {
      let text = String(fuzzInput: bytes)
      if Array(text.utf8) == bytes, let document = try? JSONParser.parse(text) {
        require(false, "the configuration mode reads what the wire mode refuses: \(document.root)")
      }
      return
    }
    let written = value.ordered.text
    guard let reread = try? JSONParser.parseWire(Array(written.utf8)) else {
      require(false, "the writer's output does not read back: \(written)")
      return
    }
    require(reread == value, "read(write(value)) differs: \(written)")
    if let document = try? JSONParser.parse(String(fuzzInput: bytes)) {
      require(document.root == value, "the two modes read different values")
    }
    if case .object(let members) = value {
      require(JSONValue.object(from: bytes) == members, "object(from:) disagrees")
    }
  }
}
