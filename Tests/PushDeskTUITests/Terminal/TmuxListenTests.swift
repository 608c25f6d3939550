import Foundation
import PushDeskCore
import PushDeskTestSupport
import XCTest

/// The Listen view in a real terminal at 80×24: the built binary in tmux listens on a free
/// port (PUSHDESK_LISTEN_PORT=0), a registration sent over real TLS with the iOS SDK's bytes
/// shows up on the screen, Enter adds its device to a new profile, Esc frees the port.
final class TmuxListenTests: TmuxTestCase {
    func testARegistrationArrivesAndIsAddedToANewProfile() throws {
        let profiles = try Store(root: store).names(Profile.self)
        let t = try TmuxHarness(
            width: 80, height: 24, args: ["--store", store.path], env: ["PUSHDESK_LISTEN_PORT": "0"])
        t.waitFor("neotrips")
        t.keys("L")
        let started = t.waitFor("No request yet.")
        let match = try XCTUnwrap(
            started.range(of: "https://127\\.0\\.0\\.1:[0-9]+/", options: .regularExpression), started)
        let port = try XCTUnwrap(Int(started[match].dropFirst(18).dropLast()), started)
        XCTAssertTrue(started.contains("CA (trust it on the device): .pushdesk/listen/ca.pem"), started)

        let client = try TLSTestClient(
            port: port, ca: store.appendingPathComponent(ListenCertificates.directory).appendingPathComponent("ca.pem"))
        defer { client.close() }
        let answer = try client.exchange(
            CampaignSDK.iosRegistration(
                token: String(repeating: "3f", count: 32), integrationKey: "neotrips-ios", userKey: "qa@example.com",
                deviceName: "QA iPhone 15", params: ["loyaltyId": "7"]
            ).bytes(host: "localhost:\(port)"))
        XCTAssertEqual(answer.status, 200, answer.body)
        t.waitFor("registration 200 3f3f3f…3f3f neotrips-ios \"QA iPhone 15\"")

        t.keys("Enter")
        t.waitFor("Add QA iPhone 15 to which profile?")
        for _ in 0..<profiles.count { t.keys("Down") }
        t.keys("Enter")
        t.waitFor("Name of the profile")
        t.type("qa")
        t.keys("Enter")
        t.waitFor("QA iPhone 15 added to profile qa.")
        t.waitFor("user qa@example.com · added to profile qa")

        let saved = try Store(root: store).load(Profile.self, "qa")
        XCTAssertEqual(
            saved.subscriptions,
            [
                Subscription(
                    app: "neotrips-ios", token: String(repeating: "3f", count: 32), userKey: "qa@example.com",
                    label: "QA iPhone 15", locale: "en-US")
            ])

        t.keys("Escape")
        t.waitFor("Listen stopped: the server is closed.")
        XCTAssertThrowsError(
            try TLSTestClient(
                port: port,
                ca: store.appendingPathComponent(ListenCertificates.directory).appendingPathComponent("ca.pem")),
            "the server still answers after Esc")
        t.keys("C-q")
        t.waitFor("PD-EXIT=0")
    }
}
