import Foundation
import PushDeskCore

/// Where `pushdesk validate`'s time goes on a store, phase by phase, in process (CPU time of
/// the whole process, so parallel phases count every core): reading and decoding, the
/// service rules, the delivery rules, and freeing the snapshot. `pushdesk-bench phases STORE`.
enum ValidatePhases {
    static func run(store root: URL, runs: Int) {
        let store = Store(root: root)
        var rows: [String: [Double]] = [:]
        let order = ["load (read + decode)", "service rules", "delivery rules", "free the snapshot"]
        for _ in 0..<runs {
            var t = cpu()
            func lap(_ name: String) {
                let now = cpu()
                rows[name, default: []].append(now - t)
                t = now
            }
            var snap: StoreSnapshot? = store.loadAll(readOnly: true)
            lap(order[0])
            let s = ServiceRules.check(snap!)
            lap(order[1])
            let d = DeliveryRules.check(snap!, now: Date())
            lap(order[2])
            snap = nil
            lap(order[3])
            precondition(s.count + d.count >= 0 && snap == nil)
        }
        print("pushdesk-bench phases: \(runs) runs, median CPU ms (user + system, all threads)")
        for name in order {
            let v = rows[name]!.sorted()
            print(
                "  " + name.padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%8.1f", v[v.count / 2])
            )
        }
    }

    static func cpu() -> Double {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000 + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec)
            / 1000
    }
}
