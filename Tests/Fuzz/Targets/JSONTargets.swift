import AuthCore
import Foundation
import Providers

extension FuzzTargets {
  /// The configuration files' JSON parser (Providers' `JSONParser`, with source positions).
  ///
  /// What it reads, written back by the JSON writer (`OrderedJSON`), reads back equal; every
  /// error position lies inside the text.
  static let jsonParser = FuzzTarget(
    name: "json-parser", summary: "Providers.JSONParser: provider files and config.json"
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

  /// The network JSON reader (`JSONWireValue`, on Foundation's decoder): token, device, JWKS,
  /// discovery, userinfo and error answers and the agent's lines all go through it.
  ///
  /// What it reads, written back by the JSON writer, reads back equal.
  static let jsonWire = FuzzTarget(
    name: "json-wire", summary: "AuthCore.JSONWireValue: every JSON answer from the network"
  ) { bytes in
    guard let value = try? JSONDecoder().decode(JSONWireValue.self, from: Data(bytes)) else {
      return
    }
    let written = value.ordered.text
    guard let reread = try? JSONDecoder().decode(JSONWireValue.self, from: Data(written.utf8))
    else {
      require(false, "the writer's output does not read back: \(written)")
      return
    }
    require(reread == value, "read(write(value)) differs: \(written)")
    if case .object(let members) = value {
      require(JSONWireValue.object(from: Data(bytes)) == members, "object(from:) disagrees")
    }
  }
}
