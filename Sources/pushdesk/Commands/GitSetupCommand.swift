import ArgumentParser
import Foundation
import PushDeskCore

/// `pushdesk git-setup [--store DIR]`: the local part of a team store for a clone (git does
/// not copy config): the merge driver, and the ignore and attribute lines (docs/TEAMS.md).
struct GitSetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git-setup",
        abstract: "Set up a store inside a git clone: the record merge driver, .gitignore and .gitattributes.",
        discussion: """
            Sets merge.pushdesk.driver in the repository's local config to this binary's absolute \
            path, and adds the missing lines of .gitignore (.pushdesk/, secrets/) and .gitattributes \
            (merge=pushdesk for services/, deliveries/, profiles/) in the store directory. Commits \
            nothing; running it again changes nothing. See docs/TEAMS.md.
            """)

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let url = storeOptions.resolvedURL
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue else {
            printError(
                "\(Escape.inline(url.path, limit: 4096)): error: no store here; pass --store DIR (a directory of the clone)"
            )
            throw Exit.usageOrIO
        }
        let changes: GitSetup.Changes
        do {
            changes = try GitSetup.setUp(store: url, binary: runningBinaryPath())
        } catch {
            printError(gitErrorText(error, store: url))
            throw Exit.usageOrIO
        }
        if changes.isEmpty {
            print("\(Escape.inline(url.path, limit: 4096)): already set up; nothing changed")
        } else {
            for file in changes.files { print("wrote \(file)") }
            for key in changes.config { print("set \(key) (local config)") }
        }
    }
}

/// The absolute path of the running pushdesk, for the merge driver's command line: as it
/// was started (a symlink such as /usr/local/bin/pushdesk stays one, so an upgrade behind it
/// keeps working), found on PATH when started by name, else the executable itself.
func runningBinaryPath() -> String {
    let arg0 = CommandLine.arguments.first ?? ""
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    if arg0.contains("/") {
        return (arg0.hasPrefix("/") ? URL(fileURLWithPath: arg0) : cwd.appendingPathComponent(arg0))
            .standardizedFileURL.path
    }
    for dir in (ProcessEnvironment.read()["PATH"] ?? "").split(separator: ":") where !dir.isEmpty {
        let candidate = URL(fileURLWithPath: String(dir), relativeTo: cwd).appendingPathComponent(arg0)
        if !arg0.isEmpty, FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate.standardizedFileURL.path
        }
    }
    return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? arg0
}

/// One line for stderr: a refusal as written, a git failure or an I/O error on the store.
func gitErrorText(_ error: Error, store: URL) -> String {
    switch error {
    case let r as GitSetup.Refusal: r.description
    case let e as StoreError: e.description
    default: "\(Escape.inline(store.path, limit: 4096)): error: \(Escape.inline("\(error)", limit: 4096))"
    }
}
