import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The deliveries list and the composer driven key by key on a real demo store, asserting
/// on rendered buffers; every payload is compared with the core's `PreviewEngine`.
final class ComposerScreenTests: XCTestCase {
    var root: URL!
    var store: Store!

    override func setUp() async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pd-composer-\(UUID().uuidString)")
        try DemoStore.write(to: root)
        store = Store(root: root)
    }
    override func tearDown() async throws { try? FileManager.default.removeItem(at: root) }

    func makeApp() -> ConsoleApp { ConsoleApp(store: .open(store)) }
    func type(_ app: ConsoleApp, _ text: String) { for c in text { app.handle(.char(c)) } }
    var composer: (ConsoleApp) -> ComposerScreen? = { $0.stack.last as? ComposerScreen }

    /// Opens the composer on a demo delivery: D (deliveries of neotrips), then the row.
    func open(_ name: String, _ app: ConsoleApp) {
        app.handle(.char("D"))
        let list = app.stack.last as! DeliveriesListScreen
        list.table.select(row: list.shown.firstIndex { $0.name == name }!)
        app.handle(.enter)
    }

    /// Every line of the pretty payload shows, in order, each on its own row below the last
    /// (a repeated line such as `}` needs a row of its own).
    func assertShowsPayload(_ payload: String, in b: CellBuffer, file: StaticString = #filePath, line: UInt = #line) {
        let screen = (0..<b.height).map { b.line($0) }
        XCTAssertFalse(payload.isEmpty, file: file, line: line)
        var row = 0
        for l in payload.split(separator: "\n").map(String.init) {
            guard row < screen.count, let found = screen[row...].firstIndex(where: { $0.contains(l) }) else {
                return XCTFail("payload line \(l) not on screen after row \(row):\n\(b.text)", file: file, line: line)
            }
            row = found + 1
        }
    }

    func testDeliveriesListRowsShowTypesLargestPayloadAndWorstFinding() throws {
        var bad = DemoStore.summerSale
        bad.name = "too-big"
        bad.content.body = String(repeating: "x", count: 4100)
        try store.save(bad)
        let app = makeApp()
        app.handle(.char("D"))
        let b = app.render(width: 100, height: 24)
        // Types, the largest payload across the apps and the worst finding of each row.
        assertScreen(b, "deliveriesList")
        let big = try XCTUnwrap(b.row(containing: "too-big"), b.text)
        let bytes = PreviewEngine.preview(
            delivery: bad, service: DemoStore.neotrips, profile: nil, appKey: nil, token: nil, now: Date()
        )
        .targets.map(\.bytes).max()!
        XCTAssertTrue(b.line(big).contains("\(bytes) / 4096"), "largest payload across the apps:\n\(b.line(big))")
        // `a` shows the whole store (a Service column appears); `a` again back to this service.
        app.handle(.char("a"))
        assertScreen(app, "allDeliveries", width: 100, height: 24)
    }

    /// The rich iOS delivery from scratch: category `image`, mutable-content, a mediaUrl;
    /// the pane shows the core's exact payload; Ctrl-S writes the file the core reads back.
    func testComposeRichIOSDeliveryFromScratchAndSave() throws {
        let app = makeApp()
        app.handle(.char("D"))
        app.handle(.char("n"))
        assertScreen(app, "newDelivery", width: 200, height: 50)
        type(app, "rich-test")
        app.focus(field: "label")
        type(app, "Rich test")
        app.focus(field: "title")  // Service stays neotrips
        type(app, "Hello 夏")
        app.focus(field: "subtitle")
        type(app, "Sub")
        app.focus(field: "body")
        type(app, "Line one")
        app.handle(.enter)
        type(app, "Line two")  // Enter: a line break in the body
        app.focus(field: "ios.category")
        type(app, "image")
        app.focus(field: "mutableContent")
        app.handle(.char(" "))  // Mutable content
        app.show(tab: "variables")
        type(app, "https://cdn.example.com/a.jpg")  // mediaUrl is the first variable
        app.show(tab: "ios")  // the iOS tab shows an iOS app again
        let b = app.render(width: 200, height: 50)
        let d = composer(app)!.s.draft
        XCTAssertEqual(d.ios.category, "image")
        XCTAssertEqual(d.ios.mutableContent, true)
        XCTAssertEqual(d.content.body, "Line one\nLine two")
        XCTAssertEqual(d.value(ofVariable: "mediaUrl"), "https://cdn.example.com/a.jpg")
        // The APNs payload of these fields, written out here, not asked of the engine under test.
        assertShowsPayload(
            """
            {
              "aps": {
                "alert": {
                  "title": "Hello 夏",
                  "subtitle": "Sub",
                  "body": "Line one\\nLine two"
                },
                "category": "image",
                "mutable-content": 1
              },
              "mediaUrl": "https://cdn.example.com/a.jpg",
              "_mId": "00000000-0000-0000-0000-000000000000",
              "_dId": "00000000"
            }
            """, in: b)
        XCTAssertNotNil(b.row(containing: "230 / 4096 bytes"), b.text)
        XCTAssertNotNil(b.row(containing: "[image]"), "the device view marks the rich notification:\n\(b.text)")
        assertScreen(b, "richDeliveryEdited")  // the dirty marker, the payload, the device view
        app.press(.save)
        assertScreen(app, "richDeliverySaved", width: 200, height: 50)
        XCTAssertEqual(try store.load(Delivery.self, "rich-test"), d)
    }

    func testBodyPastTheLimitTurnsTheMeterToErrorAndEnterJumpsToTheBody() throws {
        let app = makeApp()
        open("summer-sale", app)
        app.focus(field: "content.body")
        app.handle(.paste(String(repeating: "é", count: 1900)))  // 3800 more bytes
        var b = app.render(width: 200, height: 50)
        let meter = try XCTUnwrap(b.row(containing: "over by"), b.text)
        let col = try XCTUnwrap(b.column(of: "4", inRow: meter))
        XCTAssertEqual(b.role(x: col, y: meter), .meterOver)
        XCTAssertNotNil(b.row(containing: "size.limit"), b.text)
        // Into the findings, pick size.limit, Enter: back in the form, on the body.
        app.focus(field: "profile")
        app.handle(.ctrl("v"))
        let findings = PreviewPane.findings(composer(app)!.preview(app.context)!)
        for _ in 0..<findings.firstIndex(where: { $0.finding.rule == "size.limit" })! { app.handle(.down) }
        app.handle(.enter)
        XCTAssertEqual(composer(app)!.focusArea, .form)
        XCTAssertEqual(composer(app)!.form.focused?.id, "body")
        // Under the limit again (near it): the meter's near colour.
        app.press(.undo)
        b = app.render(width: 200, height: 50)
        XCTAssertNil(b.row(containing: "over by"), b.text)
        XCTAssertEqual(PreviewPane.meter(bytes: 3700, limit: 4096).role, .meterNear)
        XCTAssertEqual(PreviewPane.meter(bytes: 3600, limit: 4096).role, .meterOK)
        XCTAssertEqual(PreviewPane.meter(bytes: 4096, limit: 4096).role, .meterNear, "exactly 4096 passes")
    }

    func testSilentGreysOutAlertFieldsAndTheAlertKeysVanish() throws {
        let app = makeApp()
        open("summer-sale", app)
        app.show(tab: "ios")  // on Type
        app.handle(.char(" "))  // alert → silent
        let b = app.render(width: 200, height: 50)
        let p = composer(app)!.preview(app.context)!
        XCTAssertNil(p.targets[0].payload["aps"]?["alert"])
        XCTAssertNil(b.row(containing: "\"alert\": {"), b.text)
        XCTAssertNotNil(b.row(containing: "\"content-available\": 1"), b.text)
        XCTAssertNotNil(b.row(containing: "silent.content"), "text remains: silent.content\n\(b.text)")
        let sound = try XCTUnwrap(b.row(containing: "Sound"))
        XCTAssertEqual(b.role(x: 1, y: sound), .formDisabled, "greyed out")
        assertScreen(b, "silentIOSGreysOutTheSound")
        XCTAssertEqual(b.role(x: 1, y: b.row(containing: "Priority")!), .formLabel, "priority is still sent")
        XCTAssertNotNil(b.row(containing: "Nothing is shown: a silent notification"), "device view:\n\(b.text)")
        XCTAssertEqual(composer(app)!.s.draft.ios.type, .silent)
        // The selector offers every type of the table, in order, then wraps.
        for type in PushType.all.dropFirst(2) {
            app.handle(.char(" "))
            XCTAssertEqual(composer(app)!.s.draft.ios.type, type)
        }
        app.handle(.char(" "))  // back to alert: the file said alert
        XCTAssertEqual(composer(app)!.s.draft.ios.type, .alert)
        XCTAssertFalse(composer(app)!.s.isDirty)
    }

    func testFindingsViewOpensTheComposerAtTheField() throws {
        var d = DemoStore.summerSale
        d.ios.sound = "bell.caf"
        try store.save(d)
        let app = makeApp()
        app.handle(.ctrl("f"))
        app.handle(.char("/"))
        type(app, "sound.unknown")
        app.handle(.enter)
        app.handle(.enter)
        let c = try XCTUnwrap(composer(app), "Enter opened the composer")
        XCTAssertEqual(c.tab, .ios)
        XCTAssertEqual(c.form.focused?.id, "sound")
        let b = app.render(width: 120, height: 40)
        let row = try XCTUnwrap(b.row(containing: "Sound"))
        XCTAssertEqual(b.role(x: 1, y: row), .formFieldFocus, b.text)
        assertScreen(b, "findingUnderTheSoundField")
        // The sound is a choice of the app's sounds plus default.
        app.handle(.enter)
        let sounds = app.render(width: 120, height: 40)
        for s in ["(not set)", "default", "chime.caf", "horn.caf", "bell.caf"] {
            XCTAssertNotNil(sounds.row(containing: " " + s), sounds.text)
        }
        app.handle(.up)
        app.handle(.enter)  // bell → horn
        XCTAssertEqual(composer(app)!.s.draft.ios.sound, "horn.caf")
        XCTAssertFalse(
            PreviewPane.findings(composer(app)!.preview(app.context)!).contains { $0.finding.rule == "sound.unknown" })
    }

    func testUnsavedChangesAskOnBackAndUndoRestores() throws {
        let app = makeApp()
        open("summer-sale", app)
        app.focus(field: "content.title")
        type(app, "!")
        app.handle(.escape)
        let b = app.render(width: 80, height: 24)
        XCTAssertNotNil(b.row(containing: "Save the changes to 'summer-sale'?"), b.text)
        app.handle(.char("c"))
        XCTAssertNotNil(composer(app))
        app.press(.undo)
        assertScreen(app, "undoneNotDirty", width: 80, height: 24)
        app.handle(.escape)
        XCTAssertTrue(app.stack.last is DeliveriesListScreen, "nothing to ask: back to the list")
        // Quit with a dirty composer asks, Discard writes nothing.
        open("summer-sale", app)
        app.focus(field: "content.title")
        type(app, "?")
        app.handle(.ctrl("q"))
        app.handle(.char("d"))
        XCTAssertTrue(app.quitRequested)
        XCTAssertEqual(try store.load(Delivery.self, "summer-sale"), DemoStore.summerSale)
    }

    func testHelpHintIsHonestInTextFields() {
        let app = makeApp()
        assertScreen(app, "views/servicesList", width: 80, height: 24)
        app.handle(.enter)  // service editor, Name has focus
        assertScreen(app, "views/serviceEditor", width: 80, height: 24)
        app.handle(.char("?"))
        XCTAssertFalse(app.helpVisible, "? types a character in a text field")
        app.handle(.f(1))
        XCTAssertTrue(app.helpVisible)
    }

    func testCopyOutWritesACurlFileAndQueuesStdout() throws {
        let dir = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let app = makeApp()
        open("summer-sale", app)
        app.handle(.ctrl("y"))
        app.handle(.down)
        app.handle(.enter)  // curl → a file
        var b = app.render(width: 100, height: 30)
        XCTAssertNotNil(b.row(containing: "summer-sale-neotrips-ios-dev.sh"), "a default file name:\n\(b.text)")
        app.handle(.ctrl("u"))
        type(app, dir.appendingPathComponent("send.sh").path)
        app.handle(.enter)
        let script = try String(contentsOf: dir.appendingPathComponent("send.sh"), encoding: .utf8)
        XCTAssertTrue(script.hasPrefix("#!/bin/sh\ncurl -v --http2"), script)
        XCTAssertTrue(script.contains("https://api.sandbox.push.apple.com/3/device/<DEVICE_TOKEN>"), script)
        XCTAssertTrue(script.contains("authorization: bearer <PROVIDER_TOKEN>"), script)
        b = app.render(width: 100, height: 30)
        XCTAssertTrue(b.line(29).contains("Wrote "), b.line(29))
        // The payload of the Android app to stdout on exit: the exact compact JSON.
        app.handle(.ctrl("v"))
        app.handle(.right)
        app.handle(.right)
        app.handle(.ctrl("y"))
        app.handle(.down)
        app.handle(.down)
        app.handle(.enter)
        let android = PreviewEngine.preview(
            delivery: DemoStore.summerSale, service: DemoStore.neotrips, profile: nil,
            appKey: "neotrips-android", token: nil, now: Date()
        ).targets[0]
        XCTAssertEqual(app.exitOutput, [android.payload.compact + "\n"])
    }

    func testDuplicateAndDeleteFromTheList() throws {
        let app = makeApp()
        app.handle(.char("D"))
        app.handle(.char("j"))
        app.handle(.char("c"))  // duplicate summer-sale
        XCTAssertEqual(composer(app)?.s.draft.name, "summer-sale-copy")
        XCTAssertNil(composer(app)?.s.draft.tracking)
        app.press(.save)
        app.handle(.escape)
        XCTAssertEqual(try store.names(Delivery.self), ["catalog-refresh", "summer-sale", "summer-sale-copy"])
        let list = app.stack.last as! DeliveriesListScreen
        list.table.select(row: list.shown.firstIndex { $0.name == "summer-sale-copy" }!)
        app.handle(.char("d"))
        XCTAssertNotNil(app.render(width: 80, height: 24).row(containing: "Delete 'summer-sale-copy'"))
        app.handle(.char("y"))
        XCTAssertEqual(try store.names(Delivery.self), ["catalog-refresh", "summer-sale"])
    }

    func testNarrowLayoutPutsThePreviewBelowAndTogglesTheDeviceView() throws {
        let app = makeApp()
        open("summer-sale", app)
        var b = app.render(width: 80, height: 24)
        let formTop = try XCTUnwrap(b.row(containing: "Content (Ctrl-O"))
        let paneTop = try XCTUnwrap(b.row(containing: "Preview (the payload engine"))
        XCTAssertGreaterThan(paneTop, formTop, "below the form under 120 columns:\n\(b.text)")
        app.handle(.ctrl("v"))
        app.handle(.char("v"))
        b = app.render(width: 80, height: 24)
        XCTAssertNotNil(b.row(containing: "[image]"), b.text)
        let title = try XCTUnwrap((paneTop..<24).first { b.line($0).contains("│ Summer is here") }, b.text)
        XCTAssertEqual(b.role(x: b.column(of: "Summer", inRow: title)!, y: title), .deviceTitle, "bold title")
        // Android's notification: small icon name, app, channel; the big picture.
        app.handle(.right)
        app.handle(.right)
        b = app.render(width: 80, height: 24)
        XCTAssertNotNil(b.row(containing: "(ic_offer) Neotrips · offers"), b.text)
        XCTAssertNotNil(b.row(containing: "[big picture] summer.jpg"), b.text)
        // 200 columns: side by side.
        b = app.render(width: 200, height: 50)
        XCTAssertEqual(
            b.row(containing: "Content (Ctrl-O"), b.row(containing: "Preview (the payload engine").map { $0 + 1 },
            b.text)
    }

    /// "Preview as" personalizes the preview from a sample profile; it is not saved.
    func testPreviewAsAProfilePersonalizesWithoutDirtying() throws {
        let app = makeApp()
        open("summer-sale", app)
        app.focus(field: "content.profile")
        XCTAssertEqual(composer(app)!.form.focused?.id, "profile")
        app.handle(.char(" "))  // (none) → ana
        let b = app.render(width: 200, height: 50)
        XCTAssertNotNil(b.row(containing: #""body": "Hi Ana, 20% off until Sunday.""#), b.text)
        XCTAssertFalse(composer(app)!.s.isDirty, "the profile is a preview setting, not part of the delivery")
        assertScreen(b, "previewAsAna")
    }

    /// With --mouse: clicks switch the form's tabs, focus fields and pick preview apps.
    func testClicksSwitchTabsFieldsAndApps() throws {
        let app = makeApp()
        app.resize(width: 200, height: 50)  // clicks land where the last frame of this size drew
        open("summer-sale", app)
        var b = app.render(width: 200, height: 50)
        app.handle(.click(x: try XCTUnwrap(b.column(of: "Android", inRow: 1)) + 1, y: 1))
        XCTAssertEqual(composer(app)!.tab, .android)
        b = app.render(width: 200, height: 50)
        let ttl = try XCTUnwrap(b.row(containing: "TTL (seconds)"))
        app.handle(.click(x: 20, y: ttl))
        XCTAssertEqual(composer(app)!.form.focused?.id, "ttl")
        b = app.render(width: 200, height: 50)
        app.handle(.click(x: try XCTUnwrap(b.column(of: "Neotrips iOS APNs", inRow: 2)) + 2, y: 2))
        XCTAssertEqual(composer(app)!.pane.target, 1)
        XCTAssertEqual(composer(app)!.focusArea, .preview)
    }

    /// The Android tab shows an Android app's request; the iOS tab an iOS app's.
    func testPlatformTabsShowThatPlatformsPreview() {
        let app = makeApp()
        open("summer-sale", app)
        app.show(tab: "android")
        var b = app.render(width: 120, height: 40)
        XCTAssertNotNil(b.row(containing: "POST https://fcm.googleapis.com/v1/projects/"), b.text)
        XCTAssertNotNil(
            b.row(containing: "Neot…box) APNs   Neot… iOS APNs   Neot…droid FCM v1"),
            "every tab fits, its label shortened:\n\(b.text)")
        app.show(tab: "ios")
        b = app.render(width: 120, height: 40)
        XCTAssertNotNil(b.row(containing: "POST https://api.sandbox.push.apple.com"), b.text)
    }

    func testIOSBannerCutsTheBodyToFourLines() {
        var d = DemoStore.summerSale
        d.content.body = (1...9).map { "line \($0)" }.joined(separator: "\n")
        let t = PreviewEngine.preview(
            delivery: d, service: DemoStore.neotrips, profile: nil, appKey: "neotrips-ios", token: nil, now: Date()
        ).targets[0]
        var b = CellBuffer(width: 60, height: 14)
        DeviceView.render(into: &b, b.bounds, target: t, appName: "Neotrips")
        XCTAssertNotNil(b.row(containing: "line 3"))
        XCTAssertNotNil(b.row(containing: "line 4 …"), b.text)
        XCTAssertNil(b.row(containing: "line 5"), b.text)
    }

    /// Typing in the composer previews the open delivery only: the store-wide rules are not
    /// re-run per keystroke (they run when a view opens or closes, and on save).
    func testTypingDoesNotRevalidateTheStore() {
        let fake = FakeConsoleStore(
            services: [DemoStore.neotrips], deliveries: [DemoStore.summerSale, DemoStore.catalogRefresh],
            profiles: [DemoStore.ana])
        let app = ConsoleApp(store: fake)
        open("summer-sale", app)
        app.focus(field: "content.body")
        _ = app.render(width: 200, height: 50)
        let before = fake.checks
        for c in "a longer body" {
            app.handle(.char(c))
            _ = app.render(width: 200, height: 50)
        }
        XCTAssertEqual(fake.checks, before, "no store-wide check while typing")
        XCTAssertTrue(
            composer(app)!.preview(app.context)!.targets[0].payload["aps"]!["alert"]!["body"]!
                == .string(DemoStore.summerSale.content.body + "a longer body"),
            "the preview follows every key")
        app.handle(.escape)
        app.handle(.char("d"))
        XCTAssertGreaterThan(fake.checks, before, "closing the composer re-checks the store")
    }

    func testJSONLinesAreThePrettyTextWithRoles() {
        let p = DemoStore.summerSale
        let payload = PreviewEngine.preview(
            delivery: p, service: DemoStore.neotrips, profile: nil, appKey: "neotrips-android", token: nil, now: Date()
        ).targets[0].payload
        let lines = JSONLines.lines(payload)
        XCTAssertEqual(lines.map { $0.map(\.text).joined() }.joined(separator: "\n"), payload.pretty)
        let token = lines.first { $0.map(\.text).joined().contains("\"token\"") }!
        XCTAssertEqual(token.first { $0.text == "\"token\"" }?.role, .jsonKey)
        XCTAssertEqual(token.first { $0.text == "\"DEVICE_TOKEN\"" }?.role, .jsonString)
    }

    /// Strings from files reach the pane through the one escape rule (`Escape.json`, as
    /// `preview --json` prints them): C1, DEL, bidi controls and invisibles as `\u` escapes,
    /// emoji sequences and plain text as written.
    func testJSONLinesEscapeLikeThePrintedPreview() {
        let hostile = "a\u{9B}2J\u{7F}\u{202E}txt\u{200B}\u{FEFF}\u{E0041}\u{2028}é 東京 👩‍👩‍👧"
        let payload = JSONValue.object([("k\u{85}" + hostile, .array([.string(hostile), .number("1")]))])
        let lines = JSONLines.lines(payload)
        XCTAssertEqual(
            lines.map { $0.map(\.text).joined() },
            [
                "{",
                "  \"k\\u0085a\\u009B2J\\u007F\\u202Etxt\\u200B\\uFEFF\\uDB40\\uDC41\\u2028é 東京 👩‍👩‍👧\": [",
                "    \"a\\u009B2J\\u007F\\u202Etxt\\u200B\\uFEFF\\uDB40\\uDC41\\u2028é 東京 👩‍👩‍👧\",",
                "    1",
                "  ]",
                "}",
            ])
        XCTAssertEqual(lines.map { $0.map(\.text).joined() }.joined(separator: "\n"), payload.pretty)
    }
}
