import PushDeskCore

/// An open draft that a dropped connection must not lose. The console writes every dirty
/// one into the recovery file and, at the next start, turns each entry back into an open
/// dirty draft (`RecoveryOffers.editor`, one case per kind).
///
/// Every `EditSession` conforms (services and deliveries alike, by the record's kind and
/// XML); `RecoveryOffers.editor` reopens each kind in its editor.
public protocol RecoverableDraft: AnyObject {
    var recordKind: RecordKind { get }
    /// The name the record was read under; nil for a record not saved yet.
    var originalName: String? { get }
    /// Differs from the saved record: worth recovering.
    var isDirty: Bool { get }
    /// What the file was when the draft started from it.
    var baseline: RecordBaseline? { get }
    /// The draft's XML and where it came from, for the recovery file.
    func recoveryEntry() -> RecoveryEntry
}
