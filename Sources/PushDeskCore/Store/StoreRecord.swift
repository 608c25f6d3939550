import Foundation

/// A kind of record the store holds, one file each: services, deliveries, profiles. `Store`
/// lists, loads, saves (conflict-checked) and deletes any of them with one implementation.
public protocol StoreRecord: Equatable, Sendable {
    /// The record's name (its file name in the store).
    var name: String { get set }
    /// Its kind: folder, root element, merge schema.
    static var kind: RecordKind { get }
    /// Its XML codec.
    static var codec: RecordCodec<Self> { get }
}

/// How a record kind is read from and written to its file: the XML codecs of `XML/`.
public struct RecordCodec<Record>: Sendable {
    /// Decodes a parsed file (its store-relative path, the name its file gives), recording
    /// field positions when given a recorder.
    let decodeTree: @Sendable (XMLNode, _ file: String, _ name: String, SourceMapRecorder?) throws -> Record
    let encode: @Sendable (Record) throws -> String

    /// Parses and decodes a file's bytes.
    func decode(_ data: Data, _ file: String, _ name: String, _ map: SourceMapRecorder?) throws -> Record {
        try decodeTree(XMLReader.parse(data, file: file), file, name, map)
    }
}

extension StoreRecord {
    /// What the record is called in messages ("service", "delivery").
    public static var noun: String { kind.noun }
    /// Its folder in the store (`services`).
    public static var folder: String { kind.folder }

    /// Store-relative path of the record file of this name.
    public static func path(_ name: String) -> String { kind.path(name) }

    /// Its XML as a save writes it; nil when it cannot be written as it is.
    public static func encode(_ record: Self) -> String? { try? codec.encode(record) }

    /// Reads a record from XML (a recovery entry); `file` names it in errors.
    public static func decode(_ xml: [UInt8], file: String) throws -> Self {
        let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        return try codec.decode(Data(xml), file, name, nil)
    }
}

/// A record the console edits as a whole and keeps in recovery files: a service, a delivery
/// or a profile (its test devices).
public protocol EditableRecord: StoreRecord {
    /// Its XML for a recovery file, never failing (see `RecoveryXML`).
    static func recoveryXML(_ record: Self) -> (bytes: [UInt8], replaced: Bool)
}

extension Service: EditableRecord {
    public static var kind: RecordKind { .service }
    public static var codec: RecordCodec<Service> {
        RecordCodec(
            decodeTree: { root, file, _, map in try ServiceXML.decode(root, file: file, recording: map) },
            encode: ServiceXML.encode)
    }
    public static func recoveryXML(_ r: Service) -> (bytes: [UInt8], replaced: Bool) { RecoveryXML.service(r) }
}

extension Delivery: EditableRecord {
    public static var kind: RecordKind { .delivery }
    public static var codec: RecordCodec<Delivery> {
        RecordCodec(
            decodeTree: { root, file, _, map in try DeliveryXML.decode(root, file: file, recording: map) },
            encode: DeliveryXML.encode)
    }
    public static func recoveryXML(_ r: Delivery) -> (bytes: [UInt8], replaced: Bool) { RecoveryXML.delivery(r) }
}

extension Profile: EditableRecord {
    public static var kind: RecordKind { .profile }
    public static func recoveryXML(_ r: Profile) -> (bytes: [UInt8], replaced: Bool) { RecoveryXML.profile(r) }
    public static var codec: RecordCodec<Profile> {
        RecordCodec(
            decodeTree: { root, file, name, map in
                try ProfileXML.decode(root, file: file, name: name, recording: map)
            },
            encode: ProfileXML.encode)
    }
}
