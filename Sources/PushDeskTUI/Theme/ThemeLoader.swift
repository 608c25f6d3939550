import Foundation
import PushDeskCore
import TOMLKit

/// Reads themes: TOML files with one table per role (`[list.selected]`), each with
/// `fg`/`bg` (0–255 or a colour name or "default"), `fg16`/`bg16` (a name of the 16
/// colours) and `attrs` (bold, underline, reverse, dim). See docs/THEMES.md.
public enum ThemeLoader {
    public struct LoadError: Error, CustomStringConvertible, Equatable {
        public var file: String, line: Int?, column: Int?, message: String
        public var description: String {
            var loc = file
            if let line {
                loc += ":\(line)"
                if let column { loc += ":\(column)" }
            }
            return "\(loc): error: \(message)"
        }
    }

    /// The theme names available: the built-in ones plus `*.toml` in the theme directories.
    public static func available(directories: [URL] = themeDirectories()) -> [String] {
        var names = Set(BuiltinThemeStyles.names)
        for dir in directories {
            for f in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] where f.hasSuffix(".toml") {
                names.insert(String(f.dropLast(5)))
            }
        }
        return names.sorted { a, b in a == "default" ? true : b == "default" ? false : a < b }
    }

    /// Where theme files are looked up, first match wins: $PUSHDESK_THEMES, then `Themes/`
    /// beside the executable and in its ancestors (the package root when run from .build).
    /// The shipped themes, parsed in (`BuiltinThemeStyles`), are used when no file is found.
    public static func themeDirectories(environment: [String: String] = ProcessEnvironment.read()) -> [URL] {
        var dirs: [URL] = []
        if let env = environment["PUSHDESK_THEMES"], !env.isEmpty { dirs.append(URL(fileURLWithPath: env)) }
        // The executable's real path (/proc/self/exe, free of symbolic links), not argv[0], which
        // may be a bare name from PATH. Read directly: Bundle.main first lists the executable's
        // whole directory (a third of the console's start-up work, docs/PERFORMANCE.md).
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments.first ?? "."))
            .resolvingSymlinksInPath().path
        // Ancestors as paths, one URL at the end: each URL step built and decoded its text.
        var dir = exe.lastIndex(of: "/").map { String(exe[...$0]) } ?? "/"
        for _ in 0..<5 {
            let candidate = (dir.hasSuffix("/") ? String(dir.dropLast()) : dir) + "/Themes"
            if FileManager.default.fileExists(atPath: candidate + "/default.toml") {
                dirs.append(URL(fileURLWithPath: candidate, isDirectory: true))
                break
            }
            if let slash = dir.dropLast().lastIndex(of: "/") { dir = String(dir[...slash]) }
        }
        return dirs
    }

    /// Loads a theme by name from the directories, else the built-in copy.
    public static func load(named name: String, directories: [URL] = themeDirectories()) throws -> Theme {
        for dir in directories {
            let url = dir.appendingPathComponent(name + ".toml")
            if let data = FileManager.default.contents(atPath: url.path) {
                let text = String(decoding: data, as: UTF8.self)
                // The shipped file, unchanged: its values are already parsed in.
                if BuiltinThemeStyles.fingerprints[name] == BuiltinThemeSource.fingerprint(text),
                    let shipped = BuiltinThemeStyles.theme(name)
                {
                    return shipped
                }
                return try parse(text, file: url.path)
            }
        }
        if let shipped = BuiltinThemeStyles.theme(name) { return shipped }
        let known = available(directories: directories).joined(separator: ", ")
        throw LoadError(file: name, line: nil, column: nil, message: "no theme named '\(name)' (known: \(known))")
    }

    /// Loads a theme, falling back to the default one with a message saying why.
    public static func loadOrDefault(named name: String, directories: [URL] = themeDirectories()) -> (Theme, String?) {
        do { return (try load(named: name, directories: directories), nil) } catch {
            return (builtinDefault, "\(error); using the default theme")
        }
    }

    /// The built-in default theme (ThemeTests holds it to the parsed file).
    public static var builtinDefault: Theme { BuiltinThemeStyles.theme("default")! }

    public static func parse(_ text: String, file: String) throws -> Theme {
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let e as TOMLParseError {
            throw LoadError(
                file: file, line: e.source.begin.line, column: e.source.begin.column, message: e.description)
        }
        func fail(_ m: String) -> LoadError { LoadError(file: file, line: nil, column: nil, message: m) }
        let name = table["name"]?.string ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        var styles = RoleTable<Style>()
        // Walk nested tables: [list.selected] is table "list" → table "selected".
        func walk(_ t: TOMLTable, prefix: String) throws {
            for key in t.keys {
                guard let sub = t[key]?.table else {
                    if prefix.isEmpty, key == "name" || key == "description" { continue }
                    throw fail("unknown entry '\(prefix.isEmpty ? key : prefix + "." + key)'")
                }
                let path = prefix.isEmpty ? key : prefix + "." + key
                if let role = Role(rawValue: path) {
                    styles[role] = try style(sub, role: path, fail: fail)
                } else if sub.keys.contains(where: { ["fg", "bg", "fg16", "bg16", "attrs"].contains($0) }) {
                    let known = Role.allCases.map(\.rawValue).joined(separator: ", ")
                    throw fail("unknown role '\(path)' (roles: \(known))")
                } else {
                    try walk(sub, prefix: path)
                }
            }
        }
        try walk(table, prefix: "")
        guard styles[.normal] != nil else { throw fail("missing role 'screen.normal'") }
        return Theme(name: name, styles: styles)
    }

    typealias Style = Theme.Style

    private static func style(_ t: TOMLTable, role: String, fail: (String) -> LoadError) throws -> Style {
        var s = Style()
        for key in t.keys {
            let v = t[key]!
            switch key {
            case "fg", "bg":
                let c = try color(v, allow256: true, what: "\(role).\(key)", fail: fail)
                if key == "fg" { s.fg = c } else { s.bg = c }
            case "fg16", "bg16":
                let c = try color(v, allow256: false, what: "\(role).\(key)", fail: fail)
                if key == "fg16" { s.fg16 = c } else { s.bg16 = c }
            case "attrs":
                guard let arr = v.array else { throw fail("\(role).attrs must be a list like [\"bold\"]") }
                for a in arr {
                    switch a.string {
                    case "bold": s.bold = true
                    case "underline": s.underline = true
                    case "reverse": s.reverse = true
                    case "dim": s.dim = true
                    default:
                        throw fail(
                            "\(role).attrs: unknown attribute '\(a.string ?? "?")' (bold, underline, reverse, dim)")
                    }
                }
            default: throw fail("\(role): unknown key '\(key)' (fg, bg, fg16, bg16, attrs)")
            }
        }
        // A role with 256 colours but no 16-colour fallback keeps working on 16-colour terminals.
        if s.fg16 == -1, (0...15).contains(s.fg) { s.fg16 = s.fg }
        if s.bg16 == -1, (0...15).contains(s.bg) { s.bg16 = s.bg }
        return s
    }

    private static func color(_ v: TOMLValueConvertible, allow256: Bool, what: String, fail: (String) -> LoadError)
        throws -> Int
    {
        if let n = v.int {
            guard allow256 else {
                throw fail("\(what) must be one of the 16 colour names (\(Theme.colorNames.joined(separator: ", ")))")
            }
            guard (0...255).contains(n) else { throw fail("\(what) = \(n) is outside 0–255") }
            return n
        }
        if let s = v.string {
            if s == "default" { return -1 }
            if let i = Theme.colorNames.firstIndex(of: s) { return i }
            throw fail("\(what): unknown colour '\(s)' (0–255, default, \(Theme.colorNames.joined(separator: ", ")))")
        }
        throw fail("\(what) must be a number 0–255 or a colour name")
    }
}
