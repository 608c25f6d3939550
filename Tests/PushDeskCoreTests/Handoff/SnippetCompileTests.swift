import Foundation
import XCTest

@testable import PushDeskCore

/// The generated SDK files are checked by the real compilers: javac against stub SDK classes,
/// clang's Objective-C front end against stub headers (Tests/.../Fixtures/handoff/stubs).
final class SnippetCompileTests: XCTestCase {
    func testJavaSnippetsOfNeotripsCompile() throws {
        try checkJava(HandoffFixtures.neotrips())
    }

    func testJavaSnippetWithHostileValuesCompilesAndKeepsValues() throws {
        let service = HandoffFixtures.hostileService
        let classes = try checkJava(service)
        let code = try snippet(service, .java)
        XCTAssertFalse(code.contains("package com.class.app;"), "a keyword package must not be emitted")
        // Run the compiled class: the constants must hold the service's values exactly.
        let dir = classes.deletingLastPathComponent()
        let main = dir.appendingPathComponent("PrintConstants.java")
        try """
        public class PrintConstants {
            public static void main(String[] args) throws Exception {
                java.io.PrintStream out = new java.io.PrintStream(System.out, true, "UTF-8");
                out.print(CampaignPush.INTEGRATION_KEY + "|END|" + CampaignPush.MARKETING_HOST + "|END|" + CampaignPush.TRACKING_HOST);
            }
        }
        """.write(to: main, atomically: true, encoding: .utf8)
        let compiled = try run(try javac(), ["-encoding", "UTF-8", "-d", classes.path, "-cp", classes.path, main.path])
        XCTAssertEqual(compiled.status, 0, compiled.output)
        let java = try XCTUnwrap(findExecutable("java"), "java is installed with javac")
        let printed = try run(java, ["-cp", classes.path, "PrintConstants"])
        XCTAssertEqual(printed.status, 0, printed.output)
        XCTAssertEqual(
            printed.output,
            [HandoffFixtures.hostile, HandoffFixtures.hostile, service.trackingUrl].joined(separator: "|END|"))
        XCTAssertTrue(
            code.contains("String class_, String loyalty_id, String loyalty_id2, String _2fa, String userKey_"))
    }

    func testObjectiveCSnippetsOfNeotripsPassSyntaxCheck() throws {
        try checkObjC(HandoffFixtures.neotrips())
    }

    func testObjectiveCSnippetWithHostileValuesPassesSyntaxCheck() throws {
        let service = HandoffFixtures.hostileService
        try checkObjC(service)
        let code = try snippet(service, .objectiveC)
        XCTAssertTrue(code.contains("class_:(NSString *)class_ loyalty_id:(NSString *)loyalty_id"))
    }

    /// Objective-C string literals follow C's escape rules: the same literal, without its `@`,
    /// compiled as C (trigraphs on, the strictest reading) and run prints the exact value.
    func testObjectiveCLiteralsDecodeToTheExactValue() throws {
        let clang = try clang()
        let dir = try tempDir()
        let value = HandoffFixtures.hostile + "??= ??( \u{7F}\u{1}?"
        let literal = String(SourceLiteral.objc(value).dropFirst())
        let source = dir.appendingPathComponent("lit.c")
        try "#include <stdio.h>\nint main(void) { fputs(\(literal), stdout); return 0; }\n"
            .write(to: source, atomically: true, encoding: .utf8)
        let exe = dir.appendingPathComponent("lit").path
        let built = try run(clang, ["-std=c11", "-trigraphs", "-Werror", "-o", exe, source.path])
        XCTAssertEqual(built.status, 0, built.output)
        let printed = try runProcess(exe, [])
        XCTAssertEqual(printed.stdout, value)
    }

    /// An app with no variables, parameters or sounds, and empty URLs, still gives clean code.
    func testSnippetsOfABareServiceCompile() throws {
        let bare = Service(
            name: "bare", label: "",
            apps: [
                .ios(IOSApp(environment: .production, label: "", integrationKey: "", bundleId: "")),
                .android(AndroidApp(label: "", integrationKey: "", packageName: "")),
            ])
        try checkJava(bare)
        try checkObjC(bare)
    }

    /// The checks themselves must fail on broken code, or they prove nothing.
    func testCompilersRejectBrokenCode() throws {
        let dir = try tempDir()
        let java = dir.appendingPathComponent("CampaignPush.java")
        try "public final class CampaignPush { String s = \"a\\u000a\"; }\n".write(
            to: java, atomically: true, encoding: .utf8)
        XCTAssertNotEqual(try run(javac(), ["-d", dir.path, java.path]).status, 0)
        let m = dir.appendingPathComponent("CampaignPush.m")
        try "#import \"Neolane_SDK.h\"\nvoid f(void) { [[Neolane_SDK getInstance] setIntegrationKey:@\"a\" \"]; }\n"
            .write(to: m, atomically: true, encoding: .utf8)
        XCTAssertNotEqual(try run(clang(), clangArgs(m)).status, 0)
    }

    // MARK: helpers

    private func snippet(_ service: Service, _ language: CodeSnippet.Language) throws -> String {
        let sheet = try HandoffSheet(service: service)
        return try XCTUnwrap(sheet.apps.flatMap(\.snippets).first { $0.language == language }).code
    }

    /// Compiles every Java snippet of the service's sheet; returns the classes directory of the last.
    @discardableResult
    private func checkJava(_ service: Service) throws -> URL {
        let javac = try javac()
        let sheet = try HandoffSheet(service: service)
        let files = sheet.apps.flatMap(\.snippets).filter { $0.language == .java }
        XCTAssertFalse(files.isEmpty)
        var classes = URL(fileURLWithPath: "/nonexistent")
        for file in files {
            let dir = try tempDir()
            let source = dir.appendingPathComponent(file.fileName)
            try file.code.write(to: source, atomically: true, encoding: .utf8)
            classes = dir.appendingPathComponent("classes")
            let out = classes.path
            let result = try run(
                javac,
                [
                    "-encoding", "UTF-8", "-Xlint:all", "-Werror", "-d", out,
                    "-sourcepath", stubs("java").path, source.path,
                ])
            XCTAssertEqual(result.status, 0, "javac rejected the snippet:\n\(result.output)\n\(file.code)")
        }
        return classes
    }

    private func checkObjC(_ service: Service) throws {
        let clang = try clang()
        let sheet = try HandoffSheet(service: service)
        let files = sheet.apps.flatMap(\.snippets).filter { $0.language == .objectiveC }
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let source = try tempDir().appendingPathComponent(file.fileName)
            try file.code.write(to: source, atomically: true, encoding: .utf8)
            let result = try run(clang, clangArgs(source))
            XCTAssertEqual(result.status, 0, "clang rejected the snippet:\n\(result.output)\n\(file.code)")
        }
    }

    private func clangArgs(_ source: URL) -> [String] {
        [
            "-x", "objective-c", "-fsyntax-only", "-std=c11", "-Wall", "-Werror", "-Wno-objc-root-class",
            "-I", stubs("objc").path, source.path,
        ]
    }

    private func stubs(_ lang: String) -> URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/handoff/stubs/\(lang)")
    }

    private func javac() throws -> URL {
        guard let url = findExecutable("javac") else {
            throw XCTSkip("javac is not installed: `make test` installs it (default-jdk-headless in TEST_PKGS)")
        }
        return url
    }

    private func clang() throws -> URL {
        guard let url = findExecutable("clang") else {
            throw XCTSkip("clang is not on PATH: it ships with the Swift toolchain (or Debian's clang package)")
        }
        return url
    }

    private func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushdesk-snippet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    private func run(_ tool: URL, _ args: [String]) throws -> (status: Int32, output: String) {
        try runTool(tool, args)
    }
}

/// An executable on PATH, nil when absent.
func findExecutable(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
        let url = URL(fileURLWithPath: String(dir)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
}

/// Runs a tool; stdout and stderr together, as a compiler's diagnostics are read.
func runTool(_ tool: URL, _ args: [String]) throws -> (status: Int32, output: String) {
    let r = try runProcess(tool.path, args)
    return (r.status, r.stdout + r.stderr)
}
