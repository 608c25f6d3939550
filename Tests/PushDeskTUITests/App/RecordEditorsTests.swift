import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The record map (App/RecordEditors.swift): every kind of record opens in its editor from
/// every place that opens records — a finding and a recovered draft here, a version from
/// history and a resolved conflict in `RecordEditorsGitTests`.
final class RecordEditorsTests: WholeScreenTestCase {
    /// The editor each kind opens in, and the draft it holds.
    private func assertEditor(
        _ a: ConsoleApp, _ kind: RecordKind, named name: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let top = a.stack.last
        switch kind {
        case .service:
            XCTAssertTrue(top is ServiceEditorScreen, "\(String(describing: top))", file: file, line: line)
            XCTAssertEqual((top?.session as? ServiceSession)?.draft.name, name, file: file, line: line)
        case .delivery:
            XCTAssertTrue(top is ComposerScreen, "\(String(describing: top))", file: file, line: line)
            XCTAssertEqual((top?.session as? DeliverySession)?.draft.name, name, file: file, line: line)
        case .profile:
            XCTAssertTrue(top is ProfileEditorScreen, "\(String(describing: top))", file: file, line: line)
            XCTAssertEqual((top?.session as? EditSession<Profile>)?.draft.name, name, file: file, line: line)
        }
    }

    /// A test device's token the rules refuse opens its device's editor from the findings
    /// view, on the token field, as an operator would reach it (filter, Enter).
    func testAProfileFindingOpensItsDeviceEditorFromTheFindingsView() throws {
        var ana = DemoStore.ana
        ana.subscriptions[0].token = "not-hex"
        try store.save(ana)
        let a = console()
        a.press(.findings)
        a.press(.filter)
        a.type("token-format")
        a.handle(.enter)
        a.press(.open)
        XCTAssertEqual(a.stack.map(\.title), ["Services", "Test devices › ana", a.stack.last?.title ?? ""])
        XCTAssertTrue(a.stack.last is DeviceEditorScreen, "\(a.stack.map(\.title))")
        XCTAssertEqual(a.focusedField, "token")
        XCTAssertEqual((a.stack.last?.session as? EditSession<Profile>)?.draft.subscriptions[0].token, "not-hex")
    }

    /// A finding on a file of each kind opens that kind's editor, on the record the file names.
    func testAFindingOfEachKindOpensItsEditor() {
        let records: [(RecordKind, String)] = [(.service, "neotrips"), (.delivery, "summer-sale"), (.profile, "ana")]
        for (kind, name) in records {
            let a = console()
            let finding = Finding(.error, "test.rule", "A finding", file: kind.path(name))
            a.apply(FindingJump.open(finding, app: a.context))
            assertEditor(a, kind, named: name)
            XCTAssertNil(a.message, "\(kind)")
        }
        let a = console()
        a.apply(FindingJump.open(Finding(.error, "test.rule", "gone", file: "profiles/nobody.xml"), app: a.context))
        XCTAssertEqual(a.message, "Profile 'nobody' is not in the store.")
    }

    /// A dropped console's drafts of every kind come back, each in its own editor, unsaved.
    func testRecoveredDraftsOfEveryKindOpenInTheirEditors() throws {
        let dead = try deadPid()
        let old = RecoveryKeeper(storeRoot: root, interval: 30, pid: dead)
        let first = app(keeper: old)
        first.resize(width: 80, height: 24)
        let service = ServiceSession(original: DemoStore.neotrips, draft: DemoStore.neotrips)
        service.edit(nil) { $0.label = "Neotrips (recovered)" }
        let delivery = DeliverySession(original: DemoStore.summerSale, draft: DemoStore.summerSale)
        delivery.edit(nil) { $0.label = "Summer sale (recovered)" }
        let profile = EditSession(original: DemoStore.ana, draft: DemoStore.ana)
        profile.edit(nil) { $0.fields[0].value = "Ana (recovered)" }
        first.apply(
            .all([
                .push(ServiceEditorScreen(session: service)),
                .push(ComposerScreen(session: delivery, app: first.context)),
                .push(ProfileEditorScreen(session: profile)),
            ]))
        XCTAssertEqual(first.recoveryEntries().map(\.kind), [.service, .delivery, .profile])
        XCTAssertTrue(old.writeNow(first.recoveryEntries(), reason: .hangup))

        let a = app(keeper: RecoveryKeeper(storeRoot: root, interval: 30))
        a.resize(width: 80, height: 24)
        a.offerPendingRecovery()
        XCTAssertEqual(a.dialog?.title, "Unsaved work found")
        a.handle(.char("r"))  // Restore
        XCTAssertEqual(a.message, "Restored 3 drafts as unsaved: check, then Ctrl-S to save.")
        let opened = a.stack.dropFirst()
        XCTAssertEqual(opened.count, 3, "\(a.stack.map(\.title))")
        XCTAssertEqual(
            (opened.first { $0 is ServiceEditorScreen }?.session as? ServiceSession)?.draft.label,
            "Neotrips (recovered)")
        XCTAssertEqual(
            (opened.first { $0 is ComposerScreen }?.session as? DeliverySession)?.draft.label,
            "Summer sale (recovered)")
        let restored = opened.first { $0 is ProfileEditorScreen }?.session as? EditSession<Profile>
        XCTAssertEqual(restored?.draft.value(of: "firstName"), "Ana (recovered)")
        XCTAssertEqual(restored?.original, DemoStore.ana, "the file as it is on disk is what the draft changes")
        XCTAssertEqual(restored?.isDirty, true)
    }
}

/// History and resolve, on real clones: every kind of record opens in its editor from both.
final class RecordEditorsGitTests: GitTeamTestCase {
    /// Opens the list of a kind in a fresh console on `clone`, its first row selected.
    private func list(_ kind: RecordKind, _ clone: URL) -> ConsoleApp {
        let app = console(clone)
        switch kind {
        case .service: break
        case .delivery: app.press(.deliveries)
        case .profile: app.press(.testDevices)
        }
        return app
    }

    private func commitAll(_ clone: URL, _ message: String) throws {
        try git(clone, ["commit", "-q", "-am", message])
    }

    /// A second version of one record of each kind: the label, the label, the first name.
    private func changeOneOfEach(_ clone: URL, _ suffix: String) throws {
        let store = Store(root: clone)
        var s = DemoStore.neotrips
        s.label += suffix
        try store.save(s)
        for var d in [DemoStore.summerSale, DemoStore.catalogRefresh] {
            d.label += suffix
            try store.save(d)
        }
        var p = DemoStore.ana
        p.fields[0].value += suffix
        try store.save(p)
    }

    func testEveryKindOpensFromHistoryAsADraftOfItsOlderVersion() throws {
        try changeOneOfEach(a, " Two")
        try commitAll(a, "Second versions")
        for kind in RecordKind.allCases {
            let app = list(kind, a)
            app.press(.history)
            XCTAssertTrue(app.top is HistoryScreen, "\(kind): \(app.top)")
            app.waitForGitReads()
            XCTAssertTrue(lines(app)[3].hasSuffix("The demo store"), "\(kind): \(lines(app)[3])")
            app.press(.down)
            app.press(.restore)
            app.runGitJob()
            XCTAssertEqual(
                app.message?.hasSuffix("restored as an unsaved draft: Ctrl-S saves it, Esc discards."), true,
                "\(kind): \(app.message ?? "")")
            switch kind {
            case .service:
                let s = try XCTUnwrap(app.top.session as? ServiceSession, "\(app.top)")
                XCTAssertTrue(app.top is ServiceEditorScreen)
                XCTAssertEqual(s.draft, DemoStore.neotrips)
                XCTAssertEqual(s.original?.label, "Neotrips Two")
            case .delivery:
                let d = try XCTUnwrap(app.top.session as? DeliverySession, "\(app.top)")
                XCTAssertTrue(app.top is ComposerScreen)
                XCTAssertEqual(
                    d.draft, [DemoStore.summerSale, DemoStore.catalogRefresh].first { $0.name == d.draft.name })
                XCTAssertEqual(d.original?.label.hasSuffix(" Two"), true)
            case .profile:
                let p = try XCTUnwrap(app.top.session as? EditSession<Profile>, "\(app.top)")
                XCTAssertTrue(app.top is ProfileEditorScreen)
                XCTAssertEqual(p.draft, DemoStore.ana)
                XCTAssertEqual(p.original?.value(of: "firstName"), "Ana Two")
            }
            XCTAssertEqual(app.top.session?.isDirty, true, "\(kind)")
        }
    }

    /// Both operators change one record of each kind; B's sync stops on three conflicts and
    /// `e` on each opens the record's editor on the resolution (S then goes to the next).
    func testEveryKindOpensFromResolveInItsEditor() throws {
        try changeOneOfEach(a, " (A)")
        try commitAll(a, "A's versions")
        try git(a, ["push", "-q"])
        try changeOneOfEach(b, " (B)")
        try commitAll(b, "B's versions")
        let app = console(b)
        app.press(.sync)
        app.runGitJob()
        var opened: [String] = []
        for _ in 0..<4 {  // three deliveries-profiles-services conflicts (two deliveries)
            guard let resolve = app.top as? ResolveScreen else { break }
            app.waitForGitReads()
            let path = resolve.path
            app.press(.takeTheirs)
            app.press(.editResolution)
            app.runGitJob()
            opened.append(path)
            let kind = try XCTUnwrap(RecordKind(path: path))
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            switch kind {
            case .service:
                XCTAssertTrue(app.top is ServiceEditorScreen, "\(path): \(app.top)")
                XCTAssertEqual((app.top.session as? ServiceSession)?.draft.label, "Neotrips (B)")
            case .delivery:
                XCTAssertTrue(app.top is ComposerScreen, "\(path): \(app.top)")
                XCTAssertEqual((app.top.session as? DeliverySession)?.draft.label.hasSuffix(" (B)"), true, path)
                XCTAssertEqual((app.top.session as? DeliverySession)?.draft.name, name)
            case .profile:
                XCTAssertTrue(app.top is ProfileEditorScreen, "\(path): \(app.top)")
                XCTAssertEqual((app.top.session as? EditSession<Profile>)?.draft.value(of: "firstName"), "Ana (B)")
            }
            XCTAssertEqual(app.top.session?.isDirty, false, path)
            app.press(.back)
            guard app.git?.rebasing == true, app.git?.files.values.contains(.conflicted) == true else { break }
            app.press(.sync)  // goes to the next conflicted record
        }
        XCTAssertEqual(
            opened,
            [
                "deliveries/catalog-refresh.xml", "deliveries/summer-sale.xml", "profiles/ana.xml",
                "services/neotrips.xml",
            ])
    }
}
