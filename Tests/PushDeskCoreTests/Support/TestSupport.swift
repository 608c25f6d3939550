import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

/// A fresh directory under the system temp dir, removed when the test ends.
func makeTempDir(_ test: XCTestCase, _ name: String = "store") throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("pushdesk-tests-\(UUID().uuidString)")
        .appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    return url
}

/// The package root, found from this file's path (Tests/PushDeskCoreTests/Support/…).
let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// A missing build product or tool that `make test` provides: the test fails, never skips.
struct MissingPrerequisite: Error, CustomStringConvertible {
    var description: String
}

/// The built `pushdesk` (`make test` builds it before the tests run); a failure when missing.
func builtPushDesk() throws -> URL {
    let binary = packageRoot.appendingPathComponent(".build/debug/pushdesk")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        throw MissingPrerequisite(
            description: "the pushdesk binary is not built at \(binary.path); run `swift build` first (make test does)")
    }
    return binary
}

/// Runs the built `pushdesk` binary, `deadline` seconds at most.
func runPushDesk(
    _ arguments: [String], environment: [String: String] = [:], deadline: TimeInterval = defaultChildDeadline
) throws -> CommandResult {
    try runProcess(try builtPushDesk().path, arguments, environment: environment, deadline: deadline)
}

/// Runs a child with the test process's (sealed) environment plus `environment`; past
/// `deadline` seconds kills it and throws with what it wrote.
func runProcess(
    _ path: String, _ arguments: [String], environment: [String: String] = [:],
    stdin: String? = nil, deadline: TimeInterval = defaultChildDeadline
) throws -> CommandResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    p.environment = env
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    if let stdin {
        let inPipe = Pipe()
        p.standardInput = inPipe
        inPipe.fileHandleForWriting.write(Data(stdin.utf8))
        try inPipe.fileHandleForWriting.close()
    } else {
        p.standardInput = FileHandle.nullDevice
    }
    try p.run()
    // Both pipes read on workers, so a chatty child never blocks on a full pipe.
    let outReader = PipeReader(out.fileHandleForReading)
    let errReader = PipeReader(err.fileHandleForReading)
    try p.waitUntilExit(within: deadline) {
        "stdout:\n\(outReader.text)\nstderr:\n\(errReader.text)"
    }
    return CommandResult(
        status: p.terminationStatus, stdout: String(decoding: outReader.finish(), as: UTF8.self),
        stderr: String(decoding: errReader.finish(), as: UTF8.self))
}

/// Every file below `root` with its bytes, to prove a command changed nothing.
func snapshotFiles(_ root: URL) throws -> [String: Data] {
    var out: [String: Data] = [:]
    let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    while let u = e?.nextObject() as? URL {
        // Regular files by content; anything else (a planted FIFO must not be opened) by type.
        var st = stat()
        guard lstat(u.path, &st) == 0 else { continue }
        switch st.st_mode & S_IFMT {
        case S_IFREG: out[u.path] = try Data(contentsOf: u)
        case S_IFDIR: continue
        default: out[u.path] = Data("type \(st.st_mode & S_IFMT)".utf8)
        }
    }
    return out
}

/// A service with every field set, both iOS auth modes and an Android service account.
func fullService(name: String = "full") -> Service {
    let vars = [
        AppVariable(name: "mediaUrl", label: "Media URL"), AppVariable(name: "VAR", label: "Écran \"à\" <ouvrir> & co"),
    ]
    let params = [
        SubscriptionParam(name: "loyaltyId", label: "Loyalty", field: "@loyaltyId"),
        SubscriptionParam(name: "userKey", field: "@userKey"),
    ]
    return Service(
        name: name, label: "Full 東京 service", targetMapping: "nms:appSubscriptionRcp",
        marketingUrl: "https://marketing.example.com:8443/", trackingUrl: "https://tracking.example.com/t?a=1&b=2",
        apps: [
            .ios(
                IOSApp(
                    environment: .sandbox, label: "iOS sandbox", integrationKey: "full-ios-dev",
                    bundleId: "com.example.full",
                    connector: .http2, icon: "icons/full.png",
                    auth: .token(
                        keyId: "ABC123DEFG", teamId: "DEF123GHIJ", keyFile: "credentials/AuthKey.p8",
                        keyEnvironment: "sandbox", keyTopics: "com.example.full com.example.full.widgets"),
                    variables: vars, subscriptionParams: params,
                    sounds: [Sound(name: "chime.caf", label: "Chime"), Sound(name: "horn.caf")],
                    channels: [
                        BroadcastChannel(id: "dHJpcHMtbGl2ZQ==", label: "Match 1204"),
                        BroadcastChannel(id: "bWF0Y2gtMTIwNQ==", storage: .mostRecent),
                    ])),
            .ios(
                IOSApp(
                    environment: .production, label: "iOS", integrationKey: "full-ios", bundleId: "com.example.full",
                    connector: .binary,
                    auth: .certificate(certificateFile: "credentials/prod.p12", passwordRef: "prod-p12"),
                    variables: vars)),
            .android(
                AndroidApp(
                    label: "Android", integrationKey: "full-android", packageName: "com.example.full",
                    api: .httpv1, connector: .v2, maxConnectPerChild: 12, icon: "icons/a.png",
                    auth: .serviceAccount(
                        projectId: "full-123", clientEmail: "push@full-123.iam.gserviceaccount.com",
                        keyFile: "/abs/credentials/firebase.json"),
                    variables: vars, subscriptionParams: params)),
        ])
}

/// A delivery with every attribute of <ios> and <android> set.
func fullDelivery(name: String = "everything") -> Delivery {
    Delivery(
        name: name, label: "Every \"option\" & more", service: "full",
        content: DeliveryContent(
            title: "Title <b>&amp;</b>", subtitle: "Sub 東京 🎉",
            body: "Line one\nLine two\twith tab, <%= recipient.firstName %> \"quoted\""),
        tracking: Tracking(messageId: "5f1c2a9e-1b7d-4c8e-9a51-0c3e2d7f6a10", deliveryId: "56c4"),
        ios: IOSOptions(
            type: .alert, sound: "chime.caf", critical: true, volume: "0.7", badge: "3", category: "image",
            mutableContent: true, contentAvailable: false, threadId: "trips", interruptionLevel: .timeSensitive,
            relevanceScore: "0.8", filterCriteria: "work", targetContentId: "offers", launchImage: "launch.png",
            priority: .immediate,
            collapseId: "summer", expiration: "2026-12-01T00:00:00Z"),
        android: AndroidOptions(
            type: .notification, priority: .high, ttl: "86400", collapseKey: "summer", directBootOk: true,
            channelId: "offers",
            sound: "default", icon: "ic_offer", color: "#FF6600", tag: "summer", clickAction: "OPEN_OFFER",
            image: "https://cdn.example.com/s.jpg", ticker: "Summer sale", sticky: false,
            visibility: .public, notificationPriority: .high, notificationCount: "1",
            bandwidthConstrainedOk: true, restrictedSatelliteOk: false, proxy: .ifPriorityLowered,
            analyticsLabel: "summer-sale_2026"),
        variables: [
            VariableValue(name: "mediaUrl", value: "https://cdn.example.com/s.jpg"),
            VariableValue(name: "VAR", value: "offers\nwith newline"),
        ])
}

/// A Live Activity start with every `<liveActivity>` attribute a start takes, and JSON
/// texts whose key order and number spelling must survive.
func liveActivityDelivery(name: String = "flight", event: String = "start") -> Delivery {
    Delivery(
        name: name, label: "Flight NT 401", service: "full",
        content: DeliveryContent(title: "Boarding", body: "Gate B12 <now> & \"soon\""),
        ios: IOSOptions(sound: "chime.caf", relevanceScore: "75", priority: .immediate),
        liveActivity: LiveActivity(
            event: event, attributesType: "TripAttributes", staleDate: "2026-12-01T18:00:00Z",
            inputPushToken: true, inputPushChannel: "dHJpcHMtbGl2ZQ==",
            contentState: #"{"status":"boarding","gate":"B12","eta":1.764612E9,"seats":[1,2.50]}"#,
            attributes: #"{"flight":"NT 401","from":"LIS","to":"HND"}"#))
}

/// A seeded generator for a random test: the seed is `PUSHDESK_TEST_SEED` or a fresh one,
/// and is printed when the test fails, so that run can be repeated exactly.
func seededGenerator(_ test: XCTestCase) -> SeededGenerator {
    let rng = SeededGenerator.fromEnvironment()
    let seed = rng.seed
    let name = test.name
    test.addTeardownBlock { [weak test] in
        guard let run = test?.testRun, run.failureCount + run.unexpectedExceptionCount > 0 else { return }
        print("\(name) failed with random seed \(seed): rerun it with PUSHDESK_TEST_SEED=\(seed)")
    }
    return rng
}
