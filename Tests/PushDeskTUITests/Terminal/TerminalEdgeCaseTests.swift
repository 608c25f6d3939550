import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskTUI

/// Terminals at their edges, driven like an operator meets them: a 20x5
/// pane, TERM=dumb, vt100, TERM unset, and the console started without a terminal on
/// standard input or with its output piped. (Unknown TERM, LANG=C and both descriptors
/// redirected are in TmuxConsoleTests.)
final class TerminalEdgeCaseTests: TmuxTestCase {
    private func serviceFile() throws -> Data {
        try Data(contentsOf: store.appendingPathComponent("services/neotrips.xml"))
    }

    private func nonEmptyLines(_ s: String) -> [String] {
        s.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// 20x5: the "too small" text wraps over the pane, keys keep editing the draft while it
    /// shows, resizing back shows the edit, and Ctrl-Q's Save/Discard/Cancel is readable.
    func testTwentyByFiveKeepsWorkingAndQuits() throws {
        let before = try serviceFile()
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path])
        t.waitFor("neotrips")
        t.keys("Enter")
        t.waitFor("Marketing URL")
        t.focus(field: "Label")
        t.keys("End")
        t.type(" X")
        t.waitFor("Neotrips X")
        t.resize(20, 5)
        var s = t.waitUntil("the wrapped message") { $0.contains("20x5, need 60x16.") && $0.contains("Ctrl-Q.") }
        XCTAssertEqual(
            nonEmptyLines(s), ["Terminal too small:", "20x5, need 60x16.", "Enlarge it or press", "Ctrl-Q."], s)
        t.type("Y")  // typed while the form cannot be seen
        t.resize(10, 3)
        t.waitFor("small:")  // even smaller: still no crash
        t.resize(80, 24)
        assertScreen(t, t.waitFor("Neotrips XY"), "backFromTinyTheDraftIsDirty")
        t.resize(20, 5)
        t.waitFor("Terminal too small:")
        t.keys("C-q")
        s = t.waitUntil("the dialog's answers") { $0.contains("Save / Discard /") && $0.contains("Cancel") }
        XCTAssertEqual(nonEmptyLines(s), ["Too small: 20x5.", "Unsaved changes:", "Save / Discard /", "Cancel"], s)
        t.keys("d")
        let end = t.ending()
        XCTAssertEqual(end.status, 0, end.screen)
        XCTAssertEqual(end.modes, "icanon echo", "cooked mode restored")
        XCTAssertEqual(try serviceFile(), before, "discarded: the file is unchanged")
    }

    /// Started in a 20x5 pane with nothing to save, Ctrl-Q quits at once.
    func testStartedTinyCtrlQQuits() throws {
        let t = try TmuxHarness(width: 20, height: 5, args: ["--store", store.path])
        t.waitFor("Ctrl-Q.")
        t.keys("C-q")
        XCTAssertEqual(t.ending().status, 0)
    }

    /// TERM=dumb cannot address the cursor: one clear error before anything is drawn, exit 2.
    func testDumbTerminalIsRefusedBeforeDrawing() throws {
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path], env: ["TERM": "dumb"])
        let s = t.waitFor("PD-END")
        // The error, and nothing of the console drawn; the terminal's modes as they were.
        assertScreen(t, s, "dumbRefused")
    }

    /// vt100: no colours, no alternate screen; the console works in attributes only.
    func testVT100Works() throws {
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path], env: ["TERM": "vt100"])
        assertScreen(t, t.waitFor("Enter edit"), "vt100List")
        let e = t.screen(escapes: true)
        XCTAssertNil(
            e.range(of: "\u{1b}\\[[0-9;]*(3[0-7]|4[0-7]|38;5|48;5)[;m]", options: .regularExpression),
            "no colours on vt100:\n\(e.debugDescription.prefix(400))")
        XCTAssertNotNil(
            e.range(of: "\u{1b}\\[[0-9;]*7m", options: .regularExpression), "the selection in reverse video")
        t.keys("Enter")
        t.waitFor("Marketing URL")
        t.keys("Escape")
        t.waitFor("Enter edit")
        t.keys("C-q")
        let end = t.ending()
        XCTAssertEqual(end.status, 0, end.screen)
        XCTAssertEqual(end.modes, "icanon echo", end.screen)
    }

    /// TERM unset (empty): a known fallback, and the status line says which.
    func testUnsetTermFallsBackAndSaysSo() throws {
        let t = try TmuxHarness(width: 80, height: 24, args: ["--store", store.path], env: ["TERM": ""])
        assertScreen(t, t.waitFor("TERM is not set; using xterm-256color."), "unsetTerm")
        t.keys("C-q")
        XCTAssertEqual(t.ending().status, 0)
    }

    // MARK: without a terminal (Process, a pseudo-terminal for the other descriptor)

    /// A pseudo-terminal pair; the child gets the secondary side as a real tty. (Glibc's
    /// posix_openpt family is hidden from Swift behind _XOPEN_SOURCE, so it is looked up.)
    private func openPTY() throws -> (primary: Int32, secondary: Int32) {
        typealias IntFn = @convention(c) (Int32) -> Int32
        typealias NameFn = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        func fn<T>(_ name: String, _ type: T.Type) throws -> T {
            guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
                throw XCTSkip("no \(name) here")
            }
            return unsafeBitCast(sym, to: type)
        }
        let openpt = try fn("posix_openpt", IntFn.self)
        let grant = try fn("grantpt", IntFn.self)
        let unlock = try fn("unlockpt", IntFn.self)
        let ptsname = try fn("ptsname", NameFn.self)
        let m = openpt(O_RDWR | O_NOCTTY)
        guard m >= 0, grant(m) == 0, unlock(m) == 0, let name = ptsname(m) else {
            throw XCTSkip("no pseudo-terminals here")
        }
        let s = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard s >= 0 else { throw XCTSkip("cannot open \(String(cString: name))") }
        return (m, s)
    }

    private func console(stdin: Any, stdout: Any, stderr: Pipe) throws -> Int32 {
        let p = Process()
        p.executableURL = TmuxHarness.binary
        p.arguments = ["--store", store.path]
        p.environment = SealedEnvironment.adding(["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        p.standardInput = stdin
        p.standardOutput = stdout
        p.standardError = stderr
        try p.run()
        let deadline = Date().addingTimeInterval(60)
        while p.isRunning && Date() < deadline { usleep(20_000) }
        if p.isRunning {
            p.terminate()
            XCTFail("the console waited for a terminal instead of refusing")
        }
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// `pushdesk < /dev/null` (stdout a terminal): refused, exit 2, the terminal untouched.
    func testStdinNotATerminalIsRefused() throws {
        let pty = try openPTY()
        defer {
            close(pty.primary)
            close(pty.secondary)
        }
        let err = Pipe()
        let status = try console(
            stdin: FileHandle.nullDevice, stdout: FileHandle(fileDescriptor: pty.secondary), stderr: err)
        XCTAssertEqual(status, 2)
        let msg = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(
            msg.hasPrefix("pushdesk: error: the console needs a terminal: standard input is not a terminal"), msg)
        XCTAssertTrue(msg.contains("`pushdesk list` or `pushdesk validate`"), msg)
        var n = 0
        XCTAssertEqual(ioctl(pty.primary, UInt(FIONREAD), &n), 0)
        XCTAssertEqual(n, 0, "nothing was written to the terminal")
    }

    /// `pushdesk | cat` (stdin a terminal): refused with exit 2 rather than drawn into the
    /// pipe; not one byte of escape sequences reaches the pipe.
    func testStdoutPipedIsRefused() throws {
        let pty = try openPTY()
        defer {
            close(pty.primary)
            close(pty.secondary)
        }
        let out = Pipe()
        let err = Pipe()
        let status = try console(stdin: FileHandle(fileDescriptor: pty.secondary), stdout: out, stderr: err)
        XCTAssertEqual(status, 2)
        let msg = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(
            msg.hasPrefix(
                "pushdesk: error: the console needs a terminal: standard output is not a terminal (piped into another command or redirected to a file?)"
            ), msg)
        try? out.fileHandleForWriting.close()
        XCTAssertEqual(out.fileHandleForReading.readDataToEndOfFile(), Data(), "nothing went down the pipe")
    }
}
