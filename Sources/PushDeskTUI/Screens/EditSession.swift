import PushDeskCore

/// The record being edited: the saved version, the draft, and undo history. Shared by
/// the service editor and the app editors it opens, so that one Ctrl-S saves it all.
public final class EditSession {
    /// The service as saved, nil for a new service not yet saved.
    public private(set) var original: Service?
    public private(set) var draft: Service
    private var undoStack: [Service] = []
    /// Consecutive edits of one field coalesce into one undo step.
    private var lastEditKey: String?
    /// Bumped on every change so views know to refresh from the draft.
    public private(set) var version = 0
    /// What the file was when `original` was read (`.absent` for a new service): a save
    /// writes only if the disk still matches. Set by the console when the editor opens.
    public var baseline: RecordBaseline?
    /// In a read-only console (another operator holds the store's lock) nothing changes the draft.
    public var readOnly = false

    public init(original: Service?, draft: Service, baseline: RecordBaseline? = nil) {
        self.original = original; self.draft = draft; self.baseline = baseline
    }

    public var isDirty: Bool { original != draft }
    public var canUndo: Bool { !undoStack.isEmpty }

    /// Applies an edit; `key` names the field so typing in it is one undo step.
    public func edit(_ key: String?, _ change: (inout Service) -> Void) {
        guard !readOnly else { return }
        var next = draft
        change(&next)
        guard next != draft else { return }
        if key == nil || key != lastEditKey { undoStack.append(draft); if undoStack.count > 200 { undoStack.removeFirst() } }
        lastEditKey = key
        draft = next
        version += 1
    }

    /// Restores the state before the last edit step; false when there is none.
    @discardableResult
    public func undo() -> Bool {
        guard let prev = undoStack.popLast() else { return false }
        draft = prev; lastEditKey = nil; version += 1
        return true
    }

    /// After a successful save the draft is the saved state, and the bytes written the baseline.
    public func markSaved(baseline: RecordBaseline? = nil) {
        original = draft; lastEditKey = nil; version += 1
        if let baseline { self.baseline = baseline }
    }

    /// Starts over from the file as it is on disk now (after a conflict: "reload").
    public func reset(to saved: Service, baseline: RecordBaseline) {
        original = saved; draft = saved; self.baseline = baseline
        undoStack = []; lastEditKey = nil; version += 1
    }
}

extension EditSession: RecoverableDraft {
    public var recordKind: RecordKind { .service }
    public var originalName: String? { original?.name }

    public func recoveryEntry() -> RecoveryEntry {
        let (xml, replaced) = RecoveryXML.service(draft)
        return RecoveryEntry(kind: .service, name: draft.name, original: original?.name,
                             baseline: baseline ?? .absent, xml: xml, replacedCharacters: replaced)
    }
}
