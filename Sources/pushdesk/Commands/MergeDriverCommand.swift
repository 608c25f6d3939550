import ArgumentParser
import Foundation
import PushDeskCore

/// `pushdesk merge-driver BASE OURS THEIRS PATH`: git runs it (`.gitattributes` `merge=pushdesk`,
/// set up by `git-setup`) to merge two edits of one record field by field (docs/TEAMS.md).
struct MergeDriverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-driver",
        abstract: "Merge two edits of one record file field by field (git's merge driver: %O %A %B %P).",
        discussion: """
            Writes the merged record into OURS. Exit 0 merged, 1 conflicts left (OURS keeps our value \
            of each; one line per conflict on stderr: PATH:FIELD: ours VALUE, theirs VALUE), \
            2 a version cannot be read (OURS unchanged). See docs/TEAMS.md.
            """)

    @Argument(help: ArgumentHelp("The common ancestor's version (git's %O).", valueName: "BASE"))
    var base: String
    @Argument(help: ArgumentHelp("Our version, replaced by the result (git's %A).", valueName: "OURS"))
    var ours: String
    @Argument(help: ArgumentHelp("Their version (git's %B).", valueName: "THEIRS"))
    var theirs: String
    @Argument(help: ArgumentHelp("The record's path in the repository (git's %P).", valueName: "PATH"))
    var path: String

    func run() throws {
        Self.runFast(base: base, ours: ours, theirs: theirs, path: path)
    }

    /// Merges, reports and exits with the driver's status.
    static func runFast(base: String, ours: String, theirs: String, path: String) -> Never {
        let outcome = MergeDriver.run(base: base, ours: ours, theirs: theirs, path: path)
        if !outcome.stderr.isEmpty {
            FileHandle.standardError.write(Data(outcome.stderr.map { $0 + "\n" }.joined().utf8))
        }
        Foundation.exit(outcome.status)
    }
}
