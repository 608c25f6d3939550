import PushDeskCore

/// A record the console edits as a whole: a service or a delivery.
public protocol EditableRecord: Equatable, Sendable {
    /// The record's name (its file name in the store).
    var name: String { get }
    /// What the record is called in messages ("service", "delivery").
    static var noun: String { get }
}

extension Service: EditableRecord { public static var noun: String { "service" } }
extension Delivery: EditableRecord { public static var noun: String { "delivery" } }

/// What the console needs from any open session, whatever it edits: dirty state, the
/// version that changes on every edit, undo, and the name to ask about.
public protocol DraftSession: AnyObject {
    var isDirty: Bool { get }
    var version: Int { get }
    var canUndo: Bool { get }
    @discardableResult func undo() -> Bool
    func markSaved()
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

    public init(original: Record?, draft: Record) { self.original = original; self.draft = draft }

    public var isDirty: Bool { original != draft }
    public var canUndo: Bool { !undoStack.isEmpty }
    public var displayName: String { draft.name.isEmpty ? "the new \(Record.noun)" : "'\(draft.name)'" }

    /// Applies an edit; `key` names the field so typing in it is one undo step.
    public func edit(_ key: String?, _ change: (inout Record) -> Void) {
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

    /// After a successful save the draft is the saved state.
    public func markSaved() { original = draft; lastEditKey = nil; version += 1 }
}

public typealias ServiceSession = EditSession<Service>
public typealias DeliverySession = EditSession<Delivery>
