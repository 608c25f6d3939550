import ArgumentParser
import Foundation
import PushDeskCore

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a store (services/, deliveries/, profiles/), optionally with the demo content.")

    @Argument(
        help: ArgumentHelp(
            "Directory of the new store (default: the store --store or the default names).", valueName: "DIR"))
    var directory: String?

    @Flag(help: "Fill it with the Neotrips demo: an iOS pair, an Android app and two deliveries.")
    var demo = false

    @Flag(
        help: ArgumentHelp(
            "Keep the store in git: git init (unless DIR is inside a work tree), .gitignore, .gitattributes, the merge driver, and a first commit of what init wrote (docs/TEAMS.md)."
        ))
    var git = false

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let url = directory.map { URL(fileURLWithPath: $0) } ?? storeOptions.resolvedURL
        let fm = FileManager.default
        let shown = Escape.inline(url.path, limit: 4096)
        if fm.fileExists(atPath: url.appendingPathComponent("services").path) {
            printError("\(shown): error: a store already exists here; nothing was changed")
            throw Exit.usageOrIO
        }
        if let mode = SafeFile.lstatMode(url.path), (mode & S_IFMT) != S_IFDIR, (mode & S_IFMT) != S_IFLNK {
            printError(
                "\(shown): error: cannot create the store: it is \(SafeFile.kind(mode)); give a new or empty directory")
            throw Exit.usageOrIO
        }
        var filesBefore: Set<String> = []
        var newRepository = false
        if git {
            do {
                try fm.createDirectory(at: url, withIntermediateDirectories: true)
                if try GitSetup.workTree(of: url) == nil {
                    newRepository = true
                } else {
                    // Refused before anything is written: a commit of ours would carry them.
                    try GitSetup.checkNothingForbidden(store: url)
                }
                filesBefore = Self.files(under: url)
                if newRepository { try GitCommand(directory: url).check(["init", "-q"]) }
            } catch {
                printError(gitErrorText(error, store: url))
                throw Exit.usageOrIO
            }
        }
        do {
            for folder in RecordKind.allCases.map(\.folder) {
                try fm.createDirectory(at: url.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            if demo { try DemoStore.write(to: url) }
        } catch {
            // Foundation's error text names NSCocoaErrorDomain and codes; say what failed instead.
            let why =
                (error as? StoreError).map { "\($0.file): \($0.message)" }
                ?? (error as? CocoaError).flatMap {
                    ($0.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription
                }
            printError(
                "\(shown): error: cannot create the store\(why.map { ": " + Escape.inline($0, limit: 4096) } ?? ""); check that the path is a writable directory"
            )
            throw Exit.usageOrIO
        }
        if git {
            do {
                let changes = try GitSetup.setUp(store: url, binary: runningBinaryPath())
                let written = Set(changes.files).union(Self.files(under: url).subtracting(filesBefore))
                try GitSetup.commitInit(
                    store: url, paths: written.sorted(),
                    message: demo ? "PushDesk: a new store with the Neotrips demo" : "PushDesk: a new store")
            } catch {
                printError(gitErrorText(error, store: url))
                throw Exit.usageOrIO
            }
        }
        let what = demo ? "the demo store" : "an empty store"
        print("Created \(what) at \(shown)" + (git ? (newRepository ? " in a new git repository" : " in git") : ""))
    }

    /// Files below `root` (relative paths), git's own directory left out.
    private static func files(under root: URL) -> Set<String> {
        var out: Set<String> = []
        let base = root.standardizedFileURL.path
        guard let e = FileManager.default.enumerator(atPath: base) else { return out }
        while let path = e.nextObject() as? String {
            if path == ".git" || path.hasPrefix(".git/") {
                e.skipDescendants()
                continue
            }
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isDir), !isDir.boolValue {
                out.insert(path)
            }
        }
        return out
    }
}
