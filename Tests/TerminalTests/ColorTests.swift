import Terminal
import Testing

/// Colours degrade for terminals with fewer colours, and NO_COLOR turns them off.
@Suite struct ColorTests {
  @Test func eightColourTerminalsGetTheNearestBasicColour() {
    #expect(Color.indexed(4).fitted(toPaletteSize: 8) == .indexed(4))
    #expect(Color.indexed(9).fitted(toPaletteSize: 8) == .indexed(1))
    #expect(Color.indexed(18).fitted(toPaletteSize: 8) == .indexed(4))  // dark blue
    #expect(Color.indexed(231).fitted(toPaletteSize: 8) == .indexed(7))  // white
    #expect(Color.indexed(236).fitted(toPaletteSize: 8) == .indexed(0))  // dark grey
    #expect(Color.indexed(214).fitted(toPaletteSize: 8) == .indexed(3))  // orange → yellow
    #expect(Color.terminalDefault.fitted(toPaletteSize: 8) == .terminalDefault)
  }

  @Test func greysBecomeBlackOrWhiteByLightnessOnEightColours() {
    #expect(Color.indexed(242).fitted(toPaletteSize: 8) == .indexed(0))  // 108, 108, 108
    #expect(Color.indexed(244).fitted(toPaletteSize: 8) == .indexed(7))  // 128, 128, 128
    #expect(Color.indexed(59).fitted(toPaletteSize: 8) == .indexed(0))  // cube grey 95
    #expect(Color.indexed(145).fitted(toPaletteSize: 8) == .indexed(7))  // cube grey 175
  }

  @Test func sixteenColourTerminalsKeepBrightColoursAndMapTheCube() {
    #expect(Color.indexed(12).fitted(toPaletteSize: 16) == .indexed(12))
    #expect(Color.indexed(196).fitted(toPaletteSize: 16) == .indexed(9))  // pure red
    #expect(Color.indexed(200).fitted(toPaletteSize: 256) == .indexed(200))
  }

  @Test func terminalsWithoutColoursGetTheDefault() {
    #expect(Color.indexed(1).fitted(toPaletteSize: 0) == .terminalDefault)
  }

  @Test func rgbValuesMapToTheNearestPaletteIndex() {
    #expect(Color.nearest(red: 0, green: 0, blue: 0) == .indexed(16))
    #expect(Color.nearest(red: 255, green: 255, blue: 255) == .indexed(231))
    #expect(Color.nearest(red: 0x1C, green: 0x1C, blue: 0x1C) == .indexed(234))
  }

  @Test func noColorOrTheFlagGiveAMonochromeScreen() {
    #expect(ColorMode(environment: [:], noColorFlag: false) == .automatic)
    #expect(ColorMode(environment: ["NO_COLOR": "1"], noColorFlag: false) == .monochrome)
    #expect(ColorMode(environment: ["NO_COLOR": ""], noColorFlag: false) == .automatic)
    #expect(ColorMode(environment: [:], noColorFlag: true) == .monochrome)
  }

  @Test func aMonochromeStyleKeepsOnlyItsAttributes() {
    let style = Style(foreground: .indexed(1), background: .indexed(4), attributes: [.bold])
    #expect(style.withoutColors == Style(attributes: [.bold]))
    #expect(style.description == "1 4 bold")
  }
}
