import Foundation

/// What the console shows of a store in a git work tree (docs/TEAMS.md): the branch, how far it
/// is ahead of and behind its upstream, each record file's state, and whether a rebase
/// waits to be finished. Read from `git status --porcelain=v2` — git's stable format for
/// programs — so the console says what `git status` says.
public struct GitStatus: Equatable, Sendable {
    public enum FileState: String, Equatable, Sendable {
        /// Tracked and modified (or deleted), staged or not.
        case changed
        /// Not tracked yet, or added and not committed.
        case new
        /// Unmerged: a merge or rebase left a conflict in it.
        case conflicted
    }

    /// The branch checked out; nil when HEAD is detached (during a rebase, for one).
    public var branch: String?
    /// The branch's upstream (`origin/main`); nil when it has none.
    public var upstream: String?
    public var ahead = 0
    public var behind = 0
    /// Store-relative paths (`services/neotrips.xml`) of files that differ from HEAD.
    public var files: [String: FileState] = [:]
    /// Those of `files` that are deleted (in the index or the work tree): a commit removes them.
    public var deleted: Set<String> = []
    /// A rebase stopped half-way (a conflict, or a console that hung up during a sync).
    public var rebasing = false

    public init(
        branch: String? = nil, upstream: String? = nil, ahead: Int = 0, behind: Int = 0,
        files: [String: FileState] = [:], rebasing: Bool = false
    ) {
        self.branch = branch
        self.upstream = upstream
        self.ahead = ahead
        self.behind = behind
        self.files = files
        self.rebasing = rebasing
    }

    /// The title's words: `main ↑1 ↓2`, `main (no upstream)`, `rebasing`. Arrows only when
    /// non-zero, so a branch level with its upstream reads `main`.
    public var summary: String {
        var parts = [branch.map { Escape.inline($0, limit: 40) } ?? "detached"]
        if upstream == nil {
            if branch != nil { parts.append("(no upstream)") }
        } else {
            if ahead > 0 { parts.append("↑\(ahead)") }
            if behind > 0 { parts.append("↓\(behind)") }
        }
        if rebasing { parts.append("rebasing") }
        return parts.joined(separator: " ")
    }

    /// The state of one store-relative path; nil when it is committed as it is.
    public func state(of path: String) -> FileState? { files[path] }

    /// Reads the state of the work tree holding `store`; nil when the store is in none, when
    /// that work tree ignores it (it is not in git: `GitSetup.Placement`), or when git is not
    /// installed: the console then looks exactly as it does without git.
    public static func read(store: URL) -> GitStatus? {
        guard case .inside(_, let storePrefix) = try? GitSetup.placement(of: store) else { return nil }
        let git = GitCommand(directory: store)
        guard
            let r = try? git.run([
                "status", "--porcelain=v2", "--branch", "--untracked-files=all", "-z", "--", ".",
            ]), r.status == 0
        else { return nil }
        var status = parse(r.stdout, prefix: storePrefix)
        status.rebasing = rebaseInProgress(git)
        return status
    }

    /// Whether git's rebase directories exist (what `git status` reads to say "rebase in progress").
    static func rebaseInProgress(_ git: GitCommand) -> Bool {
        for dir in ["rebase-merge", "rebase-apply"] {
            guard let r = try? git.run(["rev-parse", "--git-path", dir]), r.status == 0 else { continue }
            let path = r.output.hasPrefix("/") ? r.output : git.directory.appendingPathComponent(r.output).path
            if FileManager.default.fileExists(atPath: path) { return true }
        }
        return false
    }

    /// Parses `git status --porcelain=v2 --branch -z`; `prefix` is the store's directory
    /// in the work tree (`git rev-parse --show-prefix`), removed from the paths.
    public static func parse(_ text: String, prefix: String) -> GitStatus {
        var s = GitStatus()
        var fields = text.split(separator: "\0", omittingEmptySubsequences: true)[...]
        func storePath(_ p: Substring) -> String? {
            let path = String(p)
            guard path.hasPrefix(prefix) else { return nil }
            return String(path.dropFirst(prefix.count))
        }
        while let entry = fields.popFirst() {
            let parts = entry.split(separator: " ", omittingEmptySubsequences: false)
            switch parts.first.map(String.init) ?? "" {
            case "#":
                guard parts.count >= 3 else { continue }
                switch parts[1] {
                case "branch.head": s.branch = parts[2] == "(detached)" ? nil : parts[2...].joined(separator: " ")
                case "branch.upstream": s.upstream = String(parts[2])
                case "branch.ab":
                    s.ahead = Int(parts[2].dropFirst()) ?? 0
                    s.behind = parts.count > 3 ? Int(parts[3].dropFirst()) ?? 0 : 0
                default: break
                }
            case "1":
                // 1 XY sub mH mI mW hH hI path
                guard parts.count >= 9, let p = storePath(parts[8...].joined(separator: " ")[...]) else { continue }
                s.files[p] = parts[1].first == "A" ? .new : .changed
                if parts[1].contains("D") { s.deleted.insert(p) }
            case "2":
                // 2 XY sub mH mI mW hH hI Xscore path, then the original path as its own field.
                _ = fields.popFirst()
                guard parts.count >= 10, let p = storePath(parts[9...].joined(separator: " ")[...]) else { continue }
                s.files[p] = .changed
            case "u":
                // u XY sub m1 m2 m3 mW h1 h2 h3 path
                guard parts.count >= 11, let p = storePath(parts[10...].joined(separator: " ")[...]) else { continue }
                s.files[p] = .conflicted
            case "?":
                guard let p = storePath(entry.dropFirst(2)) else { continue }
                s.files[p] = .new
            default: continue
            }
        }
        return s
    }
}
