import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// What changed at Google and Apple (docs/PAYLOADS.md) in the console, driven by field name and
/// read back from the files: the key's scope on the Credentials tab with its findings, the
/// Android fields of 2025 in the composer, an installation ID as a test device.
final class PlatformsConsoleTests: DemoStoreConsoleTestCase {
    func testTheKeysScopeIsEditedOnTheCredentialsTabAndItsFindingsShown() throws {
        let a = app()
        a.resize(width: 80, height: 24)
        a.press(.open)
        a.focus(field: "apps")
        a.press(.open)  // the sandbox app, token auth
        a.focus(field: "credentials.keyEnvironment")
        let editor = try XCTUnwrap(a.top as? AppEditorScreen)
        XCTAssertEqual(editor.form.focused?.label, "Key scope")
        assertScreen(a, "keyScopeBoth")
        a.handle(.char(" "))  // both → sandbox: the app's own environment, no finding
        assertScreen(a, "keyScopeSandbox")
        a.handle(.char(" "))  // → production
        guard case .ios(let app)? = editor.s.draft.apps.first else { return XCTFail("no iOS app") }
        XCTAssertEqual(app.auth?.keyScope, .production)
        assertScreen(a, "keyScopeProductionOnASandboxApp")

        a.focus(field: "credentials.keyTopics")
        XCTAssertEqual(editor.form.focused?.label, "Key topics")
        type(a, "com.neotrips.other")
        assertScreen(a, "keyTopicsWithoutTheAppsBundleId", height: 30)

        a.press(.save)
        let xml = try String(contentsOf: root.appendingPathComponent("services/neotrips.xml"), encoding: .utf8)
        XCTAssertTrue(
            xml.contains(
                #"teamId="DEF123GHIJ" keyEnvironment="production" keyTopics="com.neotrips.other" keyFile="credentials/AuthKey_ABC123DEFG.p8"/>"#
            ), xml)
        let findings = a.findings.filter { $0.rule.hasPrefix("token.") }.map { "\($0.rule) \($0.field)" }
        XCTAssertEqual(
            Set(findings), ["token.environment apps[0].auth.keyEnvironment", "token.topic apps[0].auth.keyTopics"])
    }

    func testTheComposerEditsTheNewAndroidFieldsAndShowsTheLabelFinding() throws {
        let a = app()
        a.handle(.char("D"))
        let list = try XCTUnwrap(a.stack.last as? DeliveriesListScreen)
        list.table.select(row: list.shown.firstIndex { $0.name == "summer-sale" }!)
        a.handle(.enter)
        let c = try XCTUnwrap(a.stack.last as? ComposerScreen)

        XCTAssertTrue(c.focus(field: "android.bandwidthConstrainedOk", app: a.context))
        XCTAssertEqual(c.form.focused?.label, "Bandwidth-constrained OK")
        a.handle(.char(" "))
        XCTAssertTrue(c.focus(field: "android.restrictedSatelliteOk", app: a.context))
        a.handle(.char(" "))
        XCTAssertTrue(c.focus(field: "android.proxy", app: a.context))
        XCTAssertEqual(c.form.focused?.label, "Proxy")
        a.handle(.char(" "))
        XCTAssertEqual(c.s.draft.android.proxy, .allow)
        XCTAssertTrue(c.focus(field: "android.analyticsLabel", app: a.context))
        type(a, "summer sale")
        var b = a.render(width: 200, height: 60)
        XCTAssertNotNil(b.row(containing: "↳ error: analytics label \"summer sale\" is not 1–50"), b.text)
        XCTAssertNotNil(b.row(containing: "error   android.analytics-label  android.analyticsLabel"), b.text)
        for _ in 0..<5 { a.handle(.backspace) }
        type(a, "-sale")
        XCTAssertEqual(c.s.draft.android.analyticsLabel, "summer-sale")
        b = a.render(width: 200, height: 60)
        XCTAssertNil(b.row(containing: "error: analytics label"), b.text)

        a.handle(.ctrl("s"))
        let saved = try store.load(Delivery.self, "summer-sale")
        XCTAssertEqual(saved.android.bandwidthConstrainedOk, true)
        XCTAssertEqual(saved.android.restrictedSatelliteOk, true)
        XCTAssertEqual(saved.android.proxy, .allow)
        XCTAssertEqual(saved.android.analyticsLabel, "summer-sale")
        let text = try String(contentsOf: root.appendingPathComponent("deliveries/summer-sale.xml"), encoding: .utf8)
        XCTAssertTrue(
            text.contains(
                #"collapseKey="summer" bandwidthConstrainedOk="true" restrictedSatelliteOk="true" channelId="offers""#),
            text)
        XCTAssertTrue(text.contains(#"notificationPriority="high" proxy="allow" analyticsLabel="summer-sale"/>"#), text)
        // The preview the operator reads is the message FCM gets.
        let android = try XCTUnwrap(
            PreviewEngine.preview(
                delivery: saved, service: DemoStore.neotrips, profile: nil, appKey: "neotrips-android", token: nil,
                now: Date()
            ).targets.first)
        XCTAssertEqual(android.payload["message"]?["fcm_options"]?["analytics_label"], .string("summer-sale"))
        XCTAssertEqual(android.payload["message"]?["android"]?["notification"]?["proxy"], .string("ALLOW"))
    }

    func testAnInstallationIDDeviceAndTheSameInstallationsTokenAreFlagged() throws {
        let fid = "dAbCdEfGhIjKlMnOpQrStU"
        var p = DemoStore.ana
        p.subscriptions = [
            Subscription(app: "neotrips-android", token: fid, label: "Pixel (FID)", kind: .fid),
            Subscription(app: "neotrips-android", token: fid + ":APA91bHun4MxP5egoKMwt2KZ", label: "Pixel (token)"),
        ]
        try store.save(p)
        let a = app()
        a.resize(width: 100, height: 30)
        a.press(.testDevices)
        a.press(.open)  // ana
        assertScreen(a, "anasDevicesOneInstallationTwice")
        a.press(.open)  // the FID device
        let editor = try XCTUnwrap(a.top as? DeviceEditorScreen)
        XCTAssertEqual(editor.form["kind"], "fid")
        assertScreen(a, "theInstallationIDDevice")
        a.focus(field: "token")
        a.handle(.backspace)  // 21 characters
        assertScreen(a, "anInstallationIDOneCharacterShort")
        let device = try XCTUnwrap(editor.device)
        XCTAssertEqual(
            ProfileRules.check(device, index: 0, profile: "ana", app: DemoStore.neotrips.apps[2]).map(\.rule),
            ["subscription.token-format"])
    }

    /// The composer's copy-out offers the Simulator's push file of the app shown: the file
    /// `pushdesk preview --simulator` prints; an Android app is refused with its rule.
    func testTheComposerCopiesOutTheSimulatorFile() throws {
        let a = app()
        a.resize(width: 80, height: 24)
        a.press(.deliveries)
        a.press(.down)
        a.press(.open)  // summer-sale; the preview shows the sandbox app first
        let c = try XCTUnwrap(a.stack.last as? ComposerScreen)
        a.press(.copyOut)
        guard case .choices(let options)? = a.dialog?.kind else { return XCTFail("no copy-out choices") }
        XCTAssertEqual(options.last, "iOS Simulator push file (xcrun simctl push) → a file…")
        for _ in 0..<(options.count - 1) { a.handle(.down) }
        a.handle(.enter)
        a.handle(.ctrl("u"))
        let out = root.appendingPathComponent("summer.apns").path
        a.type(out)
        a.handle(.enter)
        let written = try String(contentsOfFile: out, encoding: .utf8)
        let target = try XCTUnwrap(
            PreviewEngine.preview(
                delivery: c.s.draft, service: DemoStore.neotrips, profile: nil, appKey: "neotrips-ios-dev", token: nil,
                now: Date()
            ).targets.first)
        guard
            case .file(let expected) = SimulatorFile.make(
                delivery: c.s.draft, app: DemoStore.neotrips.apps[0], target: target)
        else { return XCTFail("no file") }
        XCTAssertEqual(written, expected + "\n")
        XCTAssertTrue(
            written.hasPrefix("{\n  \"Simulator Target Bundle\": \"com.neotrips.app\",\n  \"aps\": {"), written)

        a.press(.switchPane)
        a.press(.nextTarget)
        a.press(.nextTarget)  // the Android app
        a.press(.copyOut)
        for _ in 0..<(options.count - 1) { a.handle(.down) }
        a.handle(.enter)
        assertScreen(a, "noSimulatorFileForAnAndroidApp")
    }
}
