import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The console driven key by key on a real store (the demo store written by the core),
/// asserting on rendered buffers at fixed sizes; no terminal involved.
final class ConsoleScreenTests: XCTestCase {
    var root: URL!
    var store: Store!

    override func setUp() async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pd-screens-\(UUID().uuidString)")
        try DemoStore.write(to: root)
        store = Store(root: root)
    }
    override func tearDown() async throws { try? FileManager.default.removeItem(at: root) }

    func makeApp() -> ConsoleApp { ConsoleApp(store: .open(store)) }

    func type(_ app: ConsoleApp, _ text: String) { for c in text { app.handle(.char(c)) } }

    func testServicesListAtBothSizes() throws {
        do {
            let app = makeApp()
            for (w, h) in [(80, 24), (200, 50)] {
                let b = app.render(width: w, height: h)
                // The title, the row of the demo service, the status bar's hints at the bottom.
                assertScreen(b, "servicesList", roles: true)
                let row = b.row(containing: "neotrips")
                XCTAssertNotNil(row, b.text)
                XCTAssertEqual(b.role(x: 0, y: row!), .listSelected)
            }
        }
    }

    /// Below the minimum, the message (size, need, way out) wraps over the rows there are
    /// and nothing else is drawn; an open dialog is named with its answers.
    func testTooSmallSaysSoAndHowToGetOut() throws {
        do {
            let app = makeApp()
            var b = app.render(width: 40, height: 10)
            XCTAssertEqual(
                (0..<10).map { b.line($0).trimmingTrailingSpaces() }.filter { !$0.isEmpty },
                ["Terminal too small: 40x10, need 60x16.", "Enlarge it or press Ctrl-Q."], b.text)
            b = app.render(width: 20, height: 5)
            XCTAssertEqual(
                (0..<5).map { b.line($0).trimmingTrailingSpaces() },
                ["Terminal too small:", "20x5, need 60x16.", "Enlarge it or press", "Ctrl-Q.", ""], b.text)
            app.handle(.enter)  // open the service: keys work while small
            app.focus(field: "label")
            app.handle(.char("!"))
            app.handle(.ctrl("q"))
            b = app.render(width: 20, height: 5)
            XCTAssertEqual(
                (0..<5).map { b.line($0).trimmingTrailingSpaces() },
                ["Too small: 20x5.", "Unsaved changes:", "Save / Discard /", "Cancel", ""], b.text)
        }
    }

    func testEditingShowsDirtyMarkerLiveRulesAndUndo() throws {
        do {
            let app = makeApp()
            app.handle(.enter)  // edit neotrips
            assertScreen(app, "views/serviceEditor", width: 80, height: 24)
            app.focus(field: "label")
            for _ in 0..<20 { app.handle(.backspace) }
            // The dirty marker; the core rule (field.required on label) under the field, live.
            assertScreen(app, "editorLabelCleared", width: 80, height: 24)
            XCTAssertTrue(app.findings.contains { $0.rule == "field.required" && $0.field == "label" })
            // Undo (Ctrl-Z) restores the whole typing run of that field.
            app.press(.undo)
            assertScreen(app, "editorUndone", width: 80, height: 24)
            XCTAssertFalse(app.findings.contains { $0.rule == "field.required" })
        }
    }

    func testQuitWithUnsavedChangesAsksAndCancelKeepsEditing() throws {
        do {
            let app = makeApp()
            app.handle(.enter)
            app.focus(field: "label")
            type(app, "!")
            app.handle(.ctrl("q"))
            let b = app.render(width: 80, height: 24)
            XCTAssertNotNil(b.row(containing: "Save the changes to 'neotrips'?"), b.text)
            XCTAssertNotNil(b.row(containing: "[ Save ] [ Discard ] [ Cancel ]"))
            app.handle(.char("c"))
            XCTAssertFalse(app.quitRequested)
            app.handle(.ctrl("q"))
            app.handle(.char("d"))
            XCTAssertTrue(app.quitRequested)
            XCTAssertEqual(try store.load(Service.self, "neotrips").label, "Neotrips", "discard wrote nothing")
        }
    }

    func testCreateServiceWithAppsVariablesAndSoundThenSave() throws {
        do {
            let app = makeApp()
            app.handle(.char("n"))
            type(app, "acme")
            app.focus(field: "label")
            type(app, "Acme 中文")
            app.focus(field: "marketingUrl")
            type(app, "https://m.acme.example/")
            app.focus(field: "trackingUrl")
            type(app, "https://t.acme.example/")
            app.focus(field: "apps")
            app.handle(.char("i"))
            app.handle(.char("a"))
            let b = app.render(width: 80, height: 24)
            XCTAssertNotNil(b.row(containing: "acme-ios-dev"), b.text)
            XCTAssertNotNil(b.row(containing: "acme-android"))
            // Edit the sandbox app: bundle id, then a variable and a sound.
            app.handle(.char("g"))
            app.handle(.enter)
            app.focus(field: "bundleId")
            type(app, "com.acme.app")
            app.focus(field: "variables.table")
            app.handle(.char("n"))
            type(app, "mediaUrl")
            app.focus(field: "label")
            type(app, "Media URL")
            app.handle(.escape)
            app.focus(field: "sounds.table")
            app.handle(.char("n"))
            type(app, "chime.caf")
            app.focus(field: "label")
            type(app, "Chime")
            app.handle(.escape)
            assertScreen(app, "views/acmeSoundsTab", width: 80, height: 24)
            app.press(.save)
            assertScreen(app, "views/acmeSaved", width: 80, height: 24)
            let saved = try store.load(Service.self, "acme")
            XCTAssertEqual(saved.label, "Acme 中文")
            XCTAssertEqual(saved.apps.count, 3)
            guard case .ios(let sandbox) = saved.apps[0] else { return XCTFail("first app is iOS") }
            XCTAssertEqual(sandbox.environment, .sandbox)
            XCTAssertEqual(sandbox.bundleId, "com.acme.app")
            XCTAssertEqual(sandbox.variables, [AppVariable(name: "mediaUrl", label: "Media URL")])
            XCTAssertEqual(sandbox.sounds, [Sound(name: "chime.caf", label: "Chime")])
        }
    }

    func testFindingsViewJumpsToTheField() throws {
        do {
            // Break the demo: the production iOS app shares the sandbox key (integration-key.duplicate).
            var s = try store.load(Service.self, "neotrips")
            s.apps[1].integrationKey = s.apps[0].integrationKey
            try store.save(s)
            let app = makeApp()
            app.handle(.ctrl("f"))
            var b = app.render(width: 120, height: 30)
            XCTAssertNotNil(b.row(containing: "integration-key.duplicate"), b.text)
            // Filter down to the finding, then Enter jumps to the field.
            app.handle(.char("/"))
            type(app, "duplicate")
            app.handle(.enter)
            b = app.render(width: 120, height: 30)
            let row = b.row(containing: "integration-key.duplicate")!  // first row of the table, not the detail pane
            XCTAssertEqual(b.role(x: 2, y: row), .listSelected, b.text)
            XCTAssertNotNil(
                b.row(containing: "services/neotrips.xml:"), "the detail pane shows the finding in full:\n\(b.text)")
            app.handle(.enter)
            b = app.render(width: 120, height: 30)
            assertScreen(b, "findingOpensTheAppEditor")
            XCTAssertNotNil(b.cursor, "a text field has focus")
            XCTAssertEqual(b.cursor?.y, b.row(containing: "Integration key"), b.text)
        }
    }

    func testControlCharactersInStoreDataAreShownEscaped() throws {
        do {
            var s = try store.load(Service.self, "neotrips")
            // XML can hold a tab, C1 controls and bidi overrides; none may reach the terminal raw.
            s.label = "Neo\ttrips\u{85}\u{202E}gpj"
            try store.save(s)
            let b = makeApp().render(width: 80, height: 24)
            XCTAssertNotNil(b.row(containing: "Neo^Itrips\\u{85}\\u{202E}gpj"), b.text)
        }
    }

    func testDeleteAsksFirst() throws {
        do {
            let app = makeApp()
            app.handle(.char("d"))
            XCTAssertNotNil(app.render(width: 80, height: 24).row(containing: "Delete 'neotrips'"))
            app.handle(.escape)
            XCTAssertEqual(try store.names(Service.self), ["neotrips"])
            app.handle(.char("d"))
            app.handle(.char("y"))
            XCTAssertEqual(try store.names(Service.self), [])
        }
    }

    func testThemeSwitcherListsThemesAndAsksTheTerminalToApply() {
        let app = ConsoleApp(
            store: .open(store), themeName: "default",
            availableThemes: ["default", "high-contrast", "light", "monochrome"])
        app.handle(.ctrl("t"))
        var b = app.render(width: 80, height: 24)
        XCTAssertNotNil(b.row(containing: "high-contrast"), b.text)
        app.handle(.down)
        app.handle(.down)
        app.handle(.enter)
        XCTAssertEqual(app.pendingTheme, "light")
        b = app.render(width: 80, height: 24)
        XCTAssertTrue(b.line(0).hasSuffix("light "), b.line(0))
    }

    func testAppsTableUndoWithUAndReorder() {
        let app = makeApp()
        app.handle(.enter)
        app.focus(field: "apps")
        app.handle(.char("a"))
        // A second Android app gets its own key (the fourth row).
        assertScreen(app, "appAdded", width: 80, height: 24)
        app.handle(.char("K"))  // move the new app up
        assertScreen(app, "appMovedUp", width: 80, height: 24)
        app.handle(.char("u"))
        app.handle(.char("u"))
        assertScreen(app, "twoUndosBackToTheSavedService", width: 80, height: 24)
    }

    func testDuplicateGivesOwnKeysAndGenerateMakesAUUID() throws {
        let app = makeApp()
        app.handle(.char("c"))
        var b = app.render(width: 80, height: 24)
        XCTAssertNotNil(b.row(containing: "neotrips-copy"), b.text)
        XCTAssertNotNil(b.row(containing: "neotrips-ios-dev-copy"))
        app.focus(field: "apps")
        app.handle(.enter)  // first app
        app.handle(.ctrl("g"))
        b = app.render(width: 80, height: 24)
        let key = b.line(b.row(containing: "Integration key")!)
        XCTAssertNotNil(
            key.range(of: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", options: .regularExpression),
            key)
        app.press(.save)
        XCTAssertEqual(try store.names(Service.self), ["neotrips", "neotrips-copy"])
        XCTAssertFalse(
            app.findings.contains { $0.rule == "integration-key.duplicate" }, "\(app.findings.map(\.formatted))")
    }

    func testPathFieldOpensAFileDialogWithCompletion() throws {
        let creds = root.appendingPathComponent("credentials")
        try FileManager.default.createDirectory(at: creds, withIntermediateDirectories: true)
        for f in ["neotrips-firebase.json", "neotrips-prod.p12"] {
            _ = FileManager.default.createFile(atPath: creds.appendingPathComponent(f).path, contents: Data())
        }
        let app = makeApp()
        app.handle(.enter)
        app.focus(field: "apps")
        app.handle(.enter)  // sandbox app
        app.focus(field: "credentials.keyFile")
        app.handle(.enter)
        var b = app.render(width: 80, height: 24)
        XCTAssertNotNil(b.row(containing: "Path, relative to the store"), b.text)
        for _ in 0..<40 { app.handle(.backspace) }
        type(app, "cred")
        app.handle(.tab)  // in the file-path dialog, Tab completes the name
        b = app.render(width: 80, height: 24)
        XCTAssertNotNil(b.row(containing: "credentials/"), b.text)
        type(app, "neotrips-f")
        app.handle(.tab)  // completes again
        app.handle(.enter)
        b = app.render(width: 80, height: 24)
        XCTAssertNotNil(b.row(containing: "credentials/neotrips-firebase.json"), b.text)
    }

    func testHelpOverlayScrollsWhenLongerThanTheScreen() {
        let app = makeApp()
        app.handle(.char("?"))
        var b = app.render(width: 80, height: 24)
        XCTAssertNotNil(b.row(containing: "Keys (↑↓ scroll, Esc closes)"), b.text)
        XCTAssertNil(b.row(containing: "Choose a colour theme"), "below the fold at 80x24")
        for _ in 0..<10 { app.handle(.down) }
        b = app.render(width: 80, height: 24)
        XCTAssertNotNil(b.row(containing: "Choose a colour theme"), b.text)
        XCTAssertNotNil(b.row(containing: " end "))
        app.handle(.escape)
        XCTAssertNil(app.render(width: 80, height: 24).row(containing: "Keys ("))
    }

    func testUnreadableFileIsListedWithItsPosition() throws {
        try "<service format=\"1\" name=\"bad\"".write(
            to: root.appendingPathComponent("services/bad.xml"), atomically: true, encoding: .utf8)
        let app = makeApp()
        var b = app.render(width: 100, height: 24)
        XCTAssertNotNil(b.row(containing: "services/bad.xml:"), "the load error is shown above the list:\n\(b.text)")
        XCTAssertNotNil(b.row(containing: "neotrips"), "the other services still load")
        app.handle(.ctrl("f"))
        b = app.render(width: 100, height: 24)
        XCTAssertNotNil(b.row(containing: "file.malformed"), b.text)
    }

    /// The .p12 password is typed masked, stored 0600 in secrets/, never shown or written to services/.
    func testCertificatePasswordIsMaskedAndStoredAsASecret() throws {
        let app = makeApp()
        app.handle(.enter)
        app.focus(field: "apps")
        app.handle(.down)
        app.handle(.enter)  // production app: certificate auth
        app.focus(field: "credentials.mode")
        var b = app.render(width: 100, height: 30)
        XCTAssertNotNil(b.row(containing: "(not set)"), b.text)
        app.focus(field: "password")
        app.handle(.enter)
        type(app, "hunter2-p12")
        b = app.render(width: 100, height: 30)
        XCTAssertNil(b.row(containing: "hunter2"), "typed secret never on screen:\n\(b.text)")
        XCTAssertNotNil(b.row(containing: "•••••••••••"), b.text)
        app.handle(.enter)
        b = app.render(width: 100, height: 30)
        XCTAssertNotNil(b.row(containing: "Stored the secret 'neotrips-prod-p12'"), b.text)
        XCTAssertNotNil(b.row(containing: "stored in secrets/"), b.text)
        let file = root.appendingPathComponent("secrets/neotrips-prod-p12")
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "hunter2-p12")
        let mode = (try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?
            .intValue
        XCTAssertEqual(mode, 0o600)
        app.press(.save)
        XCTAssertFalse(
            try String(contentsOf: root.appendingPathComponent("services/neotrips.xml"), encoding: .utf8).contains(
                "hunter2"))
    }

    func testRenamingSavesTheNewFileAndRemovesTheOld() throws {
        let app = makeApp()
        app.handle(.enter)
        app.handle(.end)
        type(app, "-eu")
        app.press(.save)
        XCTAssertEqual(try store.names(Service.self), ["neotrips-eu"])
        assertScreen(app, "renamedAndSaved", width: 80, height: 24)
        app.handle(.escape)
        XCTAssertNotNil(app.render(width: 80, height: 24).row(containing: "neotrips-eu"))
    }

    func testInvalidNameCannotBeSavedAndSaysWhy() throws {
        let app = makeApp()
        app.handle(.char("n"))
        type(app, "bad name")
        app.press(.save)
        let b = app.render(width: 80, height: 24)
        XCTAssertNotNil(b.row(containing: "Cannot save"), b.text)
        XCTAssertEqual(try store.names(Service.self), ["neotrips"])
    }

    func testInvalidNumberIsShownUnderTheFieldAndBlocksSaving() throws {
        let app = makeApp()
        app.handle(.enter)
        app.focus(field: "apps")
        app.handle(.down)
        app.handle(.down)
        app.handle(.enter)  // Android app
        app.focus(field: "maxConnectPerChild")
        type(app, "x")
        var b = app.render(width: 100, height: 30)
        XCTAssertNotNil(b.row(containing: "8x"), b.text)
        XCTAssertNotNil(b.row(containing: "↳ must be a whole number above 0"), b.text)
        app.press(.save)
        b = app.render(width: 100, height: 30)
        XCTAssertNotNil(b.row(containing: "Not saved"), b.text)
        app.handle(.enter)
        app.handle(.backspace)
        app.handle(.backspace)
        type(app, "4")
        app.press(.save)
        guard case .android(let a) = try store.load(Service.self, "neotrips").apps[2] else { return XCTFail("android") }
        XCTAssertEqual(a.maxConnectPerChild, 4)
    }

    func testClicksSelectRowsFocusFieldsAndSwitchTabs() {
        let app = makeApp()
        var b = app.render(width: 80, height: 24)
        app.handle(.click(x: 5, y: b.row(containing: "neotrips")!))
        app.handle(.click(x: 5, y: b.row(containing: "neotrips")!))  // second click opens
        b = app.render(width: 80, height: 24)
        assertScreen(b, "views/serviceEditor")
        let tracking = b.row(containing: "Tracking URL")!
        app.handle(.click(x: 20, y: tracking))
        b = app.render(width: 80, height: 24)
        XCTAssertEqual(b.cursor?.y, tracking, "the clicked field has the cursor")
        let android = b.row(containing: "neotrips-android")!
        app.handle(.click(x: 5, y: android))
        app.handle(.click(x: 5, y: android))
        b = app.render(width: 80, height: 24)
        assertScreen(b, "clickedTheAndroidApp")
        let tabs = b.line(2)
        let col = TextWidth.width(of: String(tabs[..<tabs.range(of: "Variables")!.lowerBound]))
        app.handle(.click(x: col + 1, y: 2))
        b = app.render(width: 80, height: 24)
        XCTAssertNotNil(b.row(containing: "Variables (n add"), b.text)
        app.handle(.ignored)
        app.handle(.wheelDown)
        XCTAssertFalse(app.quitRequested)
    }
}
