import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Whole-screen tests at any size: a console on the demo store at a fixed clock, every line
/// of a frame compared with its golden file (`assertScreen`, Support/GoldenScreens.swift).
class WholeScreenTestCase: DemoStoreConsoleTestCase {
    func console(width: Int = 80, height: Int = 24) -> ConsoleApp {
        let a = app()
        a.clock = { Date(timeIntervalSince1970: 1_790_000_000) }
        a.resize(width: width, height: height)
        return a
    }

    /// Every line of the screen at the console's size, trailing spaces dropped.
    func lines(_ a: ConsoleApp) -> [String] {
        let b = a.render(width: a.viewWidth, height: a.viewHeight)
        return (0..<b.height).map {
            b.line($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }

    /// Clears the focused one-line field with the line editor's keys.
    func clearField(_ a: ConsoleApp) {
        a.press(.lineEnd)
        a.press(.deleteToStart)
    }
}
