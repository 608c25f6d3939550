import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskTUI

/// The real-terminal suite: the built binary in tmux, driven like an operator would.
final class TmuxConsoleTests: TmuxTestCase {
    func xml(_ name: String) throws -> String {
        try String(contentsOf: store.appendingPathComponent("services/\(name).xml"), encoding: .utf8)
    }

    /// Create a service with an iOS pair and an Android app, add a variable and a sound,
    /// save, quit; then the XML on disk holds it all, and the terminal is restored.
    func testCreateServiceSaveQuitThenXMLOnDisk() throws {
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path])
        t.waitFor("PushDesk — Services")
        t.keys("n")
        t.waitFor("New service")
        t.type("acme")
        t.focus(field: "Label")
        t.type("Acme")
        t.paste(" 中文")  // bracketed paste into the label
        t.waitFor("Acme 中文")
        t.focus(field: "Marketing URL")
        t.type("https://m.acme.example/")
        t.focus(field: "Tracking URL")
        t.type("https://t.acme.example/")
        t.focus(hint: "Enter edit app")
        t.keys("i")
        t.waitFor("acme-ios-dev")
        t.keys("a")
        t.waitFor("acme-android")
        t.keys("g", "Enter")
        t.waitFor("iOS sandbox app")
        t.focus(field: "Bundle id")
        t.type("com.acme.app")
        t.press("C-o", until: "No variable yet")
        t.keys("n")
        t.waitFor("Selected variable")
        t.type("mediaUrl")
        t.focus(field: "Label")
        t.type("Media URL")
        t.keys("Escape")
        t.waitUntil("the variable row") { $0.contains("mediaUrl") && $0.contains("Media URL") }
        t.press("C-o", until: "No sound yet")
        t.keys("n")
        t.waitFor("Selected sound")
        t.type("chime.caf")
        t.focus(field: "Label")
        t.type("Chime")
        t.keys("Escape")
        let s = t.waitUntil("the sound row") { $0.contains("chime.caf") && $0.contains("Chime") }
        assertScreen(t, s, "views/acmeSoundsTab")  // the dirty marker before saving
        t.keys("C-s")
        assertScreen(t, t.waitFor("Saved services/acme.xml"), "views/acmeSaved")
        t.keys("C-q")
        let end = t.ending()
        XCTAssertEqual(end.status, 0, end.screen)
        XCTAssertEqual(end.modes, "icanon echo", "the terminal is back in cooked mode")
        XCTAssertEqual(t.display("#{alternate_on}"), "0", "left the alternate screen")

        // The service, its apps (with the bundle id), the variable and the sound, as written.
        assertGolden(try xml("acme"), "acme.xml")
    }

    /// Resizing mid-form keeps the typed text and re-lays out; too small shows one line.
    func testResizeMidForm() throws {
        let t = try TmuxHarness(width: 200, height: 50, args: ["--store", store.path])
        t.waitFor("neotrips")
        t.keys("Enter")
        t.waitFor("Marketing URL")
        t.focus(field: "Label")
        t.keys("End")
        t.type(" Travel")
        t.waitFor("Neotrips Travel")
        t.resize(80, 24)
        var s = t.waitUntil("80-column layout") {
            $0.split(separator: "\n").first.map { TextWidth.width(of: String($0)) <= 80 } ?? false
                && $0.contains("Neotrips Travel")
        }
        assertScreen(t, s, "resizedTo80x24")
        t.resize(50, 12)
        s = t.waitFor("Terminal too small: 50x12")
        XCTAssertEqual(
            s.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(
                separator: " "),
            "Terminal too small: 50x12, need 60x16. Enlarge it or press Ctrl-Q.", "the message and nothing else:\n\(s)")
        t.resize(100, 30)
        t.waitFor("Neotrips Travel")
        t.type("!")
        t.waitFor("Neotrips Travel!")  // the cursor stayed at the end of the field
        t.keys("C-q")
        t.waitFor("Save the changes")
        t.keys("d")
        t.waitFor("PD-EXIT=0")
        XCTAssertTrue(try xml("neotrips").contains(#"label="Neotrips""#), "discarded, file unchanged")
    }

    /// NO_COLOR: attributes only (reverse for the selection), no colour sequences at all.
    func testNoColorIsMonochrome() throws {
        let t = try TmuxHarness(
            width: 80, height: 24, args: ["--store", store.path], env: ["NO_COLOR": "1", "TERM": "xterm-256color"])
        t.waitFor("neotrips")
        let e = t.screen(escapes: true)
        XCTAssertFalse(
            e.range(of: "\u{1b}\\[[0-9;]*(3[0-7]|4[0-7]|38;5|48;5)[;m]", options: .regularExpression) != nil,
            "colour escapes under NO_COLOR:\n\(e.debugDescription)")
        XCTAssertNotNil(
            e.range(of: "\u{1b}\\[[0-9;]*7m", options: .regularExpression),
            "reverse video marks the selection:\n\(e.debugDescription.prefix(300))")
        assertScreen(t, t.waitFor("monochrome"), "noColor")
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }

    /// TERM=xterm (8 colours) uses the 16-colour fallbacks; TERM=screen-256color the 256 palette.
    func testTermXtermAndScreen256() throws {
        let t8 = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path], env: ["TERM": "xterm"])
        t8.waitFor("neotrips")
        let e8 = t8.screen(escapes: true)
        XCTAssertNil(e8.range(of: "38;5;"), "no 256-colour sequences on xterm")
        XCTAssertNotNil(
            e8.range(of: "\u{1b}\\[[0-9;]*4[0-7][;m]", options: .regularExpression),
            "8-colour backgrounds:\n\(e8.debugDescription.prefix(400))")
        t8.keys("C-q")
        t8.waitFor("PD-EXIT=0")

        let t256 = try TmuxHarness(
            width: 80, height: 24, args: ["--store", store.path], env: ["TERM": "screen-256color"])
        t256.waitFor("neotrips")
        XCTAssertNotNil(
            t256.screen(escapes: true).range(of: "48;5;25"), "list.selected background 25 from the default theme")
        t256.keys("C-q")
        t256.waitFor("PD-EXIT=0")
    }

    /// An unknown TERM falls back instead of dying.
    func testUnknownTermFallsBack() throws {
        let t = try TmuxHarness(
            width: 80, height: 24, args: ["--store", store.path], env: ["TERM": "no-such-terminal"])
        let s = t.waitFor("neotrips")
        assertScreen(t, s, "unknownTerm")
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }

    /// A CJK label takes two columns a character: the columns after it line up.
    func testCJKLabelLinesUp() throws {
        var x = try xml("neotrips")
        x = x.replacingOccurrences(
            of: #"name="neotrips" label="Neotrips""#, with: #"name="neotrips" label="新旅行 Neotrips""#)
        try x.write(to: store.appendingPathComponent("services/neotrips.xml"), atomically: true, encoding: .utf8)
        let latin = x.replacingOccurrences(
            of: #"name="neotrips" label="新旅行 Neotrips""#, with: #"name="other" label="Other""#
        )
        .replacingOccurrences(of: #"integrationKey="neotrips"#, with: #"integrationKey="other"#)
        try latin.write(to: store.appendingPathComponent("services/other.xml"), atomically: true, encoding: .utf8)
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path])
        let s = t.waitFor("新旅行")
        let lines = s.split(separator: "\n").map(String.init)
        guard let cjk = lines.first(where: { $0.contains("新旅行") }),
            let other = lines.first(where: { $0.contains("Other") })
        else {
            return XCTFail(s)
        }
        func column(of needle: String, in line: String) -> Int? {
            line.range(of: needle).map { TextWidth.width(of: String(line[..<$0.lowerBound])) }
        }
        XCTAssertEqual(
            column(of: "3 ", in: cjk), column(of: "3 ", in: other), "the Apps column lines up:\n\(cjk)\n\(other)")
        XCTAssertEqual(
            TextWidth.width(of: cjk.trimmingTrailingSpaces()), TextWidth.width(of: other.trimmingTrailingSpaces()))
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }

    /// SIGTERM (and SIGHUP, SIGINT) restore the terminal through the same exit path.
    func testSignalRestoresTheTerminal() throws {
        for sig in [SIGTERM, SIGHUP, SIGINT] {
            let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path])
            t.waitFor("neotrips")
            guard let pid = t.consolePid() else { return XCTFail("no console process") }
            kill(pid, sig)
            let end = t.ending()
            XCTAssertEqual(end.status, Int(128 + sig), "signal \(sig):\n\(end.screen)")
            XCTAssertEqual(end.modes, "icanon echo", "cooked mode restored after signal \(sig)")
            XCTAssertEqual(t.display("#{alternate_on}"), "0")
        }
    }

    /// A non-UTF-8 locale: ASCII borders, accented labels keep their letters, wide ones
    /// become one ? per column so the columns still line up.
    func testNonUTF8LocaleFallsBackToASCII() throws {
        var x = try xml("neotrips")
        x = x.replacingOccurrences(of: #"name="neotrips" label="Neotrips""#, with: #"name="neotrips" label="Café 新旅行""#)
        try x.write(to: store.appendingPathComponent("services/neotrips.xml"), atomically: true, encoding: .utf8)
        let t = try TmuxHarness(
            width: 80, height: 24, args: ["--store", store.path], env: ["LANG": "C", "LC_ALL": "C"])
        assertScreen(t, t.waitFor("Cafe ??????"), "asciiList")
        t.keys("Enter")
        assertScreen(t, t.waitFor("+ Service ---"), "asciiServiceEditor")  // no box-drawing characters
        t.keys("C-q")
        t.waitFor("PD-END")
    }

    /// The POSIX locale (no LANG, as over SSH by default): characters outside ASCII typed
    /// into a label are read as the terminal's UTF-8 and saved, though drawn as `?`.
    func testPOSIXLocaleKeepsTypedCJK() throws {
        let t = try TmuxHarness(
            width: 80, height: 24, args: ["--store", store.path], env: ["LANG": "", "LC_ALL": "", "LC_CTYPE": ""])
        t.waitFor("PushDesk - Services")
        t.keys("Enter")
        t.waitFor("+ Service ---")
        t.focus(field: "Label")
        t.keys("End")
        t.type(" 東京 ✈")
        t.waitFor("Neotrips ???? ?")
        t.keys("C-s")
        t.waitFor("Saved services/neotrips.xml")
        let saved = try xml("neotrips")
        XCTAssertTrue(saved.contains(#"name="neotrips" label="Neotrips 東京 ✈""#), saved)
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }

    /// A broken theme file: the default theme, and a message saying what and where.
    func testBrokenThemeFallsBackWithAMessage() throws {
        let themes = store.appendingPathComponent("my-themes")
        try FileManager.default.createDirectory(at: themes, withIntermediateDirectories: true)
        try "[screen.normal]\nfg = 300\n".write(
            to: themes.appendingPathComponent("broken.toml"), atomically: true, encoding: .utf8)
        let t = try TmuxHarness(
            width: 100, height: 24, args: ["--store", store.path, "--theme", "broken"],
            env: ["PUSHDESK_THEMES": themes.path])
        let s = t.waitFor("Theme not used")
        // What and where (the theme file's path masked), the default theme in use.
        assertScreen(t, s, "brokenTheme", masks: [(GoldenScreens.literal(themes.path), "THEMES")])
        t.keys("Enter")
        t.waitFor("Enter edit")
        t.keys("C-q")
        t.waitFor("PD-END")
    }

    /// With --mouse, a click selects and a second click opens; keys the console does not
    /// use (Ctrl-\\) are ignored rather than ending it.
    func testMouseClicksAndUnusedKeys() throws {
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path, "--mouse"])
        t.waitFor("neotrips")
        t.keys("C-\\")
        // An X10 mouse report: ESC [ M, button 0, column and row + 33 (0-based 10, 2: the neotrips row).
        let click =
            "\u{1b}[M" + String(UnicodeScalar(32)) + String(UnicodeScalar(32 + 10 + 1)!)
            + String(UnicodeScalar(32 + 2 + 1)!)
        t.type(click)
        assertScreen(t, t.waitFor("Service neotrips"), "views/serviceEditor")
        t.keys("C-q")
        XCTAssertEqual(t.ending().status, 0)
    }

    /// Standard input that is not a terminal: a clear error and exit 2.
    func testNotATTYIsAClearError() throws {
        let p = Process()
        p.executableURL = TmuxHarness.binary
        p.arguments = ["console", "--store", store.path]
        p.standardInput = Pipe()
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        let errText = PipeReader(err.fileHandleForReading)
        try p.waitUntilExit(within: defaultChildDeadline) { errText.text }
        XCTAssertEqual(p.terminationStatus, 2)
        let msg = String(decoding: errText.finish(), as: UTF8.self)
        XCTAssertTrue(msg.contains("the console needs a terminal"), msg)
    }
}
