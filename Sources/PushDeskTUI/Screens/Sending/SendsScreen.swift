import Foundation
import PushDeskCore

/// A delivery's sends, from the send log `.pushdesk/sent.jsonl` (docs/SENDING.md), newest first:
/// one row per target that made a request, and under the table the selected row in full —
/// outcome, status, reason, the hint for it, apns-id / apns-unique-id or the FCM message name —
/// and what the app reported for that message (`pushdesk listen`'s log: received, clicked).
/// Every value comes from a file, so it goes through the one escape rule before the screen.
final class SendsScreen: ListScreen {
    let delivery: String
    /// The log's entries for the delivery, newest first (read when the view opens or comes back).
    private(set) var entries: [[String: Any]] = []
    /// The store's apps by integration key: which hint table (APNs or FCM) a reason is read with.
    private var apps: [String: MobileApp] = [:]
    /// The app's tracking by message id (`.pushdesk/listen.jsonl`).
    private var tracking: [String: ListenLog.Tracked] = [:]
    var view = TableView(columns: SendsScreen.columns)
    static let columns: [TableView.Column] = [
        .init("Time", width: 14), .init("App", width: 16), .init("Token", width: 12), .init("Outcome", width: 9),
        .init("Status", width: 6), .init("Tracked", width: 7), .init("Reason"),
    ]

    init(delivery: String, app: AppContext) {
        self.delivery = delivery
        table.emptyText = "No send of this delivery in \(SendLog.relativePath) yet."
        willAppear(app: app)
    }

    var title: String { "Sends of \(delivery)" }
    var listContext: KeyContext? { nil }

    func willAppear(app: AppContext) {
        let root = URL(fileURLWithPath: app.storeRoot)
        entries = SendLog.entries(storeRoot: root, delivery: delivery)
        tracking = ListenLog.tracking(storeRoot: root)
        apps = Dictionary(
            app.services.flatMap(\.apps).map { ($0.integrationKey, $0) }, uniquingKeysWith: { first, _ in first })
        table.setRows(
            entries.map { Self.row($0, tracked: ListenLog.tracked($0["messageId"] as? String, in: tracking)) })
    }

    static func text(_ e: [String: Any], _ key: String) -> String {
        switch e[key] {
        case let s as String: Escape.inline(s, limit: 200)
        case let n as NSNumber: n.stringValue
        default: ""
        }
    }

    static func row(_ e: [String: Any], tracked: ListenLog.Tracked?) -> [String] {
        // MM-DD HH:MM:SS: the year is in the details below.
        let time = text(e, "time").replacingOccurrences(of: "T", with: " ").dropFirst(5).prefix(14)
        let dry = (e["dryRun"] as? Bool) == true ? " (dry)" : ""
        return [
            String(time), text(e, "app"), text(e, "token"), text(e, "outcome") + dry, text(e, "status"),
            tracked?.summary ?? "", text(e, "reason"),
        ]
    }

    /// The selected entry in full, one "label value" per line; the hint is the core's for
    /// the reason (ResponseHints), as `pushdesk send` prints it.
    func details(_ e: [String: Any]) -> [(String, String)] {
        let t = { Self.text(e, $0) }
        var out: [(String, String)] = [
            ("Time", t("time")), ("Sent by", t("user")), ("App", t("app")),
            ("Profile", t("profile").isEmpty ? "(a token given on the command line)" : t("profile")),
            ("Token", t("token")),
            ("Outcome", t("outcome") + ((e["dryRun"] as? Bool) == true ? " (dry run)" : "")),
            ("Status", t("status")), ("Reason", t("reason")),
        ]
        let status = (e["status"] as? NSNumber)?.intValue ?? 0
        let reason = e["reason"] as? String
        let hint: String? =
            switch apps[e["app"] as? String ?? ""] {
            case .ios(let a): ResponseHints.apns(reason: reason, status: status, environment: a.environment)
            case .android: ResponseHints.fcm(code: reason, status: status)
            case nil: nil
            }
        if let hint, status != 200 { out.append(("Hint", hint)) }
        if !t("apnsId").isEmpty { out.append(("apns-id", t("apnsId"))) }
        if !t("apnsUniqueId").isEmpty { out.append(("apns-unique-id", t("apnsUniqueId"))) }
        if !t("messageName").isEmpty { out.append(("Message", t("messageName"))) }
        if !t("messageId").isEmpty {
            out.append(("Message id", t("messageId")))
            let tr = ListenLog.tracked(e["messageId"] as? String, in: tracking)?.described(
                sentTime: e["time"] as? String)
            out.append(("Received", tr?.received ?? "not reported (pushdesk listen)"))
            out.append(("Clicked", tr?.clicked ?? "not reported"))
        }
        out.append(("Attempts", t("attempts")))
        out.append(("Bytes", t("bytes")))
        return out
    }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        if table.isFiltering, [.back, .open].contains(action) { return table.handle(action) ? Effect.none : nil }
        return table.handle(action) ? Effect.none : nil
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        let selected = v.selectedRow.flatMap { entries.indices.contains($0) ? entries[$0] : nil }
        let info = selected.map(details) ?? []
        let (tb, db) = rect.splitBottom(DetailsPanel.height(for: info, in: rect))
        buf.box(tb, role: .borderFocus, title: "\(entries.count) send\(entries.count == 1 ? "" : "s"), newest first")
        v.render(into: &buf, tb.inset(1), focused: true)
        DetailsPanel.render(into: &buf, db, title: "Selected send", rows: info)
    }
}
