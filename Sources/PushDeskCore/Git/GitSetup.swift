import Foundation

/// The store as a git repository (docs/TEAMS.md): the ignore and attribute files, the merge
/// driver in the repository's local config, and `init --git`'s first commit.
public enum GitSetup {
    public static let ignoreFile = ".gitignore"
    public static let attributesFile = ".gitattributes"
    /// Never committed: the lock, send log and recovery files; the secrets (docs/SECRETS.md).
    public static let ignoreLines = [".pushdesk/", "secrets/"]
    public static let attributeLines = RecordKind.allCases.map { "\($0.folder)/*.xml merge=pushdesk" }
    /// Path components under which nothing is ever committed by PushDesk.
    public static let neverCommitted: Set<String> = [".pushdesk", "secrets"]
    public static let driverName = "PushDesk records, merged field by field"

    /// What a set-up changed (empty when it was already done).
    public struct Changes: Equatable, Sendable {
        /// Files written in the store directory (`.gitignore`, `.gitattributes`).
        public var files: [String] = []
        /// The local config keys set (`merge.pushdesk.driver`, …).
        public var config: [String] = []
        public var isEmpty: Bool { files.isEmpty && config.isEmpty }
    }

    /// A refusal: exit 2, with what to do.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Where a directory stands in git. A directory that its enclosing work tree ignores
    /// (`.demo-store/` in the PushDesk clone) is not in git: none of its files can be
    /// committed there, and that repository's branch is not the store's.
    public enum Placement: Equatable, Sendable {
        /// In no work tree (or git is not installed).
        case outside
        /// Inside the work tree `workTree`, which ignores it by `rule` (`.gitignore:1:.demo-store/`).
        case ignored(workTree: URL, rule: String)
        /// In the work tree `workTree`, at `prefix` (`team/store/`, empty at the top).
        case inside(workTree: URL, prefix: String)
    }

    /// Reads the placement of `directory` (`git rev-parse`, then `git check-ignore` when it is
    /// below the top of the work tree).
    public static func placement(of directory: URL) throws -> Placement {
        guard GitCommand.executable() != nil else { return .outside }
        let git = GitCommand(directory: directory)
        let r = try git.run(["rev-parse", "--is-inside-work-tree", "--show-toplevel", "--show-prefix"])
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard r.status == 0, lines.count >= 2, lines[0] == "true" else { return .outside }
        let top = URL(fileURLWithPath: lines[1])
        let prefix = lines.count > 2 ? lines[2] : ""
        if !prefix.isEmpty {
            // `-v`: `source:line:pattern<TAB>path` on stdout, exit 0, when `.` is ignored.
            let ignored = try git.run(["check-ignore", "-v", "--", "."])
            if ignored.status == 0 {
                let rule = ignored.output.split(separator: "\t").first.map(String.init) ?? ""
                return .ignored(workTree: top, rule: rule)
            }
        }
        return .inside(workTree: top, prefix: prefix)
    }

    /// The top of the work tree holding `directory`, nil when it is in none or that work
    /// tree ignores it.
    public static func workTree(of directory: URL) throws -> URL? {
        guard case .inside(let top, _) = try placement(of: directory) else { return nil }
        return top
    }

    /// The driver line of the config: this binary, then git's placeholders. A path holding
    /// spaces (or any character the shell would read) is single-quoted: git runs it with sh.
    public static func driverCommand(binary: String) -> String {
        let plain = binary.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "/._-+@:,".unicodeScalars.contains($0)
        }
        let quoted = plain ? binary : "'" + binary.replacingOccurrences(of: "'", with: "'\\''") + "'"
        return quoted + " merge-driver %O %A %B %P"
    }

    /// `pushdesk git-setup`: adds the missing lines of the two files in the store directory
    /// and sets the merge driver in the local config (a path another machine left is
    /// replaced). Commits nothing; a second run changes nothing.
    public static func setUp(store: URL, binary: String) throws -> Changes {
        switch try placement(of: store) {
        case .outside:
            throw Refusal(
                description:
                    "\(store.path): error: not inside a git work tree; clone the team's repository, or start one with `pushdesk init --git DIR`"
            )
        case .ignored(let top, let rule):
            throw Refusal(
                description:
                    "\(store.path): error: not in git: the work tree at \(Escape.inline(top.path, limit: 4096)) ignores this directory (\(Escape.inline(rule, limit: 400))), so nothing of the store can be committed there; start the store's own repository with `git init` in it, or stop ignoring it"
            )
        case .inside: break
        }
        var changes = Changes()
        if try addMissingLines(ignoreLines, to: store.appendingPathComponent(ignoreFile)) {
            changes.files.append(ignoreFile)
        }
        if try addMissingLines(attributeLines, to: store.appendingPathComponent(attributesFile)) {
            changes.files.append(attributesFile)
        }
        let git = GitCommand(directory: store)
        for (key, value) in [
            ("merge.pushdesk.name", driverName), ("merge.pushdesk.driver", driverCommand(binary: binary)),
        ] {
            let current = try git.run(["config", "--local", "--get", key])
            if current.status == 0, current.output == value { continue }
            try git.check(["config", "--local", key, value])
            changes.config.append(key)
        }
        return changes
    }

    /// Appends the lines `file` lacks (compared without surrounding white space); true when written.
    static func addMissingLines(_ lines: [String], to url: URL) throws -> Bool {
        var text = ""
        if FileManager.default.fileExists(atPath: url.path) {
            text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        }
        let present = Set(text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) })
        let missing = lines.filter { !present.contains($0) }
        guard !missing.isEmpty else { return false }
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        text += missing.joined(separator: "\n") + "\n"
        try AtomicFile.write(Array(text.utf8), to: url)
        return true
    }

    /// Paths under the store that are tracked or staged and must never be committed
    /// (`secrets/`, `.pushdesk/` at any depth), relative to the store.
    public static func forbiddenPaths(store: URL) throws -> [String] {
        let r = try GitCommand(directory: store).check(["ls-files", "-z", "--", "."])
        return r.stdout.split(separator: "\0").map(String.init).filter(isForbidden)
    }

    /// Refuses, naming the paths, when a secret or local file is tracked or staged.
    public static func checkNothingForbidden(store: URL) throws {
        let paths = try forbiddenPaths(store: store)
        guard paths.isEmpty else {
            throw Refusal(
                description:
                    "\(store.path): error: refusing to commit: these paths must never be in git but are tracked or staged: \(paths.map { Escape.inline($0) }.joined(separator: ", ")); remove them from the index with `git rm --cached` (the files stay)"
            )
        }
    }

    /// The identity of a commit PushDesk makes: git's configured one, else `PushDesk <user@host>`
    /// (as environment variables for git; empty when git has one).
    public static func fallbackIdentity(store: URL) throws -> [String: String] {
        let git = GitCommand(directory: store)
        let env = ProcessEnvironment.read()
        func configured(_ variable: String, _ key: String) throws -> Bool {
            if let v = env[variable], !v.isEmpty { return true }
            let r = try git.run(["config", "--get", key])
            return r.status == 0 && !r.output.isEmpty
        }
        if try configured("GIT_AUTHOR_NAME", "user.name"), try configured("GIT_AUTHOR_EMAIL", "user.email") {
            return [:]
        }
        let email = "\(ProcessIdentity.user)@\(ProcessIdentity.host)"
        return [
            "GIT_AUTHOR_NAME": "PushDesk", "GIT_AUTHOR_EMAIL": email,
            "GIT_COMMITTER_NAME": "PushDesk", "GIT_COMMITTER_EMAIL": email,
        ]
    }

    /// `init --git`: commits exactly `paths` (relative to the store; what init wrote), after
    /// checking nothing forbidden is tracked or staged. Other staged changes stay staged.
    public static func commitInit(store: URL, paths: [String], message: String) throws {
        try checkNothingForbidden(store: store)
        var git = GitCommand(directory: store)
        let ignored = try git.run(["check-ignore", "--no-index", "--"] + paths).stdout
            .split(separator: "\n").map(String.init)
        let toCommit = paths.filter { !ignored.contains($0) && !isForbidden($0) }
        guard !toCommit.isEmpty else { return }
        try git.check(["add", "--"] + toCommit)
        git.environment = try fallbackIdentity(store: store)
        try git.check(["commit", "-q", "--no-verify", "-m", message, "--only", "--"] + toCommit)
    }

    /// A path under `secrets/` or `.pushdesk/` (at any depth, as the ignore lines match).
    static func isForbidden(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().contains { neverCommitted.contains(String($0)) }
    }
}
