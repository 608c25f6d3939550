import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// `pushdesk listen` reads the device's language from the registration's `osLanguage`
/// (docs/LISTEN.md, "What is recorded"): the real binary on 127.0.0.1, the SDKs' exact
/// requests over real TLS. Each line carries `locale` right after `deviceName` (canonical, or
/// null with `registration.locale`), and `--profile` sets or updates the saved device's
/// `locale`, keeping the one saved before when a registration sends none.
final class ListenLocaleTests: XCTestCase {
    let iosToken = String(repeating: "3f", count: 32)
    let fcmB = "dQw4w9WgXcQ:APA91bH-test_Token-0123456789"
    let fcmC = "eXk2m1QpRbY:APA91bH-other_Token-9876543210"
    let user = "qa@neotrips.example"

    func demoStore() throws -> URL {
        let store = try makeTempDir(self)
        try DemoStore.write(to: store)
        return store
    }

    func ios(_ language: String?) -> CampaignSDK.Request {
        CampaignSDK.iosRegistration(
            token: iosToken, integrationKey: "neotrips-ios-dev", userKey: user, deviceName: "QA iPhone",
            language: language, params: ["loyaltyId": "7"])
    }

    func android(_ token: String, _ name: String, _ locale: String?) -> CampaignSDK.Request {
        CampaignSDK.androidRegistration(
            token: token, integrationKey: "neotrips-android", userKey: user, deviceName: name, locale: locale,
            params: [("loyaltyId", "7")])
    }

    /// A line with its time and remote address (which differ from run to run) folded.
    func folded(_ line: String) -> String {
        line.replacingOccurrences(of: #""time":"[^"]*""#, with: #""time":"T""#, options: .regularExpression)
            .replacingOccurrences(of: #""remote":"[^"]*""#, with: #""remote":"R""#, options: .regularExpression)
    }

    /// The keys of a JSON object line, in the order written.
    func keys(_ line: String) throws -> [String] {
        guard case .object(let members) = try JSONReader.object(line) else { return [] }
        return members.map(\.0)
    }

    func testOSLanguageIsRecordedCanonicallyAndSavedIntoTheProfile() throws {
        let store = try demoStore()
        let requests: [(CampaignSDK.Request, String?, String)] = [
            (ios("en-US"), "en-US", "added to profile qa"),
            (android(fcmB, "husky", "zh-Hans-CN"), "zh-Hans-CN", "added to profile qa"),
            (android(fcmC, "shiba", "en_US"), "en-US", "added to profile qa"),
            (ios("xx-!!"), nil, "already in profile qa"),
            (android(fcmB, "husky", nil), nil, "already in profile qa"),
            (ios("de_de"), "de-DE", "updated in profile qa"),
        ]
        let listen = try ListenProcess(
            store: store, ["--profile", "qa", "--json", "--count", "\(requests.count)", "--for", "50"])
        let client = try listen.client()
        for (i, r) in requests.enumerated() {
            let answer = try client.exchange(r.0.bytes(host: "localhost:\(listen.port)"))
            XCTAssertEqual(answer.status, 200, "request \(i): \(answer.body)")
            _ = listen.waitForLines(i + 1)  // one at a time: each save sees the one before
        }
        XCTAssertEqual(listen.waitForExit(), 0, listen.stderr)

        let printed = listen.lines
        let logged = try String(contentsOf: store.appendingPathComponent(ListenLog.relativePath), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        XCTAssertEqual(printed.count, requests.count, printed.joined(separator: "\n"))
        XCTAssertEqual(logged.count, requests.count)
        let order = [
            "time", "remote", "kind", "path", "status", "app", "platform", "token", "userKey", "deviceName", "locale",
            "params", "messageId", "deliveryId", "event", "delivery", "device", "findings",
        ]
        XCTAssertEqual(ListenRecord.keys, order)
        for (i, r) in requests.enumerated() where i < printed.count && i < logged.count {
            XCTAssertEqual(try keys(printed[i]), order, "--json line \(i)")
            XCTAssertEqual(try keys(logged[i]), order, "listen.jsonl line \(i)")
            for line in [printed[i], logged[i]] {
                let entry = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if let tag = r.1 {
                    XCTAssertEqual(entry["locale"] as? String, tag, "line \(i)")
                    XCTAssertEqual(rules(entry), [], "line \(i)")
                } else {
                    XCTAssertTrue(entry["locale"] is NSNull, "line \(i): \(line)")
                    XCTAssertEqual(rules(entry), ["registration.locale"], "line \(i)")
                }
            }
        }

        // Whole lines: the Android SDK's en_US, and a tag that is no tag (the --json line, full token).
        XCTAssertEqual(
            folded(printed[2]),
            #"{"time":"T","remote":"R","kind":"registration","path":"/nms/mobile/1/registerAndroid.jssp","status":200,"app":"neotrips-android","platform":"android","token":"eXk2m1QpRbY:APA91bH-other_Token-9876543210","userKey":"qa@neotrips.example","deviceName":"shiba","locale":"en-US","params":{"loyaltyId":"7"},"messageId":null,"deliveryId":null,"event":null,"delivery":null,"device":null,"findings":[]}"#
        )
        XCTAssertEqual(
            folded(logged[3]),
            #"{"time":"T","remote":"R","kind":"registration","path":"/nms/mobile/1/registerIOS.jssp","status":200,"app":"neotrips-ios-dev","platform":"ios","token":"3f3f3f…3f3f","userKey":"qa@neotrips.example","deviceName":"QA iPhone","locale":null,"params":{"loyaltyId":"7"},"messageId":null,"deliveryId":null,"event":null,"delivery":null,"device":null,"findings":[{"severity":"info","rule":"registration.locale","field":"osLanguage","message":"osLanguage \"xx-!!\" is no language tag (language[-Script][-REGION], e.g. en-US, zh-Hans-CN; _ for - is fine): the device gets each delivery's default text, not the variant of its language; the Campaign SDKs send the device's locale — register through the SDK's registerDevice, or set the test device's language in its profile"}]}"#
        )
        let absent = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(printed[4].utf8)) as? [String: Any])
        let message = (absent["findings"] as? [[String: Any]])?.first?["message"] as? String
        XCTAssertEqual(
            message,
            "the registration sent no osLanguage: the device gets each delivery's default text, not the variant of its language; the Campaign SDKs send the device's locale — register through the SDK's registerDevice, or set the test device's language in its profile"
        )

        // The profile as saved: each device's language, canonical; the ones sent without a
        // tag kept what was saved before; de_de updated the iPhone's.
        let xml = try String(contentsOf: store.appendingPathComponent("profiles/qa.xml"), encoding: .utf8)
        XCTAssertEqual(
            xml,
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <recipient>
              <subscription app="neotrips-ios-dev" token="\(iosToken)" userKey="qa@neotrips.example" label="QA iPhone" locale="de-DE"/>
              <subscription app="neotrips-android" token="\(fcmB)" userKey="qa@neotrips.example" label="husky" locale="zh-Hans-CN"/>
              <subscription app="neotrips-android" token="\(fcmC)" userKey="qa@neotrips.example" label="shiba" locale="en-US"/>
            </recipient>

            """)
    }

    /// The printed line names the language after the device name (`-` when there is none);
    /// the saves say what they did.
    func testThePrintedLineNamesTheLanguage() throws {
        let store = try demoStore()
        let listen = try ListenProcess(store: store, ["--profile", "qa", "--count", "2", "--for", "50"])
        let client = try listen.client()
        for r in [ios("zh_hant_tw"), ios(nil)] {
            XCTAssertEqual(try client.exchange(r.bytes(host: "localhost:\(listen.port)")).status, 200)
        }
        XCTAssertEqual(listen.waitForExit(), 0, listen.stderr)
        let lines = listen.lines.map { String($0.dropFirst(10)) }  // without the time
        XCTAssertEqual(
            lines,
            [
                "registration  200  neotrips-ios-dev  \"QA iPhone\"  zh-Hant-TW  3f3f3f…3f3f  user qa@neotrips.example  added to profile qa",
                "registration  200  neotrips-ios-dev  \"QA iPhone\"  -  3f3f3f…3f3f  user qa@neotrips.example  already in profile qa  | info registration.locale: the registration sent no osLanguage: the device gets each delivery's default text, not the variant of its language; the Campaign SDKs send the device's locale — register through the SDK's registerDevice, or set the test device's language in its profile",
            ])
        XCTAssertEqual(try Store(root: store).load(Profile.self, "qa").subscriptions.map(\.locale), ["zh-Hant-TW"])
    }
}
