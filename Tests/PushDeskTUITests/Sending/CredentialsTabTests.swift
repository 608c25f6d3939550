import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The app editor's Credentials tab: the credential checks `pushdesk credentials check`
/// makes (the same core `CredentialChecker`), and Check online (docs/SENDING.md) run off the input
/// loop against a loopback listener, step by step, Esc cancelling.
final class CredentialsTabTests: DemoStoreConsoleTestCase {
    func console() -> ConsoleApp {
        let a = app()
        a.clock = { Date(timeIntervalSince1970: 1_790_000_000) }
        a.resize(width: 80, height: 24)
        return a
    }

    func lines(_ a: ConsoleApp, width: Int = 80, height: Int = 24) -> [String] {
        let b = a.render(width: width, height: height)
        return (0..<b.height).map {
            b.line($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }

    func assertScreen(_ a: ConsoleApp, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        let got = lines(a)
        if ProcessInfo.processInfo.environment["PUSHDESK_PRINT_SCREENS"] == "1" {
            print("[\n" + got.map { "    " + String(reflecting: $0) + "," }.joined(separator: "\n") + "\n]")
        }
        XCTAssertEqual(got.count, expected.count, "rows", file: file, line: line)
        for (i, (g, e)) in zip(got, expected).enumerated() where g != e {
            XCTFail(
                "row \(i):\n  drawn    \(g)\n  expected \(e)\n\(got.joined(separator: "\n"))", file: file, line: line)
        }
    }

    /// The demo service's app `index` open on its Credentials tab.
    func credentialsTab(app index: Int) -> ConsoleApp {
        let a = console()
        a.press(.open)
        a.focus(field: "apps")
        for _ in 0..<index { a.press(.down) }
        a.press(.open)
        a.focus(field: "credentials.mode")
        return a
    }

    /// Drains background reports until the check in front has finished (at most 60 s).
    func waitForCheck(_ a: ConsoleApp, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            a.takeJobEvents()
            if let c = a.top as? OnlineCheckScreen, c.finished { return }
            usleep(10_000)
        }
        XCTFail("the check did not finish in 60 s", file: file, line: line)
    }

    func testTheTabShowsWhatCredentialsCheckReports() throws {
        let a = credentialsTab(app: 0)
        let service = try XCTUnwrap(a.services.first)
        let report = try XCTUnwrap(
            CredentialChecker.check(service: service, storeRoot: root, now: a.clock()).first { $0.index == 0 })
        XCTAssertFalse(report.findings.isEmpty, "the demo store's sandbox app has credential findings")
        let editor = try XCTUnwrap(a.top as? AppEditorScreen)
        XCTAssertEqual(editor.credentialReport?.findings.map(\.rule), report.findings.map(\.rule))
        let text = a.render(width: 80, height: 24).text
        for f in report.findings where f.severity == .error {
            XCTAssertTrue(text.contains("[\(f.rule)]") || text.contains(f.message.prefix(30)), "\(f.rule)\n\(text)")
        }
        assertScreen(
            a,
            [
                " PushDesk — Service neotrips › Neotrips iOS (sandbox)           ? help  default",
                " iOS sandbox app · neotrips-ios-dev",
                " Information  Credentials  Variables  Subscription parameters  Sounds  Channels",
                "┌ Credentials (Ctrl-Y: check online) ──────────────────────────────────────────┐",
                "│Auth mode       ‹ token       ›                                               │",
                "│Key ID          ABC123DEFG                                           10 chars │",
                "│Team ID         DEF123GHIJ                                           10 chars │",
                "│Key file (.p8)  credentials/AuthKey_ABC123DEFG.p8               Enter: browse │",
                "│                ↳ error: file not found: credentials/AuthKey_ABC123DEFG.p8    │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "│                                                                              │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " Rules and credential checks: 1 finding (1 error); Ctrl-F lists them all",
                " error apps[0].auth.keyFile: file not found: credentials/AuthKey_A… [token.key]",
                " Tab next  Ctrl-G generate key  Ctrl-O next tab  ? help  Ctrl-S save",
            ])
    }

    func testCheckOnlineStopsAtTLSWithWhatToDo() throws {
        let server = try LoopbackListener(.closeAtOnce)
        defer { server.stop() }
        let a = credentialsTab(app: 0)
        a.environment = ["PUSHDESK_APNS_SANDBOX_URL": "https://127.0.0.1:\(server.port)"]
        a.press(.checkOnline)
        XCTAssertTrue(a.top is OnlineCheckScreen)
        waitForCheck(a)
        let check = try XCTUnwrap(a.top as? OnlineCheckScreen)
        XCTAssertEqual(check.steps.map(\.step), [.dns, .tcp, .tls])
        XCTAssertEqual(check.steps.map(\.ok), [true, true, false])
        XCTAssertEqual(server.connections, 1)
        let shown = normalized(lines(a))
        if ProcessInfo.processInfo.environment["PUSHDESK_PRINT_SCREENS"] == "1" {
            print(shown.map { "            " + String(reflecting: $0) + "," }.joined(separator: "\n"))
        }
        XCTAssertEqual(
            shown,
            [
                " PushDesk — Check online › Neotrips iOS (sandbox)               ? help  default",
                "┌ Check online: Neotrips iOS (sandbox) ────────────────────────────────────────┐",
                "│ Checking neotrips-ios-dev step by step: dns → tcp → tls → auth, stopping at │",
                "│ the first failure. │",
                "│ │",
                "│ dns   ok N ms  127.0.0.1 resolves │",
                "│ tcp   ok N ms  127.0.0.1:PORT answers │",
                "│ tls   FAILED N ms  failed │",
                "│         What to do: cannot set up TLS: I/O on closed channel [connection.tls]│",
                "│ │",
                "│ Stopped at tls. Fix it and run Check online again. Esc closes. │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "│ │",
                "└──────────────────────────────────────────────────────────────────────────────┘",
                " ? help  Ctrl-Q quit  Ctrl-F findings  Esc back",
            ])
        a.press(.back)
        XCTAssertTrue(a.top is AppEditorScreen)
    }

    func testEscCancelsACheckThatWaitsAndKeysRedrawMeanwhile() throws {
        let server = try LoopbackListener(.hold)
        defer { server.stop() }
        let a = credentialsTab(app: 0)
        a.environment = ["PUSHDESK_APNS_SANDBOX_URL": "https://127.0.0.1:\(server.port)"]
        a.press(.checkOnline)
        let deadline = Date().addingTimeInterval(30)
        while server.connections == 0 && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(server.connections, 1, "the check connected")
        a.takeJobEvents()
        // The handshake waits; the console answers a resize and a key at once.
        a.resize(width: 100, height: 30)
        a.handle(.char("x"))
        XCTAssertNotNil(a.render(width: 100, height: 30).row(containing: "Checking… (Esc cancels)"))
        a.press(.back)
        XCTAssertTrue(a.top is AppEditorScreen)
        XCTAssertEqual(a.message, "Check online cancelled: nothing more is shown of it.")
        XCTAssertFalse(a.render(width: 100, height: 30).text.contains("Checking…"))
        // Esc ends the handshake's wait and closes the connection: the check's thread ends
        // (milliseconds when quiet), long before the 10 s connect time-out could end it.
        let started = Date()
        while a.jobs.runningJobs > 0 && Date().timeIntervalSince(started) < 5 { usleep(5_000) }
        XCTAssertEqual(a.jobs.runningJobs, 0, "the check's thread still runs: Esc did not end the handshake")
    }
}
