import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The recovery files of a store: `.pushdesk/recovery/USER@HOST.PID.xml`, one per console
/// that had unsaved drafts, each mode 0600 and written atomically (AtomicFile).
public struct RecoveryStore: Sendable {
    public static let relativeDirectory = ".pushdesk/recovery"
    public let root: URL

    public init(storeRoot: URL) { root = storeRoot }

    public var directory: URL { root.appendingPathComponent(Self.relativeDirectory) }

    /// `.pushdesk/recovery/alice@build-01.4242.xml` — names reduced to file-safe characters.
    public static func relativePath(user: String, host: String, pid: Int32) -> String {
        // A loop over scalars: the generic `String(_: some Sequence<Character>)` resolves its
        // types at run time, a visible part of the console's start.
        func safe(_ s: String) -> String {
            var t = String.UnicodeScalarView()
            for c in s.unicodeScalars.prefix(64) {
                let ok =
                    (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "-"
                    || c == "_" || c == "."
                t.append(ok ? c : "_")
            }
            return t.isEmpty || t.first == "." ? "_" + String(t) : String(t)
        }
        return "\(relativeDirectory)/\(safe(user))@\(safe(host)).\(pid).xml"
    }

    /// Writes atomically with mode 0600: the drafts are the operator's unsaved work.
    public func write(_ file: RecoveryFile, to relative: String) throws {
        do {
            try AtomicFile.write(try file.encode(), storeRoot: root, relative: relative, mode: 0o600)
        } catch let e as StoreError { throw e } catch {
            throw StoreError(file: relative, "recovery file not written: \(error)", kind: .io)
        }
    }

    public func remove(_ relative: String) throws {
        if unlink(root.appendingPathComponent(relative).path) != 0 && errno != ENOENT {
            throw StoreError(
                file: relative, "cannot delete the recovery file: \(String(cString: strerror(errno)))", kind: .io)
        }
    }

    /// One recovery file found in the store, or the reason it cannot be read.
    public struct Found: Sendable {
        public var path: String
        public var file: Result<RecoveryFile, StoreError>
    }

    /// Recovery files left by `user`'s consoles, except `excluding` (this console's own).
    /// Only the holder of the store's lock asks: a console writes its file before it lets
    /// the lock go, so every file found then is complete, even if its writer is still
    /// finishing its exit. A file is offered only if it is a regular file owned by this
    /// process's user with mode 0600, as a console writes it: anyone who can write the store
    /// could otherwise plant drafts "from" the operator. Another user's files are left alone
    /// silently; a planted or special file that claims to be ours is reported, not offered.
    public func pending(user: String, excluding: String? = nil) -> [Found] {
        let dir: Int32
        do {
            dir = try SafeFile.openDirectory(root: root.path, relative: Self.relativeDirectory, create: false)
        } catch let r as SafeFile.Refusal {
            guard r.isWrongType else { return [] }
            return [Found(path: r.path, file: .failure(StoreError(file: r.path, "\(r.message)", kind: .io)))]
        } catch { return [] }
        defer { close(dir) }
        let names = (try? SafeFile.entryNames(directory.path)) ?? []
        var found: [Found] = []
        for n in names.sorted() where n.hasSuffix(".xml") && !n.hasPrefix(".") {
            let rel = "\(Self.relativeDirectory)/\(n)"
            if rel == excluding { continue }
            if let f = pendingFile(n, in: dir, relative: rel, user: user) { found.append(f) }
        }
        return found
    }

    private func pendingFile(_ name: String, in dir: Int32, relative rel: String, user: String) -> Found? {
        func refused(_ message: String) -> Found {
            Found(path: rel, file: .failure(StoreError(file: rel, line: 1, column: 1, message, kind: .io)))
        }
        let fd: Int32
        do {
            guard let opened = try SafeFile.openRegular(in: dir, name, flags: O_RDONLY, shownAs: rel) else {
                return nil
            }
            fd = opened
        } catch let r as SafeFile.Refusal {
            // Another user's file (mode 0600) is not ours to read: not offered, left alone.
            if r.code == EACCES { return nil }
            return refused("not offered: \(r.message)")
        } catch { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        let data: Data
        let file: RecoveryFile
        do {
            data = Data(try SafeFile.readAll(fd, maxBytes: XMLReader.maxFileBytes, shownAs: rel))
            file = try RecoveryFile.decode(data, file: rel)
        } catch let e as StoreError {
            return st.st_uid == geteuid() ? Found(path: rel, file: .failure(e)) : nil
        } catch {
            guard st.st_uid == geteuid() else { return nil }
            return Found(path: rel, file: .failure(StoreError(file: rel, "cannot read: \(error)", kind: .io)))
        }
        guard file.user == user else { return nil }
        let mode = UInt32(st.st_mode) & 0o7777
        if st.st_uid != geteuid() || mode != 0o600 {
            let owner = getpwuid(st.st_uid).flatMap { $0.pointee.pw_name.map { String(cString: $0) } }
            return refused(
                "not offered: it names \(Escape.inline(user)) but is owned by \(Escape.inline(owner ?? "uid \(st.st_uid)")) with mode \(FileMode.octal(mode)); a console writes its recovery file owned by its operator, mode 0600 — someone else may have put it here"
            )
        }
        return Found(path: rel, file: .success(file))
    }
}

/// A draft's XML for a recovery file, never failing: a draft may hold characters XML cannot
/// store (a pasted ESC) that would stop a save; here they become U+FFFD and the entry says so.
public enum RecoveryXML {
    public static func service(_ s: Service) -> (bytes: [UInt8], replaced: Bool) {
        if let text = try? ServiceXML.encode(s) { return (Array(text.utf8), false) }
        let clean = s.mappingStrings(replaceForbidden)
        return (Array(((try? ServiceXML.encode(clean)) ?? "").utf8), true)
    }

    public static func profile(_ p: Profile) -> (bytes: [UInt8], replaced: Bool) {
        if let text = try? ProfileXML.encode(p) { return (Array(text.utf8), false) }
        var clean = p
        clean.name = replaceForbidden(p.name)
        clean.fields = p.fields.map { (replaceForbidden($0.name), replaceForbidden($0.value)) }
        clean.subscriptions = p.subscriptions.map {
            Subscription(
                app: replaceForbidden($0.app), token: replaceForbidden($0.token),
                userKey: $0.userKey.map(replaceForbidden), label: $0.label.map(replaceForbidden), kind: $0.kind,
                locale: $0.locale.map(replaceForbidden))
        }
        return (Array(((try? ProfileXML.encode(clean)) ?? "").utf8), true)
    }

    static func replaceForbidden(_ t: String) -> String {
        guard XMLWriter.firstForbiddenCharacter(in: t) != nil else { return t }
        var out = ""
        for c in t.unicodeScalars {
            out.unicodeScalars.append(XMLWriter.firstForbiddenCharacter(in: String(c)) == nil ? c : "\u{FFFD}")
        }
        return out
    }
}

extension Service {
    /// The same service with `f` applied to every text value.
    func mappingStrings(_ f: (String) -> String) -> Service {
        func vars(_ v: [AppVariable]) -> [AppVariable] { v.map { AppVariable(name: f($0.name), label: f($0.label)) } }
        func params(_ p: [SubscriptionParam]) -> [SubscriptionParam] {
            p.map { SubscriptionParam(name: f($0.name), label: f($0.label), field: f($0.field)) }
        }
        // Every text field of the service and app tables (choices and numbers cannot hold a
        // forbidden character).
        func texts<R>(_ table: [FieldDefinition<R>], _ r: inout R) {
            for d in table where d.kind == .text || d.kind == .path { d.set(&r, d.text(r).map(f)) }
        }
        var s = self
        texts(Service.definitions, &s)
        s.apps = apps.map { app in
            switch app {
            case .ios(var a):
                texts(IOSApp.definitions, &a)
                a.variables = vars(a.variables)
                a.subscriptionParams = params(a.subscriptionParams)
                a.sounds = a.sounds.map { Sound(name: f($0.name), label: f($0.label)) }
                a.auth = a.auth.flatMap { IOSAuth(mode: $0.mode, values: $0.values.mapValues(f)) }
                return .ios(a)
            case .android(var a):
                texts(AndroidApp.definitions, &a)
                a.variables = vars(a.variables)
                a.subscriptionParams = params(a.subscriptionParams)
                a.auth = a.auth.flatMap { AndroidAuth(mode: $0.mode, values: $0.values.mapValues(f)) }
                return .android(a)
            }
        }
        return s
    }
}
