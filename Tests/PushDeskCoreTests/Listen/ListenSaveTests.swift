import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// What `pushdesk listen --profile` does with what it cannot save as sent: a device name
/// that would drive a terminal, a store it cannot write, a body far past the limit. The
/// app always gets its answer; the line says what was saved, or why nothing was.
final class ListenSaveTests: XCTestCase {
    let iosToken = String(repeating: "3f", count: 32)

    func demoStore() throws -> URL {
        let store = try makeTempDir(self)
        try DemoStore.write(to: store)
        return store
    }

    /// ESC, C1 and a bidi override in the device name: the device is saved, its label
    /// without them, and the line says so; nothing raw reaches the output.
    func testADeviceNameWithControlCharactersIsSavedWithoutThem() throws {
        let store = try demoStore()
        let listen = try ListenProcess(store: store, ["--profile", "ana", "--count", "1", "--for", "50"])
        let name = "Evil\u{1B}[2J\u{9B}31m\u{202E}enohP"
        let answer = try listen.client().exchange(
            CampaignSDK.iosRegistration(token: iosToken, integrationKey: "neotrips-ios-dev", deviceName: name)
                .bytes(host: "localhost:\(listen.port)"))
        XCTAssertEqual(answer.status, 200, answer.body)
        XCTAssertEqual(listen.waitForExit(), 0, listen.stderr)

        let line = try XCTUnwrap(listen.lines.first)
        XCTAssertTrue(line.contains(#""Evil\u{1B}[2J\u{9B}31m\u{202E}enohP""#), line)
        XCTAssertTrue(
            line.contains(
                #"added to profile ana (device name saved as "EvilenohP": control and bidi characters left out)"#),
            line)
        for text in [line, listen.stderr] {
            XCTAssertFalse(text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{202E}" }, text)
        }
        let saved = try Store(root: store).load(Profile.self, "ana").subscriptions.filter { $0.token == iosToken }
        XCTAssertEqual(saved.map(\.label), ["EvilenohP"])
        XCTAssertEqual(try listenLog(store).first?["deviceName"] as? String, name, "the log keeps what was sent")
    }

    /// A store nothing can be written to (immutable as root, read-only mode otherwise): the
    /// registration is answered, the line says why the device was not saved, standard error
    /// says the request log was not written, and the profile is as it was.
    func testAReadOnlyStoreStillAnswersAndSaysWhyNothingWasSaved() throws {
        let store = try demoStore()
        _ = try ListenCertificates.localIdentity(storeRoot: store, names: [])  // the CA, made while writable
        let profile = store.appendingPathComponent("profiles/ana.xml")
        let before = try Data(contentsOf: profile)
        let dirs = [store, store.appendingPathComponent("profiles"), store.appendingPathComponent(".pushdesk")]
        try makeReadOnly(dirs)

        let listen = try ListenProcess(store: store, ["--profile", "ana", "--count", "1", "--for", "50"])
        let answer = try listen.client().exchange(
            CampaignSDK.iosRegistration(token: iosToken, integrationKey: "neotrips-ios-dev", deviceName: "QA")
                .bytes(host: "localhost:\(listen.port)"))
        XCTAssertEqual(answer.status, 200, answer.body)
        XCTAssertEqual(listen.waitForExit(), 0, listen.stderr)

        let line = try XCTUnwrap(listen.lines.first)
        XCTAssertTrue(line.contains("registration  200  neotrips-ios-dev  \"QA\""), line)
        XCTAssertTrue(line.contains("not saved: .pushdesk/lock: error: "), line)
        XCTAssertTrue(listen.stderr.contains("pushdesk listen: not saved: .pushdesk/lock: error: "), listen.stderr)
        XCTAssertTrue(
            listen.stderr.contains(
                ".pushdesk/listen.jsonl: error: the request log was not written: "),
            listen.stderr)
        XCTAssertTrue(listen.stderr.contains("requests are still answered"), listen.stderr)
        XCTAssertEqual(try Data(contentsOf: profile), before)
    }

    /// 10,000 parameters in `additionalParams` are far past the 64 KB body limit: 413 at
    /// once, the connection closed, and the line and the log name `registration.malformed`.
    func testTenThousandParamsAreRefusedAsMalformedWithoutAHang() throws {
        let store = try demoStore()
        let listen = try ListenProcess(store: store, ["--json", "--count", "1", "--for", "50"])
        var params: [String: String] = [:]
        for i in 0..<10_000 { params["p\(i)"] = "v" }
        let request = CampaignSDK.iosRegistration(token: iosToken, integrationKey: "neotrips-ios-dev", params: params)
        XCTAssertGreaterThan(request.body.count, ListenServer.maxBodyBytes)
        let client = try listen.client()
        let answer = try client.exchange(request.bytes(host: "localhost:\(listen.port)"))
        XCTAssertEqual(answer.status, 413)
        XCTAssertEqual(answer.headers["connection"], "close")
        XCTAssertTrue(client.waitClosed(timeout: 10))
        XCTAssertEqual(listen.waitForExit(), 0, listen.stderr)
        let printed = try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(listen.lines.first).utf8))
        let entry = try XCTUnwrap(printed as? [String: Any])
        XCTAssertEqual(entry["status"] as? Int, 413)
        XCTAssertEqual(rules(entry), ["registration.malformed"])
        XCTAssertEqual(rules(try XCTUnwrap(try listenLog(store).first)), ["registration.malformed"])
    }

    /// Root writes through permissions, so as root the directories are made immutable
    /// (`chattr +i`); otherwise their write bits are cleared. Undone when the test ends.
    func makeReadOnly(_ dirs: [URL]) throws {
        if geteuid() == 0 {
            let chattr = ["/usr/bin/chattr", "/bin/chattr"].first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let chattr else { throw XCTSkip("running as root without chattr: cannot make a read-only store") }
            let set = Process()
            set.executableURL = URL(fileURLWithPath: chattr)
            set.arguments = ["+i"] + dirs.map(\.path)
            try set.run()
            set.waitUntilExit()
            addTeardownBlock {
                let unset = Process()
                unset.executableURL = URL(fileURLWithPath: chattr)
                unset.arguments = ["-i"] + dirs.map(\.path)
                try? unset.run()
                unset.waitUntilExit()
            }
            guard set.terminationStatus == 0 else {
                throw XCTSkip("chattr +i is not supported here (file system or capability)")
            }
        } else {
            for d in dirs { try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: d.path) }
            addTeardownBlock {
                for d in dirs {
                    try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: d.path)
                }
            }
        }
    }
}
