import Foundation
import PushDeskCore
import PushDeskTestSupport
import XCTest

/// Takes a text capture of each screen from the real binary in tmux (80x24, demo store)
/// and compares them with docs/SCREENS.md, as KeyRegistryTests does docs/KEYS.md: the test
/// fails when a screen differs from the file. With PUSHDESK_UPDATE_SCREENS=1 it rewrites
/// the file instead (then review the diff).
final class ScreenCaptureTests: TmuxTestCase {
    func testCaptureEveryScreen() throws {
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path])
        var shots: [(String, String, String)] = []  // title, note, capture
        /// `status`: text of the last line to wait for too — the terminal draws top to
        /// bottom, so a capture can land mid-frame when only a middle row is waited for.
        func shot(_ title: String, _ note: String, waitFor text: String, status: String? = nil) {
            let s = t.waitUntil("\(text)" + (status.map { " and status line \($0)" } ?? "")) { screen in
                guard screen.contains(text) else { return false }
                guard let status else { return true }
                return screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                    .contains(status) ?? false
            }
            shots.append(
                (
                    title, note,
                    s.split(separator: "\n", omittingEmptySubsequences: false)
                        .map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
                        // A Live Activity's timestamp is the second the preview is made.
                        .map {
                            $0.replacingOccurrences(
                                of: #"(?<="timestamp": )[0-9]{10}"#, with: "xxxxxxxxxx", options: .regularExpression)
                        }
                        .joined(separator: "\n").trimmingCharacters(in: .newlines)
                ))
        }
        shot(
            "Services list", "The first screen: every service with its app and findings counts.", waitFor: "Enter edit")
        t.keys("?")
        shot(
            "Help overlay (`?`, F1 or Ctrl-R)", "Generated from the key registry, for the focused view; ↑↓ scroll it.",
            waitFor: "Keys (")
        t.keys("Escape")
        t.keys("Enter")
        shot(
            "Service editor", "Fields of the service, its apps, and the live findings of the rules.",
            waitFor: "Apps (i: add iOS pair")
        t.focus(hint: "edit app")
        t.keys("Enter")
        shot(
            "App editor: Information", "The Campaign console's tabs; Ctrl-G generates an integration key.",
            waitFor: "Bundle id")
        t.keys("C-o")
        shot(
            "App editor: Credentials", "Auth mode and its fields; secrets are referenced by name, never stored here.",
            waitFor: "Auth mode")
        t.keys("C-o")
        t.keys("Enter")
        shot(
            "App editor: Variables", "A table with add / edit / delete / reorder; the selected row's form below.",
            waitFor: "Selected variable")
        t.keys("Escape")
        t.keys("C-o")
        shot("App editor: Subscription parameters", "", waitFor: "Subscription parameters (n add")
        t.keys("C-o")
        shot("App editor: Sounds (iOS only)", "", waitFor: "chime.caf")
        t.press("C-p", until: "Bundle id")  // back to the Information tab, by what it shows
        t.focus(field: "Bundle id")
        t.keys("C-u")
        shot(
            "Live rules",
            "Clearing the bundle id: the core rule's finding appears under the field and in the pane at once.",
            waitFor: "↳ error")
        t.keys("C-f")
        shot(
            "Findings view", "Every finding of the store (the drafts included); Enter jumps to the field.",
            waitFor: "Severity")
        t.keys("C-q")
        shot("Quit with unsaved changes", "", waitFor: "[ Save ] [ Discard ] [ Cancel ]")
        t.keys("Escape")
        t.resize(50, 12)
        shot("Terminal too small", "", waitFor: "or press Ctrl-Q.")  // the whole message: not a frame mid-resize
        t.resize(80, 24)
        t.waitFor("Findings")
        t.keys("Escape", "Escape", "Escape")
        t.waitFor("Save the changes")
        t.keys("d")
        t.waitFor("PushDesk — Services")
        t.keys("t")
        shot(
            "Test devices (`t` on the services list)",
            "Profiles (sample recipients) with their number of test devices and findings; n new, d delete.",
            waitFor: "Recipient", status: "Enter edit")
        t.keys("Enter")
        shot(
            "Profile editor",
            "The recipient's fields and its test devices, tokens shortened as the send log shortens them, each with its language.",
            waitFor: "Test devices (n: add")
        t.focus(hint: "edit device")
        t.keys("Enter")
        shot(
            "Test device editor",
            "The app picked by label (Enter lists label, platform, environment, key); a pasted token is trimmed; Language picks the variant it gets.",
            waitFor: "Test device ─", status: "Esc back")
        t.keys("Escape")
        t.waitFor("Test devices (n: add")
        t.keys("Escape")
        t.waitFor("Recipient")
        t.keys("Escape")
        t.waitFor("PushDesk — Services")
        t.keys("D")
        shot(
            "Deliveries of a service (`D` or Ctrl-Y)",
            "Types, the largest payload across the apps, the worst finding; `a` shows the whole store.",
            waitFor: "Worst finding", status: "Enter compose")
        t.keys("j", "Enter")
        shot(
            "Composer (80 columns: the preview under the form)",
            "Tabs for content, iOS, Android, variables; the live preview of each app from the payload engine of `pushdesk preview`.",
            waitFor: "Preview (the payload engine", status: "copy out")
        t.keys("C-v", "v")
        shot(
            "Composer: device view (narrow screens: `v` in the preview)",
            "The notification as the device draws it: bold title, subtitle, body cut to its lines, the image marker.",
            waitFor: "[image]", status: "v device")
        t.keys("v", "Escape")
        // Back in the form (a text field: the title names F1 for help), then resize: the shot
        // must not be taken while Escape is still on its way.
        _ = t.waitUntil("the form focused again") { $0.split(separator: "\n").first?.contains("F1 help") ?? false }
        t.resize(200, 50)
        shot(
            "Composer at 200x50 (the preview beside the form)",
            "Request, coloured JSON, device view, every app's size, findings that jump to their field.",
            waitFor: "Every app", status: "Esc back")
        t.keys("C-o", "C-o", "C-o", "C-o")
        t.waitFor("Test devices → the language each gets")
        t.keys("n")
        t.waitFor("Add a language")
        t.type("zh-Hant")
        t.keys("Enter")
        shot(
            "Composer: the Languages tab at 200x50",
            "A row per language: its title, its payload size for each app, its worst finding; which test device gets which variant. `n` adds, `r` renames, `d` deletes, Enter edits.",
            waitFor: "zh-Hant Chinese", status: "Enter edits its texts")
        t.keys("Enter")
        t.waitFor("language zh-Hant")
        t.type("夏天來了：全館八折")
        t.focus(field: "Body")
        t.type("週日前全館八折，會員再享免運。Neotrips 夏季特賣")
        shot(
            "Composer: editing the zh-Hant variant at 200x50 (F7 chooses the language)",
            "The form edits the chosen language; the preview, the size meter and the device view (wide text by its columns) follow it.",
            waitFor: "夏季特賣", status: "Esc back")
        // Back to the delivery as it was: the body, the title, the added variant.
        t.keys("C-z", "C-z", "C-z")
        _ = t.waitUntil("the variant undone") {
            $0.split(separator: "\n").first.map { !$0.contains("language") } ?? false
        }
        t.keys("C-o", "Space")
        shot(
            "Composer: switched to silent at 200x50",
            "The alert keys vanish, greyed fields are not sent, `silent.content` says what to remove.",
            waitFor: "silent.content", status: "Esc back")
        t.keys("Space")  // silent → liveactivity
        t.waitFor("apns-push-type: liveactivity")
        t.keys("C-o")
        t.waitFor("Attributes type")
        t.keys("Space")  // the event: start
        t.waitFor("event start")
        t.focus(field: "Content state")
        t.type(#"{"gate":"B12","status":"boarding",}"#)
        shot(
            "Composer: a Live Activity at 200x50",
            "The Live Activity tab (type liveactivity only); a JSON editor says where its text stops being an object.",
            waitFor: "column 35 of the content state")
        t.resize(80, 24)
        t.keys("C-q")
        t.waitFor("[ Save ]")
        t.keys("d")
        t.waitFor("PD-END")
        try gitShots { shots.append($0) }
        try sendShots { shots.append($0) }
        try listenShots { shots.append($0) }

        XCTAssertEqual(shots.count, 32)
        var md =
            "# Screens\n\nText captures of the console on the demo store (80x24 unless the title says 200x50), taken from the real binary in tmux by\n"
        md +=
            "`Tests/PushDeskTUITests/Terminal/ScreenCaptureTests.swift`, which fails when a screen differs from this file\n"
        md += "(`PUSHDESK_UPDATE_SCREENS=1 swift test --filter ScreenCaptureTests` rewrites it). Not drawn by hand.\n"
        md +=
            "The sending screens talk to the tests' loopback APNs mock; what differs from run to run there (APNs ids,\n"
        md += "times, milliseconds, the port, user@host; the Listen view's CA fingerprint) is shown as x's.\n"
        for (title, note, s) in shots {
            md += "\n## \(title)\n\n" + (note.isEmpty ? "" : note + "\n\n") + "```\n" + s + "\n```\n"
        }
        let url = packageRoot.appendingPathComponent("docs/SCREENS.md")
        if ProcessInfo.processInfo.environment["PUSHDESK_UPDATE_SCREENS"] == "1" {
            try md.write(to: url, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        // Line by line, so a failure names the screen line that moved.
        let want = committed.split(separator: "\n", omittingEmptySubsequences: false)
        let got = md.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, (w, g)) in zip(want, got).enumerated() where w != g {
            XCTFail("docs/SCREENS.md line \(i + 1): the file has\n\(w)\nthe console draws\n\(g)")
            break
        }
        XCTAssertEqual(
            committed, md,
            "docs/SCREENS.md differs from the screens: run `PUSHDESK_UPDATE_SCREENS=1 swift test --filter ScreenCaptureTests` and review the diff"
        )
    }

    /// The git views (docs/TEAMS.md) on a clone made here with real git: a bare remote, the
    /// other operator's label pushed, this one's label committed and fetched (↑1 ↓1), a
    /// marketing URL changed and not committed. Authors and dates are fixed in the
    /// environment, so commit ids and dates are the same on every run.
    private func gitShots(_ add: ((String, String, String)) -> Void) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pd-gitshots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let (remote, a, b) = (
            base.appendingPathComponent("remote.git"), base.appendingPathComponent("a"),
            base.appendingPathComponent("b")
        )
        let home = base.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        func env(_ who: String) -> [String: String] {
            let email = who.lowercased().replacingOccurrences(of: " ", with: ".") + "@example.com"
            return [
                "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": who, "GIT_AUTHOR_EMAIL": email,
                "GIT_COMMITTER_NAME": who, "GIT_COMMITTER_EMAIL": email,
                "GIT_AUTHOR_DATE": "2026-05-04T10:00:00Z", "GIT_COMMITTER_DATE": "2026-05-04T10:00:00Z",
            ]
        }
        func git(_ dir: URL, _ who: String, _ args: [String]) throws {
            try GitCommand(directory: dir, environment: env(who)).check(args)
        }
        func label(_ dir: URL, _ label: String) throws {
            let store = Store(root: dir)
            var s = try store.load(Service.self, "neotrips")
            s.label = label
            try store.save(s)
        }
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        try git(base, "Operator A", ["init", "-q", "--bare", "-b", "main", remote.path])
        try DemoStore.write(to: a)
        try git(a, "Operator A", ["init", "-q", "-b", "main"])
        _ = try GitSetup.setUp(store: a, binary: TmuxHarness.binary.path)
        try git(a, "Operator A", ["add", "-A"])
        try git(a, "Operator A", ["commit", "-q", "-m", "The demo store"])
        try git(a, "Operator A", ["remote", "add", "origin", remote.path])
        try git(a, "Operator A", ["push", "-q", "-u", "origin", "main"])
        try git(base, "Operator B", ["clone", "-q", remote.path, b.path])
        try label(b, "Neotrips (B)")
        try git(b, "Operator B", ["commit", "-q", "-am", "Label from B"])
        try git(b, "Operator B", ["push", "-q"])
        try label(a, "Neotrips (A)")
        try git(a, "Operator A", ["commit", "-q", "-am", "Label from A"])
        try git(a, "Operator A", ["fetch", "-q"])
        var s = try Store(root: a).load(Service.self, "neotrips")
        s.marketingUrl = "https://m.neotrips.example/"
        try Store(root: a).save(s)

        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", a.path], env: env("Operator A"))
        func shot(_ title: String, _ note: String, waitFor text: String, status: String) {
            let screen = t.waitUntil("\(text) and status line \(status)") { screen in
                screen.contains(text)
                    && (screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                        .contains(status) ?? false)
            }
            add(
                (
                    title, note,
                    screen.split(separator: "\n", omittingEmptySubsequences: false)
                        .map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
                        .joined(separator: "\n").trimmingCharacters(in: .newlines)
                ))
        }
        shot(
            "Services list in a git repository",
            "The branch and how far it is from its upstream in the title (↑ to push, ↓ to pull); the `Git` column.",
            waitFor: "[main ↑1 ↓1]", status: "S sync")
        t.type("C")
        shot(
            "Commit (`C`)",
            "The changed records with their findings; Space leaves one out, Enter shows its diff, `c` commits the [x] ones.",
            waitFor: "Commit [main ↑1 ↓1]", status: "in/out")
        t.keys("Enter")
        shot(
            "Diff of a record (Enter in the commit view, the history or the resolve view)",
            "The record against the last commit (or a version against now), as lines of its file; Esc goes back.",
            waitFor: "@@ -1,5 +1,5 @@", status: "Esc back")
        t.keys("Escape")
        t.waitFor("Commit [main ↑1 ↓1]")
        t.type("c")
        t.waitFor("Message for 1 record")
        t.type("Marketing URL")
        t.keys("Enter")
        t.waitFor("[main ↑2 ↓1]")
        t.type("H")
        shot(
            "History of a record (`H`)",
            "The commits that touched the file (read off the input loop); Enter: that version against now, `r` restores it as a draft.",
            waitFor: "The demo store", status: "restore")
        t.keys("Escape")
        t.type("S")
        shot(
            "Resolve a conflicted record (a sync stopped on a conflict)",
            "One row per conflicting field: ours is the upstream, theirs your own commit; `o` / `t` choose, `w` writes it.",
            waitFor: "Resolve services/neotrips.xml [detached rebasing]", status: "record conflicted")
        t.keys("C-q")
        t.waitFor("PD-END")
    }

    /// Send test, the Sends view and Check online, against the loopback APNs mock
    /// (Tests/PushDeskTestSupport) on a demo store with the mock's credentials. What differs
    /// from run to run — APNs ids, milliseconds, times, the mock's port, user@host — is
    /// shown as x's, so the captures are the same on every run.
    private func sendShots(_ add: ((String, String, String)) -> Void) throws {
        let dir = try makeDemoStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mock = try MockPushServices(store: dir)
        try mock.saveProfile([
            Subscription(app: "neotrips-ios-dev", token: MockPushServices.Token.ok, label: "Ana's iPhone"),
            Subscription(app: "neotrips-ios-dev", token: MockPushServices.Token.bad, label: "Ana's iPad"),
        ])
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", dir.path], env: mock.environment())
        func shot(_ title: String, _ note: String, waitFor text: String, status: String) {
            let screen = t.waitUntil("\(text) and status line \(status)") { screen in
                screen.contains(text)
                    && (screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                        .contains(status) ?? false)
            }
            add((title, note, Self.stable(screen)))
        }
        t.waitFor("neotrips")
        t.keys("D")
        t.waitFor("summer-sale")
        t.keys("G")  // the last row: summer-sale (the list is sorted by name)
        t.keys("Enter")
        t.waitFor("Delivery summer-sale")
        t.keys("C-g")
        t.waitFor("which test devices?")
        t.keys("Enter")
        t.waitFor("Send summer-sale to 2 devices?")
        t.keys("Enter")
        t.waitFor("Done: 1 sent, 1 rejected. Esc closes.")
        t.keys("Down")
        shot(
            "Send test (Ctrl-G in the composer)",
            "Each test device's answer as it comes; the selected one's status, reason and what to do about it.",
            waitFor: "this token is not a development token of this app", status: "Esc back")
        t.keys("Escape")
        t.waitFor("Delivery summer-sale")
        t.keys("Escape")
        t.waitFor("Deliveries of neotrips")
        t.keys("s")
        shot(
            "Sends of a delivery (`s` in the deliveries list)",
            "The send log's lines for the delivery, newest first: who sent what to which device, and the answer.",
            waitFor: "2 sends, newest first", status: "Esc back")
        t.keys("Escape")
        t.waitFor("Deliveries of neotrips")
        t.keys("Escape")
        t.waitFor("PushDesk — Services")
        t.keys("Enter")
        t.waitFor("Apps (i: add iOS pair")
        t.focus(hint: "edit app")
        t.keys("Enter")
        t.waitFor("Bundle id")
        t.keys("C-y")
        shot(
            "Check online (Ctrl-Y in the app editor)",
            "The credential tried against the service step by step — dns, tcp, tls, auth — each with what it found.",
            waitFor: "Every step passed", status: "Esc back")
        t.keys("Escape")
        t.waitFor("Bundle id")
        t.keys("C-q")
        t.waitFor("PD-END")
        XCTAssertEqual(mock.problems, [], "the mock verified what it received")
    }

    /// A capture with its run-dependent values as x's, each column kept where it was: UUIDs
    /// (APNs ids), times, milliseconds, the mock's port, this machine's user@host.
    /// The Listen view (`L`) on a free port, after a registration over real TLS with the
    /// iOS SDK's bytes and one whose integration key is the Android app's.
    private func listenShots(_ add: ((String, String, String)) -> Void) throws {
        let dir = try makeDemoStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", dir.path], env: ["PUSHDESK_LISTEN_PORT": "0"])
        t.waitFor("neotrips")
        t.keys("L")
        let started = t.waitFor("No request yet.")
        let match = try XCTUnwrap(
            started.range(of: "https://127\\.0\\.0\\.1:[0-9]+/", options: .regularExpression), started)
        let port = try XCTUnwrap(Int(started[match].dropFirst(18).dropLast()), started)
        let client = try TLSTestClient(
            port: port, ca: dir.appendingPathComponent(ListenCertificates.directory).appendingPathComponent("ca.pem"))
        defer { client.close() }
        for r in [
            CampaignSDK.iosRegistration(
                token: String(repeating: "3f", count: 32), integrationKey: "neotrips-ios", userKey: "qa@example.com",
                deviceName: "QA iPhone 15", params: ["loyaltyId": "7"]),
            CampaignSDK.iosRegistration(token: String(repeating: "4e", count: 32), integrationKey: "neotrips-android"),
        ] {
            _ = try client.exchange(r.bytes(host: "localhost:\(port)"))
        }
        let screen = t.waitFor("error registration.platform")
        var s = Self.stable(screen)
        for (pattern, transform) in [
            ("([0-9A-F]{2}:){4,}[0-9A-F]{0,2}", { (m: String) in String(m.map { $0.isHexDigit ? "x" : $0 }) }),
            ("\\b\\d\\d:\\d\\d:\\d\\d\\b", { (_: String) in "xx:xx:xx" }),
        ] {
            let re = try NSRegularExpression(pattern: pattern)
            for m in re.matches(in: s, range: NSRange(s.startIndex..., in: s)).reversed() {
                guard let r = Range(m.range, in: s) else { continue }
                s.replaceSubrange(r, with: transform(String(s[r])))
            }
        }
        add(
            (
                "Listen (`L` on the services list)",
                "`pushdesk listen`'s server in the console: the address and the CA to trust, then each request as it arrives, newest first, findings by rule id; Enter adds a registration's device to a profile, Esc stops the server.",
                s
            ))
        t.keys("Escape")
        t.waitFor("Listen stopped")
        t.keys("C-q")
        t.waitFor("PD-END")
    }

    static func stable(_ screen: String) -> String {
        func digits(_ m: String) -> String { String(m.map { $0.isHexDigit ? "x" : $0 }) }
        func padded(_ text: String, to m: String) -> String {
            text.count >= m.count ? text : text + String(repeating: " ", count: m.count - text.count)
        }
        let me = NSRegularExpression.escapedPattern(for: "\(ProcessIdentity.user)@\(ProcessIdentity.host)")
        var s = screen
        for (pattern, transform) in [
            ("[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}", digits),
            ("\\d{4}-\\d\\d-\\d\\d[ T]\\d\\d:\\d\\d(:\\d\\d)?(\\.\\d+)?Z?", digits),
            // The Sends view's short time (month-day hour:minute:second).
            ("\\b\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\b", digits),
            // A right-aligned duration: its column's width stays, whatever the digits.
            (" +\\d+ ms\\b", { m in String(repeating: " ", count: max(1, m.count - 4)) + "x ms" }),
            ("127\\.0\\.0\\.1:\\d+", { m in "127.0.0.1:" + String(repeating: "x", count: m.count - 10) }),
            (me + " *", { m in padded("operator@host", to: m) }),
        ] as [(String, (String) -> String)] {
            guard let re = try? NSRegularExpression(pattern: pattern) else { continue }
            for m in re.matches(in: s, range: NSRange(s.startIndex..., in: s)).reversed() {
                guard let r = Range(m.range, in: s) else { continue }
                s.replaceSubrange(r, with: transform(String(s[r])))
            }
        }
        return s.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            .joined(separator: "\n").trimmingCharacters(in: .newlines)
    }
}
