import ArgumentParser
import Foundation

/// The plain console start (`pushdesk`, `pushdesk --store DIR`, with `--theme NAME` and
/// `--mouse`) without the argument parser's reflection, which is more than half the work
/// before the first frame (docs/PERFORMANCE.md). Anything else — another option, a
/// subcommand, `--help`, a repeated option — returns nil and takes the parser's path, so
/// errors and help read exactly as before.
enum ConsoleFastPath {
    static func command(_ args: [String]) -> ConsoleCommand? {
        var store: String?, theme: String?, mouse = false
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
        var options = StoreOptions()
        options.store = store
        var command = ConsoleCommand()
        command.storeOptions = options
        command.theme = theme
        command.mouse = mouse
        return command
    }
}
