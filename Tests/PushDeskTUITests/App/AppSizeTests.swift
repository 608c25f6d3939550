import Foundation
import XCTest

/// The app is its state, its stack and `apply`: what else it did lives in types of their
/// own (AppState, ScreenStack, KeyPolicy, AppFrame, the app's own askers), so the type
/// `ConsoleApp` — its class body and every `extension ConsoleApp` in the sources — stays
/// small enough to read in one sitting, and no screen extends it.
final class AppSizeTests: XCTestCase {
    func testTheConsoleAppTypeStaysUnder250Lines() throws {
        let sources = packageRoot.appendingPathComponent("Sources/PushDeskTUI")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var total = 0
        var byFile: [String: Int] = [:]
        for case let url as URL in files where url.pathExtension == "swift" {
            var inside = false
            for line in try String(contentsOf: url, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            {
                if line.hasPrefix("extension ConsoleApp")
                    || line.contains("final class ConsoleApp") && !line.hasPrefix(" ")
                {
                    inside = true
                }
                guard inside else { continue }
                total += 1
                byFile[url.lastPathComponent, default: 0] += 1
                if line.hasPrefix("}") { inside = false }
            }
            let path = url.path.replacingOccurrences(of: sources.path + "/", with: "")
            if path.hasPrefix("Screens/") {
                XCTAssertNil(byFile[url.lastPathComponent], "\(path) extends ConsoleApp: a screen returns effects")
            }
        }
        XCTAssertGreaterThan(total, 100, "the type was found: \(byFile)")
        XCTAssertLessThan(total, 250, "ConsoleApp has \(total) lines: \(byFile.sorted { $0.key < $1.key })")
    }
}
