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
        assertScreen(a, "theTabShowsWhatCredentialsCheckReports")
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
        assertScreen(text: shown.joined(separator: "\n"), "checkOnlineStopsAtTLSWithWhatToDo", size: "80x24")
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
        assertScreen(a, "cancelledNothingMoreShown", width: 100, height: 30, machine: true)
        // Esc ends the handshake's wait and closes the connection: the check's thread ends
        // (milliseconds when quiet), long before the 10 s connect time-out could end it.
        let started = Date()
        while a.jobs.runningJobs > 0 && Date().timeIntervalSince(started) < 5 { usleep(5_000) }
        XCTAssertEqual(a.jobs.runningJobs, 0, "the check's thread still runs: Esc did not end the handshake")
    }
}
