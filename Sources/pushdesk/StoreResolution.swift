import ArgumentParser
import Foundation
import PushDeskCore

/// Exit codes of every command (README.md).
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
        let env = ProcessEnvironment.read()
        if let s = env["PUSHDESK_STORE"], !s.isEmpty { return URL(fileURLWithPath: s) }
        let data =
            env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return URL(fileURLWithPath: data).appendingPathComponent("pushdesk")
    }

    static func isExplicit(store: String?) -> Bool {
        (store.map { !$0.isEmpty } ?? false) || !(ProcessEnvironment.read()["PUSHDESK_STORE"] ?? "").isEmpty
    }

    /// The store, ready to use. The default store is created with the demo content on first
    /// use; a store named explicitly must exist (a typo should not silently create one).
    static func openStore(store: String?) throws -> Store {
        // `--store ""` (an unset variable in a script) must not fall back to the default
        // store: a CI step would validate the demo and pass.
        if store?.isEmpty == true {
            printError("pushdesk: error: --store is empty; give the store's directory (is a variable unset?)")
            throw Exit.usageOrIO
        }
        let url = resolvedURL(store: store)
        // The path comes from an argument or the environment: escaped before a terminal.
        let path = url.plainPath
        let shown = Escape.inline(path, limit: 4096)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
            guard isDir.boolValue else {
                printError("\(shown): error: the store must be a directory; pass --store DIR")
                throw Exit.usageOrIO
            }
            return Store(root: url)
        }
        guard !isExplicit(store: store) else {
            printError(
                "\(shown): error: no store here; create one with `pushdesk init \(shown)` (add --demo for the Neotrips example)"
            )
            throw Exit.usageOrIO
        }
        do {
            try DemoStore.write(to: url)
            printError("pushdesk: created the default store with the demo content at \(shown)")
        } catch {
            printError("\(shown): error: cannot create the default store: \(Escape.inline("\(error)", limit: 4096))")
            throw Exit.usageOrIO
        }
        return Store(root: url)
    }
}
