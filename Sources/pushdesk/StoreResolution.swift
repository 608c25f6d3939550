import ArgumentParser
import Foundation
import PushDeskCore

/// Exit codes of every command (SPEC §7).
enum Exit {
    static let inputErrors = ExitCode(1)
    static let usageOrIO = ExitCode(2)
}

/// Writes a line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

extension StoreOptions {
    var resolvedURL: URL { Self.resolvedURL(store: store) }
    var isExplicit: Bool { Self.isExplicit(store: store) }
    func openStore() throws -> Store { try Self.openStore(store: store) }

    /// --store, else $PUSHDESK_STORE, else $XDG_DATA_HOME/pushdesk (~/.local/share/pushdesk).
    static func resolvedURL(store: String?) -> URL {
        // --store first: the environment dictionary is built only when needed.
        if let s = store, !s.isEmpty { return URL(fileURLWithPath: s) }
        let env = ProcessInfo.processInfo.environment
        if let s = env["PUSHDESK_STORE"], !s.isEmpty { return URL(fileURLWithPath: s) }
        let data =
            env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return URL(fileURLWithPath: data).appendingPathComponent("pushdesk")
    }

    static func isExplicit(store: String?) -> Bool {
        (store.map { !$0.isEmpty } ?? false) || !(ProcessInfo.processInfo.environment["PUSHDESK_STORE"] ?? "").isEmpty
    }

    /// The store, ready to use. The default store is created with the demo content on first
    /// use; a store named explicitly must exist (a typo should not silently create one).
    static func openStore(store: String?) throws -> Store {
        let url = resolvedURL(store: store)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) {
            guard isDir.boolValue else {
                printError("\(url.path): error: the store must be a directory; pass --store DIR")
                throw Exit.usageOrIO
            }
            return Store(root: url)
        }
        guard !isExplicit(store: store) else {
            printError(
                "\(url.path): error: no store here; create one with `pushdesk init \(url.path)` (add --demo for the Neotrips example)"
            )
            throw Exit.usageOrIO
        }
        do {
            try DemoStore.write(to: url)
            printError("pushdesk: created the default store with the demo content at \(url.path)")
        } catch {
            printError("\(url.path): error: cannot create the default store: \(error)")
            throw Exit.usageOrIO
        }
        return Store(root: url)
    }
}
