import Foundation
import Terminal
import Testing
import Theme

/// The themes compiled in from Themes/: each parses, styles every role, and stays readable
/// with 256 colours, 8 colours, and no colour at all.
@Suite struct BuiltInThemeTests {
  static let catalog = ThemeCatalog()
  static let names = ["default", "high-contrast", "light", "monochrome"]

  @Test func everyBuiltInThemeIsCompiledInAndParses() {
    #expect(Self.catalog.builtInNames == Self.names)
    #expect(Self.catalog.problems.isEmpty, "\(Self.catalog.problems)")
  }

  @Test(arguments: names)
  func stylesEveryKnownRoleExplicitly(name: String) throws {
    let theme = try Self.catalog.theme(named: name)
    let missing = Role.known.filter { theme.styles[$0] == nil }
    #expect(missing.isEmpty, "\(name) leaves out \(missing)")
  }

  @Test(arguments: names, [256, 16, 8])
  func everyColourPairIsReadable(name: String, colors: Int) throws {
    let theme = try Self.catalog.theme(named: name)
    for role in Role.known {
      let style = theme.style(for: role).fitted(toPaletteSize: colors)
      guard case .indexed(let foreground) = style.foreground,
        case .indexed(let background) = style.background
      else { continue }
      let ratio = Self.contrast(foreground, background)
      #expect(ratio >= 3, "\(name) \(role) at \(colors) colours: \(style), contrast \(ratio)")
    }
  }

  @Test(arguments: names)
  func selectionStaysVisibleWithoutColour(name: String) throws {
    let theme = try Self.catalog.theme(named: name)
    for (selected, base) in [
      (Role.listSelected, Role.list), (.dialogButtonSelected, .dialogButton),
      (.statusError, .status),
    ] {
      #expect(
        theme.style(for: selected).withoutColors != theme.style(for: base).withoutColors,
        "\(name): \(selected) looks like \(base) without colour")
    }
  }

  @Test func theMonochromeThemeUsesNoColour() throws {
    #expect(try Self.catalog.theme(named: "monochrome").isMonochrome)
    #expect(try !Self.catalog.theme(named: "default").isMonochrome)
  }

  /// WCAG contrast ratio of two palette colours, from xterm's RGB values.
  static func contrast(_ first: UInt8, _ second: UInt8) -> Double {
    let (a, b) = (luminance(first), luminance(second))
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
  }

  static func luminance(_ index: UInt8) -> Double {
    let basic: [(Double, Double, Double)] = [
      (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
      (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
      (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]
    let rgb: (Double, Double, Double)
    let value = Int(index)
    if value < 16 {
      rgb = basic[value]
    } else if value < 232 {
      let levels: [Double] = [0, 95, 135, 175, 215, 255]
      let cube = value - 16
      rgb = (levels[cube / 36], levels[cube / 6 % 6], levels[cube % 6])
    } else {
      let grey = Double(8 + (value - 232) * 10)
      rgb = (grey, grey, grey)
    }
    func linear(_ channel: Double) -> Double {
      let c = channel / 255
      return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(rgb.0) + 0.7152 * linear(rgb.1) + 0.0722 * linear(rgb.2)
  }
}
