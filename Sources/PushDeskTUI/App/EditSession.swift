import Foundation
import PushDeskCore

// `EditableRecord` (a service or a delivery, its codec and recovery XML) is PushDeskCore's:
// Store/StoreRecord.swift.

/// What the console needs from any open session, whatever it edits: dirty state, the
/// version that changes on every edit, undo, the file it started from (a save checks the
/// disk still matches), read-only mode, and what a recovery file needs.
public protocol DraftSession: RecoverableDraft {
    associatedtype Record: EditableRecord
    var original: Record? { get }
    var draft: Record { get }
    var version: Int { get }
    var canUndo: Bool { get }
    var baseline: RecordBaseline? { get set }
    var readOnly: Bool { get set }
    @discardableResult func undo() -> Bool
    func markSaved(baseline: RecordBaseline?)
    func reset(to saved: Record, baseline: RecordBaseline)
    /// "'neotrips'" or "the new service", for dialogs.
    var displayName: String { get }
}

/// The record being edited: the saved version, the draft, and undo history. A service's
/// session is shared by the service editor and the app editors it opens, so that one
/// Ctrl-S saves it all; a delivery's by the composer.
public final class EditSession<Record: EditableRecord>: DraftSession {
    /// The record as saved, nil for a new record not yet saved.
    public private(set) var original: Record?
    public private(set) var draft: Record
    private var undoStack: [Record] = []
    /// Consecutive edits of one field coalesce into one undo step.
    private var lastEditKey: String?
    /// Bumped on every change so views know to refresh from the draft.
    public private(set) var version = 0
    /// What the file was when `original` was read (`.absent` for a new record): a save
    /// writes only if the disk still matches. Set by the console when the editor opens.
    public var baseline: RecordBaseline?
    /// In a read-only console (another operator holds the store's lock) nothing changes the draft.
    public var readOnly = false

    public init(original: Record?, draft: Record, baseline: RecordBaseline? = nil) {
        self.original = original
        self.draft = draft
        self.baseline = baseline
    }

    public var isDirty: Bool { original != draft }
    public var canUndo: Bool { !undoStack.isEmpty }
    public var displayName: String { draft.name.isEmpty ? "the new \(Record.noun)" : "'\(draft.name)'" }

    /// Applies an edit; `key` names the field so typing in it is one undo step.
    public func edit(_ key: String?, _ change: (inout Record) -> Void) {
        guard !readOnly else { return }
        var next = draft
        change(&next)
        guard next != draft else { return }
        if key == nil || key != lastEditKey {
            undoStack.append(draft)
            if undoStack.count > 200 { undoStack.removeFirst() }
        }
        lastEditKey = key
        draft = next
        version += 1
    }

    /// Restores the state before the last edit step; false when there is none.
    @discardableResult
    public func undo() -> Bool {
        guard let prev = undoStack.popLast() else { return false }
        draft = prev
        lastEditKey = nil
        version += 1
        return true
    }

    /// After a successful save the draft is the saved state, and the bytes written the baseline.
    public func markSaved(baseline: RecordBaseline? = nil) {
        original = draft
        lastEditKey = nil
        version += 1
        if let baseline { self.baseline = baseline }
    }

    /// Starts over from the file as it is on disk now (after a conflict: "reload").
    public func reset(to saved: Record, baseline: RecordBaseline) {
        original = saved
        draft = saved
        self.baseline = baseline
        undoStack = []
        lastEditKey = nil
        version += 1
    }
}

extension EditSession: RecoverableDraft {
    public var recordKind: RecordKind { Record.kind }
    public var originalName: String? { original?.name }

    public func recoveryEntry() -> RecoveryEntry {
        let (xml, replaced) = Record.recoveryXML(draft)
        return RecoveryEntry(
            kind: Record.kind, name: draft.name, original: original?.name,
            baseline: baseline ?? .absent, xml: xml, replacedCharacters: replaced)
    }
}

extension DraftSession {
    /// The draft's name (possibly empty: drafts are unfinished).
    public var draftName: String { draft.name }
    /// The draft's XML as Ctrl-S would write it; nil when it cannot be written as it is.
    public var encodedDraft: String? { Record.encode(draft) }
}

public typealias ServiceSession = EditSession<Service>
public typealias DeliverySession = EditSession<Delivery>
