import Foundation
import PushDeskCore

struct Measure {
    static func median(_ name: String, runs: Int, _ body: () -> Int) -> Double {
        var sink = 0
        for _ in 0..<max(50, runs / 10) { sink &+= body() }  // warm-up
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        let clock = ContinuousClock()
        for _ in 0..<runs {
            let start = clock.now
            sink &+= body()
            let d = clock.now - start
            samples.append(Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12)
        }
        samples.sort()
        let med = samples[samples.count / 2]
        let p90 = samples[samples.count * 9 / 10]
        let label = name.padding(toLength: 44, withPad: " ", startingAt: 0)
        print("  " + label + String(format: " median %7.1f µs   p90 %7.1f µs", med, p90) + (sink == 42 ? " " : ""))
        return med
    }
}

/// A service whose three apps declare 50 variables, and a delivery giving each a value,
/// sized so the iOS payload lands just under 4 KB.
func fiftyVariables() -> (Service, Delivery) {
    let names = (1...50).map { String(format: "v%02d", $0) }
    var service = DemoStore.neotrips
    for i in service.apps.indices { service.apps[i].variables = names.map { AppVariable(name: $0) } }
    var d = DemoStore.summerSale
    d.name = "fifty-variables"
    d.variables = names.map { VariableValue(name: $0, value: String(repeating: "x", count: 62)) }
    return (service, d)
}

/// How long one preview takes, so the console can recompute on every keystroke (target:
/// well under 1 ms).
enum PreviewBench {
    static func run(runs: Int) {
        let now = Date()
        let rich = DemoStore.summerSale
        let service = DemoStore.neotrips
        let ana = DemoStore.ana
        let (bigService, big) = fiftyVariables()
        let bigPreview = PreviewEngine.preview(
            delivery: big, service: bigService, profile: ana, appKey: nil, token: nil, now: now)

        print("pushdesk-bench preview: \(runs) runs each, median and 90th percentile per call")
        let cases = [
            ("demo rich delivery (summer-sale, profile ana):", rich, service),
            (
                "50 variables near 4 KB (bytes per app: \(bigPreview.targets.map { String($0.bytes) }.joined(separator: ", "))):",
                big, bigService
            ),
        ]
        for (title, d, svc) in cases {
            print(title)
            for app in svc.apps {
                _ = Measure.median("one app: \(app.integrationKey)", runs: runs) {
                    PreviewEngine.preview(
                        delivery: d, service: svc, profile: ana, appKey: app.integrationKey, token: nil, now: now
                    ).targets[0].bytes
                }
            }
            _ = Measure.median("all 3 apps in one preview", runs: runs) {
                PreviewEngine.preview(delivery: d, service: svc, profile: ana, appKey: nil, token: nil, now: now)
                    .targets.count
            }
            _ = Measure.median("all 3 apps + preview JSON text (--json)", runs: runs) {
                PreviewEngine.preview(delivery: d, service: svc, profile: ana, appKey: nil, token: nil, now: now).json
                    .pretty.utf8.count
            }
        }
        let cached = ServiceRules.check(service: bigService)
        _ = Measure.median("all 3 apps, service findings cached", runs: runs) {
            PreviewEngine.preview(
                delivery: big, service: bigService, profile: ana, appKey: nil, token: nil, now: now,
                serviceFindings: cached
            ).targets.count
        }
        print("for reference:")
        _ = Measure.median("ServiceRules.check(service:) alone, 50 vars", runs: runs) {
            ServiceRules.check(service: bigService).count
        }
    }
}
