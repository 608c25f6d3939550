import Foundation
import PushDeskCore
import PushDeskTestSupport
import XCTest

@testable import PushDeskTUI

/// The console's Listen view as an operator uses it: opened from the services list, a test
/// build's registration sent over real TLS (the SDK's exact bytes, the local CA trusted as a
/// phone trusts it) shows up live, Enter adds its device to a profile picked by name, and
/// Esc stops the server — its port free again.
final class ListenViewTests: WholeScreenTestCase {
    let iosToken = String(repeating: "3f", count: 32)

    /// A console whose Listen view takes any free port (the environment says so, as an operator would).
    func listening() throws -> (ConsoleApp, ListenScreen) {
        let a = console()
        a.environment = ["PUSHDESK_LISTEN_PORT": "0"]
        a.press(.listen)
        let view = try XCTUnwrap(a.top as? ListenScreen)
        try settle(a, "the server to start") { view.banner != nil || view.failure != nil }
        XCTAssertNil(view.failure)
        return (a, view)
    }

    /// Takes what the view's job posted until `done` holds (at most 30 s).
    func settle(_ a: ConsoleApp, _ what: String, _ done: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(30)
        while !done() {
            guard Date() < deadline else { throw Timeout(description: "not done in 30 s: \(what)") }
            a.takeJobEvents()
            usleep(5_000)
        }
    }

    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    var caFile: URL { root.appendingPathComponent(ListenCertificates.directory).appendingPathComponent("ca.pem") }

    /// The screen with the run's port, CA path and fingerprint folded.
    func shown(_ a: ConsoleApp, port: Int) -> [String] {
        lines(a).map {
            $0.replacingOccurrences(of: "([0-9A-F]{2}:){4,}[0-9A-F]{0,2}", with: "FP", options: .regularExpression)
                .replacingOccurrences(of: ":\(port)", with: ":PORT")
                .replacingOccurrences(of: root.path, with: "STORE")
                .replacingOccurrences(of: "\\d\\d:\\d\\d:\\d\\d", with: "HH:MM:SS", options: .regularExpression)
        }
    }

    func testARegistrationShowsLiveAndEnterAddsItsDeviceToAProfile() throws {
        let (a, view) = try listening()
        let port = try XCTUnwrap(view.banner.flatMap { Int($0.hostPort.split(separator: ":").last ?? "") })
        XCTAssertNotEqual(port, 0)
        XCTAssertEqual(view.banner?.caFile, ".pushdesk/listen/ca.pem")

        let client = try TLSTestClient(port: port, ca: caFile)
        defer { client.close() }
        let answer = try client.exchange(
            CampaignSDK.iosRegistration(
                token: iosToken, integrationKey: "neotrips-ios", userKey: "ana@example.com",
                deviceName: "Ana’s iPhone", params: ["loyaltyId": "3233"]
            ).bytes(host: "localhost:\(port)"))
        XCTAssertEqual(answer.status, 200, answer.body)
        let hostile = try client.exchange(
            CampaignSDK.iosRegistration(
                token: String(repeating: "4e", count: 32), integrationKey: "neotrips-ios", userKey: "eve",
                deviceName: "Eve\u{1B}[2J\u{202E}", params: ["loyaltyId": "1"]
            ).bytes(host: "localhost:\(port)"))
        XCTAssertEqual(hostile.status, 200, hostile.body)
        let tracking = try client.exchange(
            CampaignSDK.tracking(messageId: "not-an-id", deliveryId: "56c4", tag: 1).bytes(host: "localhost:\(port)"))
        XCTAssertEqual(tracking.status, 200)
        try settle(a, "the three requests to show") { view.entries.count == 3 }

        // Newest first: the tracking hit above the registrations, each finding's rule id on its own row.
        let screen = shown(a, port: port)
        // Each finding's rule id on its own row under its request; the sender's text escaped.
        assertScreen(text: screen.joined(separator: "\n"), "settled", size: "\(a.viewWidth)x\(a.viewHeight)")

        // Enter on the registration: the profile picker (the store's profiles, and a new name).
        a.press(.down)
        a.press(.down)
        XCTAssertEqual(view.selectedRecord?.token, iosToken)
        a.press(.open)
        let profiles = a.context.profiles.map(\.name)
        XCTAssertEqual(a.dialog?.title, "Add Ana’s iPhone to which profile?")
        XCTAssertFalse(profiles.contains("qa"))
        for _ in 0..<profiles.count { a.press(.down) }  // the last choice: a new profile
        a.handle(.enter)
        XCTAssertEqual(a.dialog?.title, "New profile")
        a.type("qa")
        a.handle(.enter)
        XCTAssertNil(a.dialog, a.message ?? "")
        XCTAssertEqual(a.message, "Ana’s iPhone added to profile qa.")

        let saved = try store.load(Profile.self, "qa")
        XCTAssertEqual(saved.subscriptions.count, 1)
        XCTAssertEqual(saved.subscriptions.first?.app, "neotrips-ios")
        XCTAssertEqual(saved.subscriptions.first?.token, iosToken)
        XCTAssertEqual(saved.subscriptions.first?.userKey, "ana@example.com")
        XCTAssertEqual(saved.subscriptions.first?.label, "Ana’s iPhone")
        XCTAssertTrue(a.context.profiles.contains { $0.name == "qa" }, "the console reads the profile again")
        XCTAssertEqual(a.message, "Ana’s iPhone added to profile qa.")

        // Again into an existing profile, picked from the list: nothing to change.
        a.press(.open)
        let qa = try XCTUnwrap(a.context.profiles.firstIndex { $0.name == "qa" })
        for _ in 0..<qa { a.press(.down) }
        a.handle(.enter)
        XCTAssertEqual(a.message, "Ana’s iPhone already in profile qa.")

        // Esc stops the server and closes the view: the port takes a new listener at once.
        a.press(.back)
        XCTAssertFalse(a.top is ListenScreen)
        XCTAssertTrue(portIsFree(port), "port \(port) still taken after Esc")
    }

    /// The registration's language on the row under it (a CJK device name at its real
    /// width); one without a language says `no language` and shows `registration.locale`;
    /// Enter saves the language as the device's `locale`.
    func testTheRegistrationsLanguageShowsAndIsSavedWithTheDevice() throws {
        let (a, view) = try listening()
        let port = try XCTUnwrap(view.banner.flatMap { Int($0.hostPort.split(separator: ":").last ?? "") })
        let client = try TLSTestClient(port: port, ca: caFile)
        defer { client.close() }
        for r in [
            CampaignSDK.iosRegistration(
                token: iosToken, integrationKey: "neotrips-ios", userKey: "ming@example.com",
                deviceName: "小明的 iPhone", language: "zh_Hant_TW", params: ["loyaltyId": "8"]),
            CampaignSDK.iosRegistration(
                token: String(repeating: "4e", count: 32), integrationKey: "neotrips-ios", userKey: "qa",
                deviceName: "QA iPad", language: nil, params: ["loyaltyId": "9"]),
        ] {
            XCTAssertEqual(try client.exchange(r.bytes(host: "localhost:\(port)")).status, 200)
        }
        try settle(a, "the two registrations to show") { view.entries.count == 2 }
        assertScreen(
            text: shown(a, port: port).joined(separator: "\n"), "languages", size: "\(a.viewWidth)x\(a.viewHeight)")

        a.press(.down)  // the first registration, zh-Hant-TW
        XCTAssertEqual(view.selectedRecord?.locale, "zh-Hant-TW")
        a.press(.open)
        for _ in 0..<a.context.profiles.count { a.press(.down) }  // New profile…
        a.handle(.enter)
        a.type("qa")
        a.handle(.enter)
        XCTAssertEqual(a.message, "小明的 iPhone added to profile qa.")
        XCTAssertEqual(
            try String(contentsOf: root.appendingPathComponent("profiles/qa.xml"), encoding: .utf8),
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <recipient>
              <subscription app="neotrips-ios" token="\(iosToken)" userKey="ming@example.com" label="小明的 iPhone" locale="zh-Hant-TW"/>
            </recipient>

            """)
        a.press(.back)
        XCTAssertTrue(portIsFree(port))
    }

    /// More requests than the view has rows: with the selection on the newest, each new
    /// request's line is on screen as it arrives; moved down, the selection keeps its request.
    func testNewRequestsStayInViewWhileTheSelectionIsOnTheNewest() throws {
        let (a, view) = try listening()
        let port = try XCTUnwrap(view.banner.flatMap { Int($0.hostPort.split(separator: ":").last ?? "") })
        let client = try TLSTestClient(port: port, ca: caFile)
        defer { client.close() }
        func register(_ i: Int) throws {
            let answer = try client.exchange(
                CampaignSDK.iosRegistration(
                    token: String(format: "%064x", i + 1), integrationKey: "neotrips-ios", userKey: "u\(i)",
                    deviceName: "view-\(i)", params: ["loyaltyId": "\(i)"]
                ).bytes(host: "localhost:\(port)"))
            XCTAssertEqual(answer.status, 200, answer.body)
            try settle(a, "request \(i) to show") { view.entries.count == i + 1 }
        }
        for i in 0..<8 {
            try register(i)
            let body = lines(a).joined(separator: "\n")
            XCTAssertTrue(body.contains("neotrips-ios \"view-\(i)\""), "request \(i) not on screen:\n\(body)")
            XCTAssertEqual(view.selectedRecord?.deviceName, "view-\(i)")
        }
        a.press(.down)
        XCTAssertEqual(view.selectedRecord?.deviceName, "view-6")
        try register(8)
        XCTAssertEqual(view.selectedRecord?.deviceName, "view-6", "the selection keeps its request")
        a.press(.back)
    }

    func testAReadOnlyConsoleListensButAddsNoDevice() throws {
        let a = app(StoreAccess(state: .readOnly(holder: nil, problem: nil)))
        a.clock = { Date(timeIntervalSince1970: 1_790_000_000) }
        a.resize(width: 80, height: 24)
        a.environment = ["PUSHDESK_LISTEN_PORT": "0"]
        a.press(.listen)
        let view = try XCTUnwrap(a.top as? ListenScreen)
        try settle(a, "the server to start") { view.banner != nil || view.failure != nil }
        let port = try XCTUnwrap(view.banner.flatMap { Int($0.hostPort.split(separator: ":").last ?? "") })
        let client = try TLSTestClient(port: port, ca: caFile)
        defer { client.close() }
        let answer = try client.exchange(
            CampaignSDK.iosRegistration(
                token: iosToken, integrationKey: "neotrips-ios", userKey: "ana@example.com",
                params: ["loyaltyId": "3233"]
            ).bytes(host: "localhost:\(port)"))
        XCTAssertEqual(answer.status, 200, answer.body)
        try settle(a, "the registration to show") { view.entries.count == 1 }
        a.press(.open)
        XCTAssertNil(a.dialog, "no profile picker in a read-only console")
        XCTAssertTrue(a.message?.hasPrefix("Read-only") ?? false, a.message ?? "no message")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("profiles/qa.xml").path))
        a.press(.back)
        XCTAssertTrue(portIsFree(port))
    }

    /// A registration added to a profile the operator is editing: whichever save comes
    /// second is checked against the file as read, so neither the device nor the edit is
    /// lost — the device lands in the file and the operator's save asks (Save as copy), or
    /// the operator saved first and the device is added on top of that save.
    func testADeviceAddedWhileItsProfileIsEditedLosesNeitherEdit() throws {
        let device = Subscription(app: "neotrips-ios", token: iosToken, userKey: "qa@example.com", label: "QA iPhone")
        let a = console()
        a.press(.testDevices)
        a.press(.open)  // ana
        a.press(.open)  // its first device
        a.focus(field: "label")
        a.type(" Pro")
        // What Enter on the registration in the Listen view applies (the `addDevice` effect).
        XCTAssertEqual(try addDevice(a, device, to: "ana"), "added to profile ana")
        XCTAssertTrue(a.top.session?.isDirty ?? false, "the operator's edit is still in the editor")
        a.press(.save)
        XCTAssertEqual(a.dialog?.title, "Changed on disk")
        a.handle(.char("s"))  // Save as copy
        a.handle(.enter)
        XCTAssertEqual(a.message, "Saved your version as profiles/ana-copy.xml; profiles/ana.xml keeps the other one.")
        let ana = try store.load(Profile.self, "ana")
        XCTAssertTrue(ana.subscriptions.contains(device), "the registered device is kept")
        XCTAssertEqual(ana.subscriptions.first?.label, "Ana's iPhone 15")
        XCTAssertEqual(
            try store.load(Profile.self, "ana-copy").subscriptions.first?.label, "Ana's iPhone 15 Pro",
            "the operator's edit is kept")

        // The other order: the operator's save first, then the registration on top of it.
        let b = console()
        b.press(.testDevices)
        b.press(.open)
        b.press(.open)
        b.focus(field: "label")
        b.type(" Max")
        b.press(.save)
        XCTAssertNil(b.dialog, b.message ?? "")
        let other = Subscription(app: "neotrips-ios", token: String(repeating: "4e", count: 32), label: "QA iPad")
        XCTAssertEqual(try addDevice(b, other, to: "ana"), "added to profile ana")
        let both = try store.load(Profile.self, "ana")
        XCTAssertEqual(both.subscriptions.first?.label, "Ana's iPhone 15 Max")
        XCTAssertTrue(both.subscriptions.contains(other))
        XCTAssertTrue(both.subscriptions.contains(device))
    }

    /// Applies the `addDevice` effect as the Listen view's Enter does; what it said it did.
    func addDevice(_ a: ConsoleApp, _ device: Subscription, to profile: String) throws -> String {
        final class Outcome: @unchecked Sendable { var result: Result<String, Error>? }
        let outcome = Outcome()
        a.perform(
            .addDevice(device, profile: profile) { result in
                outcome.result = result
                return .none
            })
        return try XCTUnwrap(outcome.result, "the effect was not applied").get()
    }

    func testAPortInUseSaysWhatToChange() throws {
        let (first, view) = try listening()
        let port = try XCTUnwrap(view.banner.flatMap { Int($0.hostPort.split(separator: ":").last ?? "") })
        let b = console()
        b.environment = ["PUSHDESK_LISTEN_PORT": "\(port)"]
        b.press(.listen)
        let second = try XCTUnwrap(b.top as? ListenScreen)
        try settle(b, "the second server to fail") { second.failure != nil || second.banner != nil }
        let text = lines(b).joined(separator: "\n")
        XCTAssertNil(second.banner, text)
        // Not listening, on which port, and the variable that changes it (the port masked: its
        // length moves the words round it).
        assertScreen(b, "portInUse", masks: [(":\(port)\\b", ":PORT")], flowed: true)
        b.press(.back)
        first.press(.back)
        XCTAssertTrue(portIsFree(port))
    }

    /// Whether a new socket can listen on 127.0.0.1:`port` now.
    func portIsFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withLoopbackAddress(port: port) { bind(fd, $0, $1) }
        return bound == 0 && listen(fd, 1) == 0
    }
}
