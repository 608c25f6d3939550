import Foundation

/// The plain console start (`pushdesk`, `pushdesk --store DIR`, with `--theme NAME` and
/// `--mouse`) without the argument parser: neither its reflection nor even the command's
/// property wrappers, which are most of the work before the first frame
/// (docs/PERFORMANCE.md). Anything else — another option, a subcommand, `--help`, a
/// repeated option — returns nil and takes the parser's path, so errors and help read
/// exactly as before.
enum ConsoleFastPath {
    struct Start {
        var store: String?
        var theme: String?
        var mouse: Bool
    }

    static func command(_ args: [String]) -> Start? {
        var store: String?
        var theme: String?
        var mouse = false
        var i = 0
        func value(_ name: String) -> String?? {
            // `--name VALUE` or `--name=VALUE`; nil when this is not `name`.
            let a = args[i]
            if a == name {
                guard i + 1 < args.count, !args[i + 1].hasPrefix("-") else { return .some(nil) }
                i += 1
                return .some(args[i])
            }
            if a.hasPrefix(name + "=") { return .some(String(a.dropFirst(name.count + 1))) }
            return nil
        }
        while i < args.count {
            if let v = value("--store") {
                guard let v, store == nil else { return nil }
                store = v
            } else if let v = value("--theme") {
                guard let v, theme == nil else { return nil }
                theme = v
            } else if args[i] == "--mouse", !mouse {
                mouse = true
            } else {
                return nil
            }
            i += 1
        }
        return Start(store: store, theme: theme, mouse: mouse)
    }
}
