import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The Test devices view (`t` on the services list), driven by action and field names on
/// the demo store: a profile created, a device added by pasting its token and picking its
/// app by label, saved and read back with the core's reader; the rules' findings by field;
/// unsaved edits asked about; a read-only console refusing; tokens shortened in lists.
final class TestDevicesScreenTests: WholeScreenTestCase {
    static let hex64 = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"

    /// The console at the Test devices view.
    func devicesView(width: Int = 80, height: Int = 24) -> ConsoleApp {
        let a = console(width: width, height: height)
        a.press(.testDevices)
        XCTAssertTrue(a.top is ProfilesListScreen)
        return a
    }

    /// Picks the option of the open choices dialog that contains `text`.
    func choose(_ a: ConsoleApp, containing text: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let d = a.dialog, case .choices(let options) = d.kind else {
            return XCTFail("no choices dialog", file: file, line: line)
        }
        guard let i = options.firstIndex(where: { $0.contains(text) }) else {
            return XCTFail("no option with \(text) in \(options)", file: file, line: line)
        }
        for _ in 0..<options.count where a.dialog?.choice != i { a.handle(.down) }
        a.handle(.enter)  // the dialog's: choose
        XCTAssertNil(a.dialog, file: file, line: line)
    }

    func testListShowsTheDemoProfileWithItsDevices() {
        let a = devicesView()
        assertScreen(a, "listShowsTheDemoProfileWithItsDevices")
    }

    func testAProfileFileThatDoesNotLoadIsNamedAboveTheList() throws {
        try Data("<recipient".utf8).write(to: root.appendingPathComponent("profiles/broken.xml"))
        let a = devicesView()
        XCTAssertTrue(lines(a)[1].hasPrefix(" profiles/broken.xml:1:"), lines(a)[1])
        XCTAssertTrue(lines(a)[4].hasPrefix("ana "), lines(a)[4])
    }

    func testCreateAProfileAddADeviceByPastingItsTokenPickTheAppByLabelAndSave() throws {
        let a = devicesView()
        a.press(.new)
        XCTAssertEqual(a.focusedField, "name")
        a.type("bob")
        a.focus(field: "field:firstName")
        a.type("Bob")
        a.focus(field: "devices")
        a.press(.new)
        XCTAssertEqual(a.dialog?.title, "Add a test device: which app?")
        // Each app by label, platform, environment and key: the operator never types a key.
        guard case .choices(let options) = a.dialog?.kind else { return XCTFail() }
        XCTAssertEqual(
            options,
            [
                "Neotrips iOS (sandbox) · iOS sandbox · neotrips-ios-dev",
                "Neotrips iOS · iOS production · neotrips-ios",
                "Neotrips Android · Android · neotrips-android",
            ])
        choose(a, containing: "Neotrips iOS (sandbox)")
        XCTAssertTrue(a.top is DeviceEditorScreen)
        XCTAssertEqual(a.focusedField, "token")
        // A token copied from a log: a line break and spaces around it.
        a.handle(.paste("  \n\(Self.hex64)\n "))
        a.focus(field: "label")
        a.type("Bob's iPhone")
        assertScreen(a, "createAProfileAddADeviceByPastingItsTokenPickTheAppByLabelAndSave")
        a.press(.save)
        XCTAssertNil(a.dialog, a.dialog?.message ?? "")
        XCTAssertEqual(a.message, "Saved profiles/bob.xml")
        // The file, read back with the core's reader.
        let data = try Data(contentsOf: root.appendingPathComponent("profiles/bob.xml"))
        let bob = try ProfileXML.decode(data, file: "profiles/bob.xml", name: "bob")
        XCTAssertEqual(
            bob.subscriptions, [Subscription(app: "neotrips-ios-dev", token: Self.hex64, label: "Bob's iPhone")])
        XCTAssertEqual(bob.value(of: "firstName"), "Bob")
        XCTAssertTrue(
            String(decoding: data, as: UTF8.self).contains(
                "<subscription app=\"neotrips-ios-dev\" token=\"\(Self.hex64)\" label=\"Bob's iPhone\"/>"))
        // Back in the list, the new profile with its one device.
        a.press(.back)
        a.press(.back)
        XCTAssertNil(a.dialog, "saved: nothing to ask")
        assertScreen(a, "createAProfileAddADeviceByPastingItsTokenPickTheAppByLabelAndSave-listed")
    }

    /// The Kind field (docs/FORMATS.md) cycles through every token kind; the table and the file
    /// show the one picked, and an Android device with an iOS kind gets `subscription.kind`.
    func testTheKindOfADeviceIsShownAndEditedByFieldName() throws {
        let a = devicesView()
        a.press(.open)
        a.press(.open)  // Ana's iPhone (sandbox app)
        a.focus(field: "kind")
        XCTAssertEqual((a.top as? DeviceEditorScreen)?.form["kind"], "device")
        for _ in 0..<3 { a.handle(.char(" ")) }  // device → pushToStart → activity → voip
        XCTAssertEqual((a.top as? DeviceEditorScreen)?.device?.kind, .voip)
        assertScreen(a, "theKindOfADeviceIsShownAndEditedByFieldName")
        a.press(.back)
        assertScreen(a, "theKindOfADeviceIsShownAndEditedByFieldName2")
        a.press(.down)
        a.press(.open)  // Ana's Pixel
        a.focus(field: "kind")
        a.handle(.char(" "))
        assertScreen(a, "theKindOfADeviceIsShownAndEditedByFieldName3")
        a.handle(.char(" "))
        for _ in 0..<(TokenKind.allCases.count - 2) { a.handle(.char(" ")) }  // round to device
        XCTAssertEqual((a.top as? DeviceEditorScreen)?.device?.kind, .device)
        a.press(.save)
        let text = try String(contentsOf: root.appendingPathComponent("profiles/ana.xml"), encoding: .utf8)
        XCTAssertTrue(text.contains(#"label="Ana's iPhone 15" kind="voip"/>"#), text)
        XCTAssertEqual(text.components(separatedBy: "kind=").count, 2, "a device token is written without kind")
    }

    /// iOS apps logged `NSData`'s description before iOS 13: `<a1b2c3d4 e5f60718 …>`. Pasted
    /// into an iOS device, the hexadecimal digits are kept; into an Android one, nothing changes.
    func testATokenPastedAsNSDataPrintsItKeepsItsDigitsForAnIOSApp() {
        let a = devicesView()
        a.press(.open)
        a.press(.open)  // Ana's iPhone (sandbox app)
        a.focus(field: "token")
        clearField(a)
        let described =
            "<"
            + stride(from: 0, to: 64, by: 8).map { i in
                String(Self.hex64.dropFirst(i).prefix(8))
            }.joined(separator: " ") + ">"
        a.handle(.paste(described + "\n"))
        XCTAssertEqual((a.top as? DeviceEditorScreen)?.device?.token, Self.hex64)
        XCTAssertEqual(lines(a)[10], " Pasted as NSData prints it (<… …>): kept the hexadecimal digits only.")
        a.press(.back)
        a.press(.down)
        a.press(.open)  // Ana's Pixel
        a.focus(field: "token")
        clearField(a)
        a.handle(.paste("<ab cd>"))
        XCTAssertEqual((a.top as? DeviceEditorScreen)?.device?.token, "<ab cd>")
        XCTAssertTrue(
            (a.top as? DeviceEditorScreen)?.form.fields[1].message?.contains("white space") ?? false,
            "the rule judges it")
    }

    func testABadTokenShowsItsRuleFindingUnderTheTokenField() {
        let a = devicesView()
        a.press(.open)
        a.focus(field: "devices")
        a.press(.open)
        a.focus(field: "token")
        clearField(a)
        a.type("12345")
        guard let e = a.top as? DeviceEditorScreen else { return XCTFail() }
        let token = e.form.fields.first { $0.id == "token" }
        XCTAssertEqual(token?.messageRole, .findingError)
        XCTAssertTrue(token?.message?.hasSuffix("[subscription.token-format]") ?? false, token?.message ?? "none")
        XCTAssertNil(e.form.fields.first { $0.id == "app" }?.message)
        let shown = lines(a)
        XCTAssertEqual(
            Array(shown[4...6]),
            [
                "│          ↳ error: the APNs device token \"12345\" (5 characters) is not an even│",
                "│            number of hexadecimal digits, at least 64; paste the token the app│",
                "│            logged from didRegisterForRemoteNotificationsWithDeviceToken …    │",
            ])
        // The profile's device table shows it too, back in the editor.
        a.press(.back)
        assertScreen(a, "aBadTokenShowsItsRuleFindingUnderTheTokenField")
    }

    func testAFindingOfASavedBadTokenJumpsToTheTokenField() throws {
        var ana = DemoStore.ana
        ana.subscriptions[1].token = "two words"
        try store.save(ana)
        let a = console()
        a.press(.findings)
        assertScreen(a, "aFindingOfASavedBadTokenJumpsToTheTokenField")
        a.press(.open)
        XCTAssertEqual(
            a.stack.map(\.title), ["Services", "Test devices › ana", "Test devices › ana › Ana's Pixel 8"])
        XCTAssertEqual(a.focusedField, "token")
        a.press(.back)
        XCTAssertEqual(a.focusedField, "devices")
        assertScreen(a, "aFindingOfASavedBadTokenJumpsToTheTokenField2")
    }

    func testAddARecipientFieldForPersonalization() throws {
        let a = devicesView()
        a.press(.open)
        a.focus(field: "field:email")
        a.press(.addField)
        XCTAssertEqual(a.dialog?.title, "Add a field")
        a.type("2nd")
        a.handle(.enter)  // the dialog's OK
        XCTAssertEqual(a.message, "\"2nd\" cannot be a field name: letters, digits, _, - and . (a letter or _ first).")
        a.press(.addField)
        a.type("loyaltyId")
        a.handle(.enter)
        XCTAssertEqual(a.focusedField, "field:loyaltyId")
        a.type("L-42")
        a.press(.save)
        let ana = try store.loadRecord(Profile.self, "ana").0
        XCTAssertEqual(ana.fields.map(\.name), ["firstName", "lastName", "email", "loyaltyId"])
        XCTAssertEqual(ana.value(of: "loyaltyId"), "L-42")
        XCTAssertEqual(ana.subscriptions, DemoStore.ana.subscriptions)
    }

    func testEscOnADirtyProfileAsksAndCancelKeepsTheEdits() {
        let a = devicesView()
        a.press(.open)
        a.focus(field: "devices")
        a.press(.open)
        a.focus(field: "label")
        a.type(" Pro")
        // The device editor shares the profile's draft: Esc goes back to the profile without asking.
        a.press(.back)
        XCTAssertNil(a.dialog)
        XCTAssertTrue(a.top is ProfileEditorScreen)
        a.press(.back)
        XCTAssertEqual(a.dialog?.title, "Unsaved changes")
        XCTAssertEqual(a.dialog?.message, "Save the changes to 'ana'?")
        a.handle(.escape)
        XCTAssertTrue(a.top is ProfileEditorScreen, "Cancel keeps the editor")
        assertScreen(a, "escOnADirtyProfileAsksAndCancelKeepsTheEdits")
        a.press(.back)
        a.handle(.char("D"))  // Discard
        XCTAssertTrue(a.top is ProfilesListScreen)
        XCTAssertEqual(try? store.loadRecord(Profile.self, "ana").0.subscriptions.first?.label, "Ana's iPhone 15")
    }

    func testReadOnlyConsoleRefusesNewDeleteAndEditsWithTheRegistrysReason() throws {
        let holder = LockHolder(
            user: "alice", host: ProcessIdentity.host, pid: getpid(), program: "console", since: Date())
        guard case .acquired(let lock, _) = try StoreLock.acquire(storeRoot: root, holder: holder) else {
            return XCTFail()
        }
        defer { lock.release() }
        let access = StoreAccess.open(storeRoot: root)
        let a = app(access)
        a.resize(width: 80, height: 24)
        a.press(.testDevices)
        a.handle(.char("n"))
        XCTAssertEqual(a.message, access.refusal)
        XCTAssertTrue(a.top is ProfilesListScreen)
        a.handle(.char("d"))
        XCTAssertNil(a.dialog, "no delete question in a read-only console")
        XCTAssertEqual(a.message, access.refusal)
        XCTAssertFalse(lines(a).last?.contains("new") ?? true, "writes are not offered: \(lines(a).last ?? "")")
        a.press(.open)
        a.focus(field: "devices")
        a.handle(.char("n"))
        XCTAssertNil(a.dialog)
        XCTAssertEqual(a.message, access.refusal)
        a.press(.open)
        a.focus(field: "token")
        a.handle(.paste(Self.hex64))
        XCTAssertEqual(a.message, access.refusal)
        XCTAssertFalse(a.top.session?.isDirty ?? true)
        a.handle(.ctrl("s"))
        XCTAssertEqual(a.message, access.refusal)
    }

    func testLongTokensAreShortenedInTheDeviceTableAsTheSendLogShortensThem() {
        let a = devicesView()
        a.press(.open)
        let android = DemoStore.ana.subscriptions[1].token
        XCTAssertGreaterThan(android.count, 60)
        // Shortened as the send log shortens it (`Subscription.shortened`), never in full.
        XCTAssertNotEqual(Subscription.shortened(android), android)
        assertScreen(a, "longTokensAreShortenedInTheDeviceTableAsTheSendLogShortensThem")
    }

    func testUndoTakesBackAPasteAndARemovedDevice() {
        let a = devicesView()
        a.press(.open)
        a.focus(field: "field:firstName")
        a.handle(.paste(" pasted"))
        assertScreen(a, "undoTakesBackAPasteAndARemovedDevice")
        a.press(.undo)
        XCTAssertEqual(lines(a)[3], "│firstName  Ana                                                                │")
        a.focus(field: "devices")
        a.press(.delete)
        XCTAssertEqual(a.message, "Removed Ana's iPhone 15: u brings it back.")
        XCTAssertTrue(lines(a)[9].hasPrefix("│Ana's Pixel 8 "), lines(a)[9])
        a.press(.undo)
        XCTAssertTrue(lines(a)[9].hasPrefix("│Ana's iPhone 15 "), lines(a)[9])
        let s = (a.top as? ProfileEditorScreen)?.s
        XCTAssertEqual(s?.draft, s?.original)
    }

    /// A hang-up keeps the unsaved profile in the recovery file; the next console offers it
    /// back in the profile editor, and Ctrl-S saves it.
    func testAnUnsavedDeviceSurvivesAHangUp() throws {
        let old = RecoveryKeeper(storeRoot: root, interval: 30, pid: try deadPid())
        let first = app(keeper: old)
        first.resize(width: 80, height: 24)
        first.press(.testDevices)
        first.press(.open)
        first.press(.new)
        choose(first, containing: "neotrips-android")
        first.handle(.paste("fcm-token-from-a-hang-up"))
        XCTAssertEqual(first.recoveryEntries().map(\.summary), ["profile ana"])
        XCTAssertTrue(old.writeNow(first.recoveryEntries(), reason: .hangup))

        let a = app(keeper: RecoveryKeeper(storeRoot: root, interval: 30))
        a.resize(width: 80, height: 24)
        a.offerPendingRecovery()
        XCTAssertEqual(a.dialog?.title, "Unsaved work found")
        a.handle(.char("r"))  // Restore
        XCTAssertTrue(a.top is ProfileEditorScreen)
        assertScreen(a, "anUnsavedDeviceSurvivesAHangUp")
        a.press(.save)
        XCTAssertEqual(
            try store.loadRecord(Profile.self, "ana").0.subscriptions.last,
            Subscription(app: "neotrips-android", token: "fcm-token-from-a-hang-up"))
    }

    /// The save path's conflict check: the file changed on disk since the editor read it.
    func testAProfileChangedOnDiskIsNotOverwrittenAndSavesAsACopy() throws {
        let a = devicesView()
        a.press(.open)
        a.press(.open)
        a.focus(field: "label")
        a.type(" Pro")
        var theirs = DemoStore.ana
        theirs.subscriptions.removeLast()
        try store.save(theirs)
        a.press(.save)
        XCTAssertEqual(a.dialog?.title, "Changed on disk")
        a.handle(.char("s"))  // Save as copy
        XCTAssertEqual(a.dialog?.title, "Save as copy")
        XCTAssertEqual(a.dialog?.message, "Save your version as (a new profile name):")
        a.handle(.enter)
        XCTAssertEqual(a.message, "Saved your version as profiles/ana-copy.xml; profiles/ana.xml keeps the other one.")
        XCTAssertEqual(try store.loadRecord(Profile.self, "ana").0, theirs)
        XCTAssertEqual(
            try store.loadRecord(Profile.self, "ana-copy").0.subscriptions.first?.label, "Ana's iPhone 15 Pro")
    }

    func testUndoingANewDeviceInItsEditorGoesBackToTheProfile() {
        let a = devicesView()
        a.press(.open)
        a.press(.new)
        choose(a, containing: "neotrips-android")
        XCTAssertEqual(a.top.title, "Test devices › ana › new device")
        a.handle(.paste("abc"))
        XCTAssertEqual(a.top.title, "Test devices › ana › abc")
        a.press(.undo)
        a.press(.undo)
        XCTAssertTrue(a.top is ProfileEditorScreen)
        XCTAssertEqual(a.message, "Undone: the device is not added.")
        XCTAssertFalse(a.top.session?.isDirty ?? true)
    }

    func testDeleteAProfileAsksFirst() {
        let a = devicesView()
        a.press(.delete)
        XCTAssertEqual(a.dialog?.title, "Delete profile")
        XCTAssertEqual(
            a.dialog?.message, "Delete 'ana' (profiles/ana.xml) and its 2 test devices?\nThis removes the file.")
        a.handle(.escape)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("profiles/ana.xml").path))
        a.press(.delete)
        a.handle(.char("Y"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("profiles/ana.xml").path))
        XCTAssertEqual(a.message, "Deleted profiles/ana.xml")
        assertScreen(a, "deleteAProfileAsksFirst")
    }

    func testSendTestWithoutDevicesNamesTheTestDevicesKey() throws {
        var ana = DemoStore.ana
        ana.subscriptions = []
        try store.save(ana)
        let a = console()
        a.press(.deliveries)
        a.press(.open)
        a.press(.sendTest)
        XCTAssertEqual(a.dialog?.title, "Send test")
        XCTAssertEqual(
            a.dialog?.message,
            "No test device subscribes to an app of neotrips.\nAdd one in Test devices: t on the services list (Esc to get there)."
        )
    }

    func testItFitsAWideTerminal() {
        let a = devicesView(width: 200, height: 50)
        a.press(.open)
        let shown = lines(a)
        assertScreen(a, "itFitsAWideTerminal")
        XCTAssertEqual(shown.count, 50)
    }
}
