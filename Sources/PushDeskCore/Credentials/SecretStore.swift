import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A secret's bytes, held so that printing it by mistake shows nothing: `description`,
/// `debugDescription` and reflection (`dump`, crash output) all give `<hidden>`.
public struct SecretValue: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The raw bytes; only for the code that hands the secret to its consumer (openssl's stdin).
    public let bytes: [UInt8]

    public init(_ text: String) { bytes = Array(text.utf8) }
    public init(bytes: [UInt8]) { self.bytes = bytes }

    public var isEmpty: Bool { bytes.isEmpty }
    public var description: String { "<hidden>" }
    public var debugDescription: String { "<hidden>" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// Where a `passwordRef` / `serverKeyRef` points (docs/SECRETS.md):
/// - `NAME` → the file `STORE/secrets/NAME` (directory 0700, file 0600);
/// - `env:VARNAME` → the environment variable VARNAME of the pushdesk process.
public enum SecretRef: Equatable, Sendable, CustomStringConvertible {
    case file(String)
    case environment(String)

    /// Nil when the reference is malformed (see `isValidName`).
    public init?(_ text: String) {
        if text.hasPrefix("env:") {
            let name = String(text.dropFirst(4))
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || isASCIIAlnum($0) }),
                !(name.utf8.first.map { (48...57).contains($0) } ?? true)
            else { return nil }
            self = .environment(name)
        } else {
            guard SecretRef.isValidName(text) else { return nil }
            self = .file(text)
        }
    }

    /// A secret file name: 1–100 of `A-Z a-z 0-9 . _ -`, not starting with `.` — it can never
    /// leave `secrets/` nor be hidden.
    public static func isValidName(_ name: String) -> Bool {
        guard (1...100).contains(name.utf8.count), name.first != "." else { return false }
        return name.utf8.allSatisfy {
            isASCIIAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    public var description: String {
        switch self {
        case .file(let n): n
        case .environment(let v): "env:" + v
        }
    }
}

private func isASCIIAlnum(_ c: UInt8) -> Bool {
    (48...57).contains(c) || (65...90).contains(c) || (97...122).contains(c)
}

public struct SecretError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable { case invalidReference, missing, io }
    public var kind: Kind
    /// Never contains the secret: only the reference and where it was looked for.
    public var message: String
    public var description: String { message }
}

/// The store's secrets: passwords of .p12 bundles and FCM legacy server keys, kept out of
/// `services/` (which hold only references) in `STORE/secrets/`, one file per secret.
public struct SecretStore: Sendable {
    public static let directoryName = "secrets"

    public let storeRoot: URL
    private let environment: [String: String]

    public init(storeRoot: URL, environment: [String: String] = ProcessEnvironment.read()) {
        self.storeRoot = storeRoot
        self.environment = environment
    }

    public var directory: URL { storeRoot.appendingPathComponent(Self.directoryName, isDirectory: true) }

    /// Store-relative path of a file secret, for messages: `secrets/NAME`.
    public static func relativePath(_ name: String) -> String { directoryName + "/" + name }

    public func read(_ reference: String) throws -> SecretValue {
        guard let ref = SecretRef(reference) else { throw Self.invalid(reference) }
        switch ref {
        case .environment(let name):
            guard let v = environment[name] else {
                throw SecretError(
                    kind: .missing, message: "secret \(reference): the environment variable \(name) is not set")
            }
            return SecretValue(v)
        case .file(let name):
            let shown = Self.relativePath(name)
            let bytesRead: [UInt8]
            do {
                // No link followed, no FIFO opened blocking (SafeFile): the store may be shared.
                let dir = try SafeFile.openDirectory(root: storeRoot.path, relative: Self.directoryName, create: false)
                defer { close(dir) }
                guard let fd = try SafeFile.openRegular(in: dir, name, flags: O_RDONLY, shownAs: shown) else {
                    throw SafeFile.Refusal(path: shown, message: "", isWrongType: false, code: ENOENT)
                }
                defer { close(fd) }
                bytesRead = try SafeFile.readAll(fd, maxBytes: Self.maxBytes + 2, shownAs: shown)
            } catch let r as SafeFile.Refusal {
                if r.code == ENOENT {
                    throw SecretError(
                        kind: .missing,
                        message:
                            "secret \(reference): \(shown) does not exist; set it with `pushdesk credentials set-secret \(name)` or the console's masked entry"
                    )
                }
                throw SecretError(kind: .io, message: "secret \(reference): \(r.description)")
            }
            var bytes = bytesRead
            // One trailing newline is what `echo … > file` adds; it is not part of the secret.
            if bytes.last == 0x0A {
                bytes.removeLast()
                if bytes.last == 0x0D { bytes.removeLast() }
            }
            return SecretValue(bytes: bytes)
        }
    }

    /// The most bytes a secret may have: a .p12 password or an FCM server key is far
    /// shorter; anything larger is a wrong file or a mistake on standard input.
    public static let maxBytes = 4096

    public func exists(_ reference: String) -> Bool { (try? read(reference)) != nil }

    /// Names of the file secrets, sorted.
    public func names() -> [String] {
        let items = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return items.filter { SecretRef.isValidName($0) }.sorted()
    }

    /// Writes a file secret atomically, 0600 from its creation (open mode, not a later chmod),
    /// in a directory created 0700. `env:` references cannot be set from here.
    public func set(_ reference: String, to value: SecretValue) throws {
        guard let ref = SecretRef(reference) else { throw Self.invalid(reference) }
        guard case .file(let name) = ref else {
            throw SecretError(
                kind: .invalidReference,
                message: "secret \(reference) is read from the environment; set the variable instead")
        }
        guard value.bytes.count <= Self.maxBytes else {
            throw SecretError(
                kind: .invalidReference,
                message:
                    "the secret is longer than \(Self.maxBytes) bytes, the most a secret (a password, a server key) may have; nothing written"
            )
        }
        // Atomic, 0600 from its creation, in a directory created 0700, never through a link.
        do {
            try AtomicFile.write(
                value.bytes, storeRoot: storeRoot, relative: Self.relativePath(name), mode: 0o600, directoryMode: 0o700)
        } catch let e as AtomicWriteError {
            throw SecretError(kind: .io, message: "cannot write \(Self.relativePath(name)): \(e.message)")
        }
    }

    public func remove(_ reference: String) throws {
        guard case .file(let name)? = SecretRef(reference) else { throw Self.invalid(reference) }
        let path = directory.appendingPathComponent(name).path
        if unlink(path) != 0 && errno != ENOENT { throw Self.io("cannot remove \(Self.relativePath(name))", errno) }
    }

    private static func invalid(_ reference: String) -> SecretError {
        SecretError(
            kind: .invalidReference,
            message:
                "secret reference \"\(Escape.inline(reference, limit: .max))\" is not valid: use a name of letters, digits, '.', '_' or '-' (a file in secrets/), or env:VARNAME"
        )
    }

    private static func io(_ what: String, _ code: Int32) -> SecretError {
        SecretError(kind: .io, message: what + ": " + String(cString: strerror(code)))
    }
}

/// Permission bits of files holding secrets or private keys.
public enum FileMode {
    /// The mode bits (e.g. 0o644) of a path, nil when it cannot be stat'ed.
    public static func of(_ path: String) -> UInt32? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return UInt32(st.st_mode) & 0o7777
    }

    /// True when group or others have any access (the `secret.permissions` warning).
    public static func isOpenToOthers(_ mode: UInt32) -> Bool { mode & 0o077 != 0 }

    public static func octal(_ mode: UInt32) -> String {
        let s = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
