import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Expected screens kept as files (ratatui's TestBackend, snapshot testing): one file per
/// view and size under Tests/PushDeskTUITests/GoldenScreens/<test class>/<name>.<W>x<H>.txt,
/// every row of the screen, trailing spaces dropped, and — where they matter — the roles
/// (colours) of the cells below it. `PUSHDESK_UPDATE_SCREENS=1 swift test` (or `make test`)
/// rewrites the files from what the console draws, for `git diff` to show; without it a
/// mismatch fails with the rows that differ, expected against actual.
enum GoldenScreens {
    static let directory = packageRoot.appendingPathComponent("Tests/PushDeskTUITests/GoldenScreens")
    static var updating: Bool { ProcessInfo.processInfo.environment["PUSHDESK_UPDATE_SCREENS"] == "1" }

    /// The screen's rows, trailing spaces dropped, then (with `roles`) a "roles" part: for each
    /// row that has them, the runs of cells whose role is not `screen.normal`, as
    /// `row 3: table.header 0-79, list.selected 0-79`.
    static func text(_ b: CellBuffer, roles: Bool) -> String {
        var rows = (0..<b.height).map { b.line($0).trimmingTrailingSpaces() }
        if roles {
            rows.append("── roles ──")
            for y in 0..<b.height {
                var runs: [String] = []
                var x = 0
                while x < b.width {
                    let role = b.role(x: x, y: y)
                    var end = x
                    while end + 1 < b.width, b.role(x: end + 1, y: y) == role { end += 1 }
                    if role != .normal { runs.append("\(role.rawValue) \(x)-\(end)") }
                    x = end + 1
                }
                if !runs.isEmpty { rows.append("row \(y): " + runs.joined(separator: ", ")) }
            }
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// `text` with each pattern replaced.
    static func masked(_ text: String, _ masks: [(String, String)]) -> String {
        masks.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1, options: .regularExpression) }
    }

    /// What differs from machine to machine and run to run in what the console says about
    /// locks, recovery files and saves: the user and host, pids, dates and times.
    static var machineMasks: [(String, String)] {
        [
            (literal(FileManager.default.temporaryDirectory.path) + "/[^/\\s│]*", "TMP"),
            (literal(ProcessIdentity.user + "@" + ProcessIdentity.host), "USER@HOST"),
            (literal("@" + ProcessIdentity.host), "@HOST"), ("pid [0-9]+", "pid PID"),
            ("@HOST\\.[0-9]+\\.", "@HOST.PID."), ("[0-9]{4}-[0-9]{2}-[0-9]{2}", "YYYY-MM-DD"),
            ("[0-9]{2}:[0-9]{2}:[0-9]{2}", "hh:mm:ss"),
        ]
    }

    /// The words of a screen in reading order, frames dropped, wrapped at 100 columns: for a
    /// screen whose layout follows the length of a masked value (a host name in a dialog
    /// wraps the text round it differently on another machine).
    static func flowed(_ text: String) -> String {
        let words = text.replacingOccurrences(of: "[│┌┐└┘├┤─▲▼]", with: " ", options: .regularExpression)
            .split(whereSeparator: { $0 == " " || $0 == "\n" })
        var rows = ["(the screen's words in order, wrapped at 100: its layout varies with the masked values)"]
        var row = ""
        for w in words {
            if !row.isEmpty, row.count + 1 + w.count > 100 {
                rows.append(row)
                row = ""
            }
            row += (row.isEmpty ? "" : " ") + w
        }
        if !row.isEmpty { rows.append(row) }
        return rows.joined(separator: "\n") + "\n"
    }

    /// Whether `text` shows something whose length differs between machines (the user, the
    /// host, a pid, a temporary path), so that its layout does too.
    static func machineDependent(_ text: String) -> Bool {
        text.contains("@" + ProcessIdentity.host) || text.contains(ProcessIdentity.user + "@")
            || text.contains("pid ") || text.contains(FileManager.default.temporaryDirectory.path + "/")
    }

    /// A pattern that matches `text` as it is.
    static func literal(_ text: String) -> String { NSRegularExpression.escapedPattern(for: text) }

    /// What would make a golden file differ from run to run: temporary paths and random ids.
    static func unsteady(_ text: String) -> String? {
        let tmp = FileManager.default.temporaryDirectory.path
        if text.contains(tmp + "/") { return "a temporary path (\(tmp)/…)" }
        if let r = text.range(of: "[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-", options: .regularExpression),
            text[r].contains(where: { $0 != "0" && $0 != "-" })
        {
            return "a random id (UUID)"
        }
        return nil
    }

    /// Compares `actual` with the golden file `name` (rewriting it in update mode).
    /// A name under `views/` (`"views/serviceEditor"`) is a view several test classes reach
    /// in the same state: one file, GoldenScreens/views/<name>.<W>x<H>.txt, for all of them.
    static func check(
        _ actual: String, _ name: String, owner: String, file: StaticString, line: UInt
    ) {
        let path = name.hasPrefix("views/") ? name : owner + "/" + name
        let url = directory.appendingPathComponent(path + ".txt")
        let shown = "GoldenScreens/\(path).txt"
        if let why = unsteady(actual) {
            return XCTFail("\(shown): the screen holds \(why); mask or pin it\n\(actual)", file: file, line: line)
        }
        let expected = try? String(contentsOf: url, encoding: .utf8)
        if expected == actual { return }
        if updating {
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try actual.write(to: url, atomically: true, encoding: .utf8)
                print("wrote \(shown)")
            } catch {
                XCTFail("\(shown): cannot write: \(error)", file: file, line: line)
            }
            return
        }
        guard let expected else {
            return XCTFail(
                "\(shown) is missing: run with PUSHDESK_UPDATE_SCREENS=1 to write it, and review it.\n\(actual)",
                file: file, line: line)
        }
        XCTFail(
            "\(shown) differs (PUSHDESK_UPDATE_SCREENS=1 rewrites it; review with git diff):\n"
                + diff(expected, actual), file: file, line: line)
    }

    /// The rows that differ, expected (`-`) against actual (`+`), then the whole actual screen.
    static func diff(_ expected: String, _ actual: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for i in 0..<max(e.count, a.count) {
            let x = i < e.count ? String(e[i]) : nil
            let y = i < a.count ? String(a[i]) : nil
            guard x != y else { continue }
            out.append(String(format: "  %3d - ", i) + (x.map { "|\($0)|" } ?? "(no row)"))
            out.append(String(format: "  %3d + ", i) + (y.map { "|\($0)|" } ?? "(no row)"))
        }
        return out.joined(separator: "\n") + "\nactual:\n" + actual
    }
}

extension XCTestCase {
    /// The folder of this test class's golden files.
    var goldenOwner: String { String(describing: Swift.type(of: self)) }

    /// The console's whole screen (at its size, or `width`×`height`) against
    /// GoldenScreens/<class>/<name>.<W>x<H>.txt; `roles: true` compares the cells' roles too;
    /// `masks` (pattern → replacement) take out what differs from run to run (a host, a pid).
    func assertScreen(
        _ a: ConsoleApp, _ name: String, width: Int? = nil, height: Int? = nil, roles: Bool = false,
        masks: [(String, String)] = [], flowed: Bool = false, machine: Bool = false, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        assertScreen(
            a.render(width: width ?? a.viewWidth, height: height ?? a.viewHeight), name, roles: roles, masks: masks,
            flowed: flowed, machine: machine, file: file, line: line)
    }

    /// A drawn buffer against GoldenScreens/<class>/<name>.<W>x<H>.txt.
    /// `flowed: true` compares the screen's words in order (`GoldenScreens.flowed`);
    /// `machine: true` masks `GoldenScreens.machineMasks` and compares a screen that shows
    /// one of them as its words in order.
    func assertScreen(
        _ b: CellBuffer, _ name: String, roles: Bool = false, masks: [(String, String)] = [], flowed: Bool = false,
        machine: Bool = false, file: StaticString = #filePath, line: UInt = #line
    ) {
        let raw = GoldenScreens.text(b, roles: roles)
        let flowed = flowed || (machine && GoldenScreens.machineDependent(raw))
        let text = GoldenScreens.masked(raw, masks + (machine ? GoldenScreens.machineMasks : []))
        GoldenScreens.check(
            flowed ? GoldenScreens.flowed(text) : text, "\(name).\(b.width)x\(b.height)", owner: goldenOwner,
            file: file, line: line)
    }

    /// A real terminal's screen (tmux's capture; `size` as `WxH`) against its golden file.
    func assertScreen(
        text: String, _ name: String, size: String, masks: [(String, String)] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        var rows = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).trimmingTrailingSpaces()
        }
        while rows.last == "" { rows.removeLast() }
        GoldenScreens.check(
            GoldenScreens.masked(rows.joined(separator: "\n") + "\n", masks), "\(name).\(size)", owner: goldenOwner,
            file: file, line: line)
    }
}
