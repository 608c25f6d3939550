import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// The FCM probe of `credentials check --online` (docs/SENDING.md): only a 400 whose FcmError detail
/// has the errorCode INVALID_ARGUMENT proves the project and the service account. FCM's
/// answer to a request it could not read (400, status INVALID_ARGUMENT, no FcmError) does not.
final class FCMProbeAnswerTests: XCTestCase {
    private func onlineSteps(_ r: CommandResult, app: String) throws -> [[String: Any]] {
        let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let report = (doc?["reports"] as? [[String: Any]])?.first { $0["app"] as? String == app }
        return report?["online"] as? [[String: Any]] ?? []
    }

    func testAMalformedRequestAnswerIsNotAccepted() throws {
        let mock = try MockPushServices(self)
        mock.fcmTakesRequestsAsMalformed = true
        let r = try runPushDesk(
            ["credentials", "check", "--online", "--app", "neotrips-android", "--store", mock.store.path, "--json"],
            environment: mock.environment())
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let steps = try onlineSteps(r, app: "neotrips-android")
        XCTAssertEqual(steps.map { $0["step"] as? String }, ["dns", "tcp", "tls", "auth"], r.stdout)
        XCTAssertEqual(steps.map { $0["ok"] as? Bool }, [true, true, true, false], "\(steps)")
        let auth = try XCTUnwrap(steps.last)
        XCTAssertEqual(auth["rule"] as? String, "connection.auth")
        XCTAssertEqual(auth["severity"] as? String, "error")
        XCTAssertEqual(auth["detail"] as? String, "400 INVALID_ARGUMENT without an FcmError errorCode")
        let message = auth["message"] as? String ?? ""
        XCTAssertTrue(message.contains("no FcmError errorCode"), message)
        XCTAssertTrue(message.contains("proves neither the project nor the service account"), message)
        // The probe did reach FCM: it is the answer that was judged.
        let probe = try XCTUnwrap(mock.google.requests.first { $0.path.hasSuffix("messages:send") })
        XCTAssertEqual(
            String(decoding: probe.body, as: UTF8.self),
            #"{"message":{"token":"pushdesk-connection-check"},"validate_only":true}"#)

        // The text report says the same on stderr, as a finding.
        let text = try runPushDesk(
            ["credentials", "check", "--online", "--app", "neotrips-android", "--store", mock.store.path],
            environment: mock.environment())
        XCTAssertEqual(text.status, 1)
        XCTAssertTrue(text.stdout.contains("online auth  FAILED"), text.stdout)
        XCTAssertTrue(text.stderr.contains("[connection.auth]"), text.stderr)
        XCTAssertTrue(text.stderr.contains("no FcmError errorCode"), text.stderr)
    }

    /// The answer's parts as the check reads them: the errorCode only from an FcmError detail.
    func testOnlyAnFcmErrorDetailGivesTheErrorCode() {
        func answer(_ json: String) -> FCMErrorAnswer { FCMErrorAnswer(Array(json.utf8)) }
        let fcm = answer(
            #"{"error":{"code":400,"status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"}]}}"#
        )
        XCTAssertEqual(fcm.status, "INVALID_ARGUMENT")
        XCTAssertEqual(fcm.errorCode, "INVALID_ARGUMENT")
        let other = answer(
            #"{"error":{"code":400,"status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","errorCode":"INVALID_ARGUMENT"}]}}"#
        )
        XCTAssertEqual(other.status, "INVALID_ARGUMENT")
        XCTAssertNil(other.errorCode)
        let bare = answer(#"{"error":{"code":400,"status":"INVALID_ARGUMENT"}}"#)
        XCTAssertEqual(bare.status, "INVALID_ARGUMENT")
        XCTAssertNil(bare.errorCode)
        XCTAssertNil(answer("not json").status)
    }
}
