import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// The copy-out `curl` command: the real shell parses it back into the exact endpoint,
/// headers and body of the preview, with placeholders and never a credential.
final class PayloadCurlTests: XCTestCase {
    /// Runs the command through /bin/sh with `curl` replaced by a printer of its arguments.
    func shellArguments(_ command: String) throws -> [String] {
        XCTAssertTrue(command.hasPrefix("curl "), command)
        let script = "printf '%s\\0'" + command.dropFirst("curl".count)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("pd-curl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: out)
        try p.run()
        try p.waitUntilExit(within: defaultChildDeadline)
        XCTAssertEqual(p.terminationStatus, 0, "sh could not parse:\n\(command)")
        let data = try Data(contentsOf: out)
        return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    func value(after flag: String, in args: [String]) -> [String] {
        args.indices.filter { args[$0] == flag && $0 + 1 < args.count }.map { args[$0 + 1] }
    }

    func testAPNsTokenAuthCarriesHeadersBodyAndPlaceholders() throws {
        // A body with a quote, an apostrophe and non-ASCII text: quoting must keep every byte.
        let d = PayloadFixture.delivery(body: "It's \"50%\" off — 夏", ios: IOSOptions(collapseId: "summer"))
        let service = PayloadFixture.service()
        let cmd = try XCTUnwrap(
            CurlCommand.command(
                delivery: d, service: service, profile: nil, appKey: "neotrips-ios-dev", now: PayloadFixture.now))
        let args = try shellArguments(cmd)
        let target = PayloadFixture.target(d, app: "neotrips-ios-dev", profile: nil)
        XCTAssertEqual(Array(args.prefix(2)), ["-v", "--http2"])
        XCTAssertEqual(
            value(after: "--data", in: args), [target.payload.compact], "the body is the exact compact payload")
        XCTAssertEqual(args.last, "https://api.sandbox.push.apple.com/3/device/<DEVICE_TOKEN>")
        let headers = value(after: "--header", in: args)
        XCTAssertEqual(headers.first, "authorization: bearer <PROVIDER_TOKEN>")
        XCTAssertEqual(Array(headers.dropFirst()), target.headers.map { "\($0.name): \($0.value)" })
        XCTAssertTrue(headers.contains("apns-collapse-id: summer"))
    }

    func testAPNsCertificateAuthUsesCertAndKeyPlaceholders() throws {
        var service = PayloadFixture.service()
        guard case .ios(var prod) = service.apps[1] else { return XCTFail("ios") }
        prod.auth = .certificate(certificateFile: "credentials/neotrips-prod.p12", passwordRef: "neotrips-prod-p12")
        service.apps[1] = .ios(prod)
        let cmd = try XCTUnwrap(
            CurlCommand.command(
                delivery: PayloadFixture.delivery(), service: service, profile: PayloadFixture.ana,
                appKey: "neotrips-ios", now: PayloadFixture.now))
        let args = try shellArguments(cmd)
        XCTAssertEqual(value(after: "--cert", in: args), ["<CERTIFICATE.pem>"])
        XCTAssertEqual(value(after: "--key", in: args), ["<PRIVATE_KEY.pem>"])
        XCTAssertFalse(args.contains { $0.lowercased().hasPrefix("authorization") })
        XCTAssertFalse(cmd.contains("neotrips-prod-p12"), "no secret reference or file in the command")
        XCTAssertEqual(args.last, "https://api.push.apple.com/3/device/<DEVICE_TOKEN>")
        XCTAssertTrue(
            value(after: "--data", in: args)[0].contains(#""body":"Hi Ana, 20% off until Sunday.""#), "personalized")
    }

    func testFCMv1AndLegacy() throws {
        let d = PayloadFixture.delivery(android: AndroidOptions(type: .notification, priority: .high, ttl: "60"))
        let v1 = try shellArguments(
            try XCTUnwrap(
                CurlCommand.command(
                    delivery: d, service: PayloadFixture.service(), profile: nil,
                    appKey: "neotrips-android", now: PayloadFixture.now)))
        XCTAssertEqual(Array(v1.prefix(2)), ["-X", "POST"])
        XCTAssertEqual(
            value(after: "--header", in: v1),
            ["Authorization: Bearer <ACCESS_TOKEN>", "Content-Type: application/json; charset=UTF-8"])
        XCTAssertEqual(v1.last, "https://fcm.googleapis.com/v1/projects/neotrips-12345/messages:send")
        let body = value(after: "--data", in: v1)[0]
        XCTAssertTrue(body.hasPrefix(#"{"message":{"token":"<DEVICE_TOKEN>","notification":"#), body)
        XCTAssertEqual(
            body,
            PayloadFixture.target(d, app: "neotrips-android", profile: nil, token: "<DEVICE_TOKEN>").payload.compact)

        let legacy = try shellArguments(
            try XCTUnwrap(
                CurlCommand.command(
                    delivery: d, service: PayloadFixture.service(api: .legacy), profile: nil,
                    appKey: "neotrips-android", now: PayloadFixture.now)))
        XCTAssertEqual(value(after: "--header", in: legacy).first, "Authorization: key=<SERVER_KEY>")
        XCTAssertEqual(legacy.last, "https://fcm.googleapis.com/fcm/send")
        XCTAssertTrue(value(after: "--data", in: legacy)[0].hasPrefix(#"{"to":"<DEVICE_TOKEN>""#))
    }

    /// DEL, C1 and bidi controls in a text become JSON escapes: same JSON value, nothing raw.
    func testControlCharactersNeverReachTheCommandRaw() throws {
        let d = PayloadFixture.delivery(title: "a\u{7F}b\u{9B}c\u{202E}d")
        let cmd = try XCTUnwrap(
            CurlCommand.command(
                delivery: d, service: PayloadFixture.service(), profile: nil, appKey: "neotrips-ios",
                now: PayloadFixture.now))
        XCTAssertFalse(
            cmd.unicodeScalars.contains { $0.value == 0x7F || (0x80...0x9F).contains($0.value) || $0.value == 0x202E })
        let body = value(after: "--data", in: try shellArguments(cmd))[0]
        XCTAssertTrue(body.contains(#""title":"a\u007Fb\u009Bc\u202Ed""#), body)
        // The escaped body decodes to the same payload as the exact one.
        let exact = PayloadFixture.target(d, app: "neotrips-ios", profile: nil).payload.compact
        let a = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: Data(exact.utf8)) as? NSDictionary
        XCTAssertEqual(a, b)
    }

    func testUnknownAppGivesNil() {
        XCTAssertNil(
            CurlCommand.command(
                delivery: PayloadFixture.delivery(), service: PayloadFixture.service(), profile: nil, appKey: "nope",
                now: PayloadFixture.now))
    }
}
