import PushDeskCore

/// A read-only view of line diffs (`LineDiff`, unified form): what a draft or a recovered
/// draft changes against the file on disk. Removed lines are `-` (finding.error role),
/// added `+` (finding.info), so the difference reads without colour too. Esc goes back to
/// where it was opened from (`onClose`: the dialog that offered it).
final class DiffScreen: StatefulScreen {
    struct Section: Sendable {
        /// `services/neotrips.xml: on disk → your draft`
        var heading: String
        var old: String
        var new: String
    }

    let title: String
    private(set) var lines: [(text: String, role: Role)] = []
    /// The first line shown and the rows that show (from the last layout, for paging).
    struct View {
        var scroll = 0
        var pageHeight = 10
    }
    var view = View()
    /// Columns scrolled to the right (XML lines are long): ← →.
    private var shift = 0
    /// What closing it leads to (the dialog that offered it, again).
    let onClose: Effect
    /// What `-` and `+` stand for, in the box's title.
    let legend: String

    init(title: String, sections: [Section], onClose: Effect = .none, legend: String = "- on disk  + yours") {
        self.title = title
        self.onClose = onClose
        self.legend = legend
        show(sections)
    }

    /// The sections read off the input loop (git's versions of a file): the view opens at
    /// once with "Loading…" and shows them when they are in (`update`).
    private var load: GitLoad<[Section]>?

    init(title: String, loading read: @escaping @Sendable () throws -> [Section], legend: String) {
        self.title = title
        self.onClose = .none
        self.legend = legend
        load = GitLoad(owner: self, read)
        lines = [("Loading… (git is reading the versions; Esc goes back)", .muted)]
    }

    var jobsOnOpen: [Job] { load.map { [$0.job] } ?? [] }

    func update(_ rect: Rect, app: AppContext) {
        guard let load else { return }
        let took = load.take(ready: show) {
            lines = [("Cannot show the versions: " + Sanitize.string($0), .findingError)]
        }
        guard took else { return }
        self.load = nil
    }

    private func show(_ sections: [Section]) {
        lines = []
        for (i, s) in sections.enumerated() {
            if i > 0 { lines.append(("", .normal)) }
            lines.append((s.heading, .header))
            let hunks = LineDiff.unified(LineDiff.diff(s.old, s.new))
            if hunks.isEmpty {
                lines.append(("  (no difference)", .muted))
                continue
            }
            for h in hunks {
                let role: Role =
                    h.hasPrefix("@@")
                    ? .muted : h.hasPrefix("-") ? .findingError : h.hasPrefix("+") ? .findingInfo : .normal
                lines.append((h, role))
            }
        }
    }

    var contexts: [KeyContext] { [.diffView, .list] }
    var textFocused: Bool { false }
    func handleText(_ key: Key, app: AppContext) -> Bool { false }

    func handle(_ action: Action, app: AppContext) -> Effect? {
        let maxScroll = max(0, lines.count - view.pageHeight)
        switch action {
        case .up: view.scroll = max(0, view.scroll - 1)
        case .down: view.scroll = min(maxScroll, view.scroll + 1)
        case .pageUp: view.scroll = max(0, view.scroll - view.pageHeight)
        case .pageDown: view.scroll = min(maxScroll, view.scroll + view.pageHeight)
        case .top: view.scroll = 0
        case .bottom: view.scroll = maxScroll
        case .scrollRight: shift += 20
        case .scrollLeft: shift = max(0, shift - 20)
        case .back:
            return .all([.pop, onClose])
        case .filter, .undo: return .say("This is a view of differences; Esc goes back.")
        default: return nil
        }
        return Effect.none
    }

    func draw(into buf: inout CellBuffer, _ rect: Rect, app: AppContext, view v: inout View) {
        buf.box(rect, role: .borderFocus, title: legend + "  (↑↓ PgUp PgDn ← → scroll, Esc back)")
        let inner = rect.inset(1)
        v.pageHeight = max(1, inner.height)
        v.scroll = min(v.scroll, max(0, lines.count - v.pageHeight))
        for (i, l) in lines.dropFirst(v.scroll).prefix(inner.height).enumerated() {
            // The +/- marker stays in the first column when scrolled right.
            let text =
                shift == 0 || l.text.isEmpty
                ? l.text : String(l.text.prefix(1)) + "…" + String(l.text.dropFirst(1 + shift))
            buf.put(text, x: inner.x + 1, y: inner.y + i, role: l.role, maxX: inner.maxX)
        }
    }
}
