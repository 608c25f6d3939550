import Foundation
import PushDeskCore
import PushDeskTUI

/// The composer's key-to-frame time, in process: one key through `ConsoleApp.handle`
/// (the edit, the live preview of the open delivery through `PreviewEngine`) and one
/// `render` of the whole screen into a cell buffer — everything but the terminal write,
/// which the pty harness (docs/PERFORMANCE.md) measures. The delivery's largest payload
/// is about 4 KB, typing alternates a character and Backspace in the body so the size
/// stays put.
enum ComposerBench {
    static func run(runs: Int) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pd-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        do { try DemoStore.write(to: root) } catch {
            print("cannot write the demo store: \(error)")
            exit(2)
        }
        let store = Store(root: root)
        let d: Delivery
        let bytes: Int
        do { (d, bytes) = try writeFourKB(into: store) } catch {
            print("cannot write bench-4kb: \(error)")
            exit(2)
        }
        print("pushdesk-bench composer: \(runs) keys each; key → ConsoleApp.handle → render into a cell buffer")
        print("delivery bench-4kb, largest payload \(bytes) bytes (3 apps), body \(d.content.body.utf8.count) bytes")

        for (w, h) in [(200, 50), (80, 24)] {
            for field in ["body", "title"] {
                let app = ConsoleApp(store: .open(store))
                app.resize(width: w, height: h)  // the terminal's size, as the runner says it
                // From start: D (the first service's deliveries), Enter (the first: bench-4kb).
                for k: Key in [.char("D"), .enter] { app.handle(k) }
                for _ in 0..<(field == "body" ? 5 : 3) { app.handle(.tab) }
                app.handle(.end)
                _ = app.render(width: w, height: h)
                var keySamples: [Double] = []
                var frameSamples: [Double] = []
                let clock = ContinuousClock()
                for i in 0..<(runs + runs / 10) {
                    let key: Key = i % 2 == 0 ? .char("x") : .backspace
                    let t0 = clock.now
                    app.handle(key)
                    let t1 = clock.now
                    let buf = app.render(width: w, height: h)
                    let t2 = clock.now
                    precondition(buf.width == w)
                    if i >= runs / 10 {  // warm-up first
                        keySamples.append(ms(t1 - t0))
                        frameSamples.append(ms(t2 - t0))
                    }
                }
                report("\(w)x\(h), typing in the \(field): handle", keySamples)
                report("\(w)x\(h), typing in the \(field): handle + render", frameSamples)
                if field == "body" {
                    // The drawing alone: a frame with nothing changed (the preview is cached). A
                    // key draws the frame once, when the console settles (`render` then returns
                    // that frame), so this is what settling costs.
                    var drawSamples: [Double] = []
                    for _ in 0..<runs {
                        let t0 = clock.now
                        app.resize(width: w, height: h)
                        drawSamples.append(ms(clock.now - t0))
                    }
                    report("\(w)x\(h), drawing alone (no change)", drawSamples)
                }
            }
        }
    }

    /// Writes `bench-4kb` into the store: a copy of the richest delivery of the store's first
    /// service (the largest payload), its body grown until the largest payload is just under
    /// 4096 bytes. It sorts first, so from start `D` `Enter` opens it in the composer
    /// (`pushdesk-bench add-4kb STORE`; scripts/bench uses it on the demo and the large store).
    static func writeFourKB(into store: Store) throws -> (Delivery, bytes: Int) {
        let snap = store.loadAll()
        guard let service = snap.services.first else {
            throw StoreError(file: "services", "the store has no service", kind: .io)
        }
        func largest(_ d: Delivery) -> Int {
            PreviewEngine.preview(delivery: d, service: service, profile: nil, appKey: nil, token: nil, now: Date())
                .targets.map(\.bytes).max() ?? 0
        }
        guard var d = snap.deliveries.filter({ $0.service == service.name }).max(by: { largest($0) < largest($1) })
        else {
            throw StoreError(
                file: "deliveries", "the first service (\(service.name)) has no delivery to copy", kind: .io)
        }
        d.name = "bench-4kb"
        d.label = "Benchmark: a payload near 4 KB"
        let start = d.content.body
        var n = 0
        var bytes = largest(d)
        while bytes < 3990 {
            n += 10
            d.content.body =
                start + " " + String(repeating: "summer sale ", count: n / 12) + String(repeating: "x", count: n % 12)
            bytes = largest(d)
            guard n < 8000 else {
                throw StoreError(file: "deliveries", "the body of \(d.name) does not reach its payload", kind: .io)
            }
        }
        // Overshot past 4096 by the last step: back off a character at a time.
        while bytes > 4000, !d.content.body.isEmpty {
            d.content.body.removeLast()
            bytes = largest(d)
        }
        try store.save(d)
        return (d, bytes)
    }

    /// Writes `bench-live` into the store: a Live Activity update for the first service
    /// whose content state is about 3 KB over many lines, its first line `{"eta":1764612000`
    /// so that End there and a digit typed keep it a JSON object (the composer reads it again
    /// on each key). It sorts second, after `bench-4kb` (`pushdesk-bench add-live STORE`).
    static func writeLiveActivity(into store: Store) throws -> (Delivery, bytes: Int) {
        let snap = store.loadAll()
        guard var service = snap.services.first else {
            throw StoreError(file: "services", "the store has no service", kind: .io)
        }
        // APNs takes Live Activities only with token auth (`type.token-auth`): the service's
        // iOS apps send with its .p8 key, as an app that starts Live Activities does.
        if let key = service.iosApps.lazy.compactMap({ app -> IOSAuth? in
            if case .token = app.auth { app.auth } else { nil }
        }).first {
            for i in service.apps.indices {
                if case .ios(var app) = service.apps[i], case .certificate = app.auth {
                    app.auth = key
                    service.apps[i] = .ios(app)
                }
            }
            try store.save(service)
        }
        var state = #"{"eta":1764612000"#
        var i = 0
        while state.utf8.count < 3000 {
            state += "\n,\"leg\(i)\":{\"gate\":\"B\(i)\",\"status\":\"boarding\",\"seats\":[12,14.50,1e3]}"
            i += 1
        }
        state += "\n}"
        let d = Delivery(
            name: "bench-live", label: "Benchmark: a Live Activity with a 3 KB content state", service: service.name,
            content: DeliveryContent(title: "Boarding", body: "Gate B12"),
            ios: IOSOptions(type: .liveactivity, priority: .powerConsiderate),
            liveActivity: LiveActivity(event: "update", contentState: state))
        try store.save(d)
        let bytes =
            PreviewEngine.preview(delivery: d, service: service, profile: nil, appKey: nil, token: nil, now: Date())
            .targets.map(\.bytes).max() ?? 0
        return (d, bytes)
    }

    static func ms(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    static func report(_ name: String, _ samples: [Double]) {
        let s = samples.sorted()
        func p(_ q: Double) -> Double { s[min(s.count - 1, Int(Double(s.count) * q))] }
        print(
            "  " + name.padding(toLength: 48, withPad: " ", startingAt: 0)
                + String(format: " median %6.2f ms   p99 %6.2f ms   max %6.2f ms", p(0.5), p(0.99), s.last ?? 0))
    }
}
