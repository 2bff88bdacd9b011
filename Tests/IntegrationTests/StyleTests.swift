import Testing

@testable import lsclient

/// When lsclient colours its output.
@Suite struct StyleTests {
    @Test func colourOnlyOnATerminalWithoutNoColor() {
        #expect(Style.isEnabled(isTerminal: true, noColor: nil, term: "xterm-256color"))
        #expect(!Style.isEnabled(isTerminal: false, noColor: nil, term: "xterm-256color"))
        #expect(!Style.isEnabled(isTerminal: true, noColor: "1", term: "xterm-256color"))
        #expect(!Style.isEnabled(isTerminal: true, noColor: nil, term: "dumb"))
    }

    @Test func alarmsAreBoldRed() {
        #expect(Style.alarm("ALERT", enabled: true) == "\u{1B}[1;31mALERT\u{1B}[0m")
        #expect(Style.alarm("ALERT", enabled: false) == "ALERT")
    }
}
