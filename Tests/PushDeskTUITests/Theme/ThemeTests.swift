import XCTest

@testable import PushDeskTUI

final class ThemeTests: XCTestCase {
    let shipped = ["default", "light", "high-contrast", "monochrome"]

    func testEveryShippedThemeParsesAndNamesEveryRole() throws {
        for name in shipped {
            let t = try ThemeLoader.load(named: name, directories: [packageRoot.appendingPathComponent("Themes")])
            XCTAssertEqual(t.name, name)
            for role in Role.allCases { XCTAssertNotNil(t.styles[role], "\(name).toml lacks [\(role.rawValue)]") }
        }
    }

    func testMonochromeUsesNoColourAndStillMarksTheSelection() throws {
        let t = try ThemeLoader.load(named: "monochrome", directories: [])
        for role in Role.allCases {
            XCTAssertEqual(t.style(role).fg, -1)
            XCTAssertEqual(t.style(role).bg, -1)
        }
        XCTAssertTrue(t.style(.listSelected).reverse)
        XCTAssertTrue(t.style(.formFieldFocus).reverse)
    }

    func testEveryColouredRoleHasASixteenColourFallback() throws {
        for name in shipped where name != "monochrome" {
            let t = try ThemeLoader.load(named: name, directories: [])
            for (role, s) in t.styles.entries {
                if s.fg >= 0 { XCTAssertTrue((0...15).contains(s.fg16), "\(name) \(role.rawValue) fg16") }
                if s.bg >= 0 { XCTAssertTrue((0...15).contains(s.bg16), "\(name) \(role.rawValue) bg16") }
            }
        }
    }

    func testBrokenThemeGivesAClearMessageAndTheDefault() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pd-themes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "name = \"bad\"\n[screen.normal]\nfg = 300\n".write(
            to: dir.appendingPathComponent("bad.toml"), atomically: true, encoding: .utf8)
        try "[screen.normal\nfg = 1\n".write(
            to: dir.appendingPathComponent("syntax.toml"), atomically: true, encoding: .utf8)
        try "[screen.normal]\nfg = 1\n[list.slected]\nfg = 2\n".write(
            to: dir.appendingPathComponent("typo.toml"), atomically: true, encoding: .utf8)

        let (t1, m1) = ThemeLoader.loadOrDefault(named: "bad", directories: [dir])
        XCTAssertEqual(t1.name, "default")
        XCTAssertTrue(m1?.contains("screen.normal.fg = 300 is outside 0–255") ?? false, m1 ?? "")
        XCTAssertTrue(m1?.contains("bad.toml") ?? false)

        let (_, m2) = ThemeLoader.loadOrDefault(named: "syntax", directories: [dir])
        XCTAssertTrue(m2?.contains("syntax.toml:1:") ?? false, "syntax errors carry line:column: \(m2 ?? "")")

        let (_, m3) = ThemeLoader.loadOrDefault(named: "typo", directories: [dir])
        XCTAssertTrue(m3?.contains("unknown role 'list.slected'") ?? false, m3 ?? "")

        let (_, m4) = ThemeLoader.loadOrDefault(named: "nosuch", directories: [dir])
        XCTAssertTrue(m4?.contains("no theme named 'nosuch'") ?? false, m4 ?? "")
    }

    /// The parsed copies the console starts on (and uses when Themes/ is not beside the
    /// binary) are generated from Themes/*.toml by the loader itself.
    func testBuiltinThemeStylesAreGeneratedFromTheFiles() throws {
        let files = try BuiltinThemeSource.shipped.map { name in
            (name, try String(contentsOf: packageRoot.appendingPathComponent("Themes/\(name).toml"), encoding: .utf8))
        }
        let generated = try BuiltinThemeSource.swift(files)
        let url = packageRoot.appendingPathComponent("Sources/PushDeskTUI/Theme/BuiltinThemeStyles.swift")
        if ProcessInfo.processInfo.environment["PUSHDESK_UPDATE_DOCS"] == "1" {
            try generated.write(to: url, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(
            try String(contentsOf: url, encoding: .utf8), generated,
            "BuiltinThemeStyles.swift is stale: run `PUSHDESK_UPDATE_DOCS=1 swift test --filter ThemeTests`")
    }

    /// A shipped file is loaded as its parsed copy, an edited one through the parser.
    func testPreparsedThemesEqualTheParser() throws {
        XCTAssertEqual(Set(BuiltinThemeStyles.names), Set(shipped))
        XCTAssertNil(BuiltinThemeStyles.theme("nosuch"))
        let themes = packageRoot.appendingPathComponent("Themes")
        for name in shipped {
            let text = try String(contentsOf: themes.appendingPathComponent("\(name).toml"), encoding: .utf8)
            let parsed = try ThemeLoader.parse(text, file: "\(name).toml")
            XCTAssertEqual(BuiltinThemeStyles.theme(name), parsed, name)
            XCTAssertEqual(try ThemeLoader.load(named: name, directories: [themes]), parsed)
        }
        let original = try String(contentsOf: themes.appendingPathComponent("default.toml"), encoding: .utf8)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pd-theme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let edited = original.replacingOccurrences(of: "fg = 252", with: "fg = 253")
        XCTAssertNotEqual(edited, original)
        try edited.write(to: dir.appendingPathComponent("default.toml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try ThemeLoader.load(named: "default", directories: [dir]).style(.normal).fg, 253)
    }
}
