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
            for (role, s) in t.styles {
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

    /// The built-in copies (used when Themes/ is not beside the binary) equal Themes/*.toml.
    func testBuiltinThemesMatchTheFiles() throws {
        for name in shipped {
            let file = try String(
                contentsOf: packageRoot.appendingPathComponent("Themes/\(name).toml"), encoding: .utf8)
            XCTAssertTrue(
                BuiltinThemes.sources[name] == file,
                "Sources/PushDeskTUI/Theme/BuiltinThemes.swift is stale for \(name); run scripts/embed-themes")
        }
    }

    /// The pre-parsed copies the console starts on are what the TOML parser makes of the
    /// files, and a shipped file is loaded as them, an edited one through the parser.
    func testPreparsedThemesEqualTheParser() throws {
        XCTAssertEqual(Set(BuiltinThemeStyles.names), Set(shipped))
        XCTAssertNil(BuiltinThemeStyles.theme("nosuch"))
        for name in shipped {
            let parsed = try ThemeLoader.parse(BuiltinThemes.sources[name]!, file: "\(name).toml")
            XCTAssertEqual(
                BuiltinThemeStyles.theme(name), parsed,
                "BuiltinThemeStyles.swift is stale for \(name); run scripts/embed-themes")
            XCTAssertEqual(
                try ThemeLoader.load(named: name, directories: [packageRoot.appendingPathComponent("Themes")]), parsed)
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pd-theme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let edited = BuiltinThemes.sources["default"]!.replacingOccurrences(of: "fg = 252", with: "fg = 253")
        XCTAssertNotEqual(edited, BuiltinThemes.sources["default"]!)
        try edited.write(to: dir.appendingPathComponent("default.toml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try ThemeLoader.load(named: "default", directories: [dir]).style(.normal).fg, 253)
    }
}
