import Foundation
import PushDeskCore
import PushDeskTUI

/// Typing on any store, in process: a key through `ConsoleApp.handle` and a `render` of the
/// whole screen, in the service editor (the first service's label) and in the composer
/// (the body of the store's first delivery, `add-4kb` makes it a 4 KB one), alternating a
/// character and Backspace. What the pty harness (scripts/bench) sees minus the terminal;
/// with callgrind it shows where a keystroke's time goes. `pushdesk-bench typing STORE`.
enum TypingBench {
    static func run(store root: URL, runs: Int, width: Int = 200, height: Int = 50) {
        let store = Store(root: root)
        let clock = ContinuousClock()
        print("pushdesk-bench typing: \(runs) keys each, \(width)x\(height)")
        let scenarios: [(String, [Key])] = [
            ("service editor, label", [.enter, .tab, .end]),
            ("composer, body", [.char("D"), .enter, .tab, .tab, .tab, .tab, .tab, .end]),
        ]
        for (name, setup) in scenarios {
            let app = ConsoleApp(store: .open(store))  // from the services list
            app.resize(width: width, height: height)  // the terminal's size, as the runner says it
            for k in setup { app.handle(k) }
            _ = app.render(width: width, height: height)
            var samples: [Double] = []
            for i in 0..<(runs + runs / 10) {
                let start = clock.now
                app.handle(i % 2 == 0 ? .char("x") : .backspace)
                _ = app.render(width: width, height: height)
                if i >= runs / 10 { samples.append(ComposerBench.ms(clock.now - start)) }
            }
            ComposerBench.report(name + ": handle + render", samples)
        }
    }
}
