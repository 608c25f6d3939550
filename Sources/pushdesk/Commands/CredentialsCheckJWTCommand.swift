import ArgumentParser
import Foundation
import PushDeskCore

#if canImport(Glibc)
    import Glibc
#endif

/// `pushdesk credentials check-jwt (TOKEN | -)` (docs/CREDENTIALS.md): an APNs provider token
/// decoded and checked offline against the store's token-auth apps.
struct CredentialsCheckJWTCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-jwt",
        abstract: "Decode an APNs provider token and check it against the store's keys, offline.",
        discussion: """
            Give `-` to read the token from standard input (it stays out of the shell's history; \
            typing is not echoed on a terminal). Prints the token's header and claims and the \
            findings — never the token or its signature. Exit 0 without errors (warnings allowed), \
            1 when the token has an error, 2 on usage or I/O errors.
            """)

    @Argument(help: ArgumentHelp("The token, or - to read it from standard input.", valueName: "TOKEN|-"))
    var token: String

    @Flag(help: "Print {\"header\":…,\"claims\":…,\"findings\":[…]} instead of text.")
    var json = false

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.openStore()
        let bytes = token == "-" ? Self.readStdin() : Array(token.utf8)
        let snapshot = store.loadAll(readOnly: true)
        var result = ProviderTokenCheck.check(
            bytes, services: snapshot.services, storeRoot: store.root, now: Date())
        result.findings = snapshot.positioned(result.findings)
        if json {
            print(result.json.pretty)
        } else {
            print(Self.text(result))
        }
        if result.hasErrors { throw Exit.inputErrors }
    }

    /// Standard input up to one byte over the cap (enough to refuse it; no more is kept),
    /// one line when typed on a terminal, with echo off.
    static func readStdin() -> [UInt8] {
        let interactive = isatty(STDIN_FILENO) == 1
        return withEchoOff(interactive) {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while bytes.count <= ProviderTokenCheck.maxBytes {
                let n = read(STDIN_FILENO, &chunk, min(chunk.count, ProviderTokenCheck.maxBytes + 1 - bytes.count))
                if n <= 0 { break }
                bytes += chunk[0..<n]
                if interactive, bytes.contains(0x0A) { break }
            }
            return bytes
        }
    }

    static func text(_ r: ProviderTokenCheck) -> String {
        var lines: [String] = []
        lines.append("header: " + (r.header.map { Escape.inline($0.compact, limit: 4096) } ?? "(unreadable)"))
        lines.append("claims: " + (r.claims.map { Escape.inline($0.compact, limit: 4096) } ?? "(unreadable)"))
        if r.findings.isEmpty {
            lines.append("no findings: the token is well formed, current, and verifies with the app's key")
        } else {
            lines += PreviewText.findings(r.findings)
        }
        return lines.joined(separator: "\n")
    }
}
