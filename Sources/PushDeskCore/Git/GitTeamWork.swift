import Foundation

/// What the console does with git for a team (docs/TEAMS.md): commit records, sync (fetch,
/// rebase onto the upstream with the merge driver, push), resolve a conflicted record field
/// by field, finish or abort a rebase, and a record's history. Each step is the `git`
/// command as operators run it; nothing here touches a terminal. Paths are store-relative.
public enum GitTeamWork {
    /// The environment of a git run from the console: git never asks on the terminal
    /// (credentials or an SSH passphrase it cannot get are an error, not a prompt drawn
    /// over the console), and a rebase never opens an editor.
    static func runner(_ store: URL, identity: Bool = false) throws -> GitCommand {
        var env = ["GIT_TERMINAL_PROMPT": "0", "GIT_EDITOR": "true", "GIT_SEQUENCE_EDITOR": "true"]
        if ProcessEnvironment.read()["GIT_SSH_COMMAND"] == nil {
            env["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes"
        }
        if identity { env.merge(try GitSetup.fallbackIdentity(store: store)) { $1 } }
        return GitCommand(directory: store, environment: env)
    }

    /// A record file of the store (`services/x.xml`, `deliveries/…`, `profiles/…`).
    public static func isRecord(_ path: String) -> Bool { RecordKind(path: path) != nil }

    // MARK: commit

    /// Commits exactly `paths` (their deletion too) with `message`; the author is git's
    /// configured identity. Refused, with the paths named, when one of them or anything
    /// tracked or staged is under `secrets/` or `.pushdesk/`. Returns the short commit id.
    public static func commit(store: URL, paths: [String], message: String) throws -> String {
        let forbidden = paths.filter(GitSetup.isForbidden)
        guard forbidden.isEmpty else {
            throw GitSetup.Refusal(
                description:
                    "refusing to commit: these paths must never be in git: \(forbidden.map { Escape.inline($0) }.joined(separator: ", "))"
            )
        }
        try GitSetup.checkNothingForbidden(store: store)
        guard !paths.isEmpty else { throw GitSetup.Refusal(description: "nothing to commit") }
        let git = try runner(store, identity: true)
        try git.check(["add", "-A", "--"] + paths)
        try git.check(["commit", "-q", "-m", message, "--only", "--"] + paths)
        return try git.check(["rev-parse", "--short", "HEAD"]).output
    }

    // MARK: sync

    public enum SyncOutcome: Equatable, Sendable {
        /// Fetched, rebased and pushed (or nothing to push): what happened, in words.
        case done(String)
        /// The rebase stopped on conflicted records (store-relative paths): resolve them.
        case conflicts([String])
        /// Nothing was lost: the local commits and files are as they were (or as the
        /// rebase left them, when the failure came after it).
        case failed(String)
        case cancelled
    }

    /// Fetch, rebase onto the upstream (record files merged by the driver), push. `progress`
    /// is told each step. `stop` ends the sync: a fetch or a push that runs (they wait on the
    /// network) is killed — an interrupted fetch leaves nothing, an interrupted push leaves
    /// the commits here — and a rebase, local and short, is let finish (never half-way).
    public static func sync(
        store: URL, progress: (String) -> Void = { _ in }, stop: GitStop? = nil
    ) -> SyncOutcome {
        let cancelled = { stop?.isStopped ?? false }
        do {
            let git = try runner(store, identity: true)
            var network = git
            network.stop = stop
            guard let upstream = try? git.check(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"]).output
            else {
                return .failed(
                    "the branch has no upstream: set one with `git push -u origin BRANCH` (or `git branch -u`)")
            }
            let dirty = try git.check(["status", "--porcelain", "--untracked-files=no"]).output
            guard dirty.isEmpty else {
                return .failed("there are uncommitted changes: commit them (C) or discard them first")
            }
            let remote = String(upstream.split(separator: "/").first ?? "origin")
            if cancelled() { return .cancelled }
            progress("Fetching from \(Escape.inline(remote, limit: 60))…")
            let fetch = try network.run(["fetch", "--quiet", remote])
            if cancelled() { return .cancelled }
            guard fetch.status == 0 else {
                return .failed("fetching failed, nothing changed: " + said(fetch))
            }
            if cancelled() { return .cancelled }
            let counts = try git.check(["rev-list", "--left-right", "--count", "HEAD...@{u}"]).output
                .split(separator: "\t").compactMap { Int($0) }
            let (ahead, behind) = counts.count == 2 ? (counts[0], counts[1]) : (0, 0)
            var did: [String] = []
            if behind > 0 {
                progress("Rebasing onto \(Escape.inline(upstream, limit: 60))…")
                let rebase = try git.run(["rebase", "--no-autostash", "@{u}"])
                if rebase.status != 0 {
                    if GitStatus.rebaseInProgress(git) {
                        let conflicted =
                            GitStatus.read(store: store)?.files.filter { $0.value == .conflicted }
                            .map(\.key).sorted() ?? []
                        return .conflicts(conflicted)
                    }
                    return .failed("rebasing failed, nothing changed: " + said(rebase))
                }
                did.append("pulled \(behind) commit\(behind == 1 ? "" : "s")")
            }
            if cancelled() { return .cancelled }
            if ahead > 0 {
                progress("Pushing \(ahead) commit\(ahead == 1 ? "" : "s")…")
                let push = try network.run([
                    "push", "--quiet", remote, "HEAD:" + upstreamBranch(upstream, remote: remote),
                ])
                if cancelled() { return .cancelled }
                guard push.status == 0 else {
                    return .failed(
                        (did.isEmpty ? "" : did.joined() + "; ")
                            + "the push was refused, your commits are kept here (sync again): " + said(push))
                }
                did.append("pushed \(ahead) commit\(ahead == 1 ? "" : "s")")
            }
            return .done(did.isEmpty ? "Already up to date with \(upstream)" : "Synced: " + did.joined(separator: ", "))
        } catch {
            return .failed("\(error)")
        }
    }

    /// What git said on failure, one line, escaped.
    static func said(_ r: GitCommand.Result) -> String {
        let text = r.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        return Escape.inline(text.isEmpty ? "git exited \(r.status)" : text, limit: 300)
    }

    static func upstreamBranch(_ upstream: String, remote: String) -> String {
        upstream.hasPrefix(remote + "/") ? String(upstream.dropFirst(remote.count + 1)) : upstream
    }

    // MARK: resolve

    /// A conflicted record: its three versions (from git's index stages) and the conflicts
    /// the driver reports. During a rebase OURS is the upstream and THEIRS the commit being
    /// replayed: the operator's own.
    public struct Conflict: Sendable {
        public var path: String
        public var base: Data
        public var ours: Data
        public var theirs: Data
        public var conflicts: [MergeConflict]
    }

    public static func conflict(store: URL, path: String) throws -> Conflict {
        let git = try runner(store)
        func stage(_ n: Int) throws -> Data {
            let r = try git.run(["show", ":\(n):./\(path)"])
            return r.status == 0 ? Data(r.stdout.utf8) : Data()
        }
        guard let kind = RecordKind(path: path) else {
            throw GitSetup.Refusal(description: "\(path) is not a record file: resolve it with git")
        }
        let (b, o, t) = (try stage(1), try stage(2), try stage(3))
        let merged = try RecordMerge.merge(base: b, ours: o, theirs: t, path: path, kind: kind)
        return Conflict(path: path, base: b, ours: o, theirs: t, conflicts: merged.conflicts)
    }

    /// The merged text with the fields in `theirsWins` taken from THEIRS (the rest OURS').
    public static func resolution(_ c: Conflict, theirsWins: Set<String>) throws -> String {
        guard let kind = RecordKind(path: c.path) else { return "" }
        return try RecordMerge.merge(
            base: c.base, ours: c.ours, theirs: c.theirs, path: c.path, kind: kind, theirsWins: theirsWins
        ).text
    }

    /// Writes the resolved record (atomically) and marks it resolved (`git add`).
    public static func markResolved(store: URL, path: String, text: String) throws {
        try AtomicFile.write(Array(text.utf8), to: store.appendingPathComponent(path))
        try runner(store).check(["add", "--", path])
    }

    /// `git rebase --continue` (no editor) once nothing is conflicted, then the push that the
    /// sync did not get to. Record files changed since (edited after resolving) are staged first.
    public static func finishRebase(
        store: URL, progress: (String) -> Void = { _ in }, stop: GitStop? = nil
    ) -> SyncOutcome {
        do {
            let git = try runner(store, identity: true)
            let status = GitStatus.read(store: store)
            let conflicted = status?.files.filter { $0.value == .conflicted }.map(\.key).sorted() ?? []
            guard conflicted.isEmpty else { return .conflicts(conflicted) }
            let records = (status?.files.keys.filter(isRecord) ?? []).sorted()
            if !records.isEmpty { try git.check(["add", "-A", "--"] + records) }
            progress("Finishing the rebase…")
            let r = try git.run(["rebase", "--continue"])
            if r.status != 0 {
                if GitStatus.rebaseInProgress(git) {
                    let next =
                        GitStatus.read(store: store)?.files.filter { $0.value == .conflicted }.map(\.key)
                        .sorted() ?? []
                    if !next.isEmpty { return .conflicts(next) }
                }
                return .failed("git rebase --continue failed: " + said(r))
            }
            return sync(store: store, progress: progress, stop: stop)
        } catch {
            return .failed("\(error)")
        }
    }

    /// `git rebase --abort`: back to the commits and files before the sync.
    public static func abortRebase(store: URL) throws {
        try runner(store).check(["rebase", "--abort"])
    }

    // MARK: history

    public struct Version: Equatable, Sendable {
        public var commit: String
        public var author: String
        public var date: String
        public var subject: String
    }

    /// The commits that touched `path`, newest first.
    public static func history(store: URL, path: String, limit: Int = 200) throws -> [Version] {
        let r = try runner(store).check([
            "log", "-n", String(limit), "--date=short", "--format=%h%x1f%an%x1f%ad%x1f%s", "--", path,
        ])
        return r.output.split(separator: "\n").compactMap { line in
            let f = line.split(separator: "\u{1f}", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 4 else { return nil }
            return Version(commit: f[0], author: f[1], date: f[2], subject: f[3...].joined(separator: " "))
        }
    }

    /// The file `path` as committed in `commit` (empty when it did not exist there).
    public static func text(store: URL, commit: String, path: String) throws -> String {
        let r = try runner(store).run(["show", "\(commit):./\(path)"])
        return r.status == 0 ? r.stdout : ""
    }
}
