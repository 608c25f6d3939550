import Foundation

/// The store as a git repository (SPEC §10.1): the ignore and attribute files, the merge
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

    /// The top of the work tree holding `directory`, nil when it is inside none.
    public static func workTree(of directory: URL) throws -> URL? {
        let r = try GitCommand(directory: directory).run(["rev-parse", "--is-inside-work-tree", "--show-toplevel"])
        let lines = r.output.split(separator: "\n")
        guard r.status == 0, lines.first == "true", let top = lines.last else { return nil }
        return URL(fileURLWithPath: String(top))
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
        guard try workTree(of: store) != nil else {
            throw Refusal(
                description:
                    "\(store.path): error: not inside a git work tree; clone the team's repository, or start one with `pushdesk init --git DIR`"
            )
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
        let env = ProcessInfo.processInfo.environment
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
