extension StringProtocol {
  /// The text without the spaces and tabs at either end, as `CharacterSet.whitespaces` has
  /// them: U+0009, the space separators (Unicode category Zs) and U+200B ZERO WIDTH SPACE;
  /// line breaks stay. Written here rather
  /// than with `trimmingCharacters(in:)`, which links all of Foundation into the front of
  /// `authtui`.
  public var trimmingHorizontalSpace: String {
    let scalars = unicodeScalars
    let isSpace = { (scalar: Unicode.Scalar) in
      scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(String.UnicodeScalarView(scalars[first...last]))
  }
}
