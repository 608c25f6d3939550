import Foundation
import PushDeskCore

/// A console that opens at once on a large store: the first frame lists the service
/// names (a directory listing), while a background thread loads every file and runs every
/// rule; the result reaches the single-threaded app through `LoadInbox`, which the run
/// loop polls between keys, and the screen is redrawn with labels and findings.
/// docs/PERFORMANCE.md has the numbers; small stores still load before the first frame.

/// Everything the console shows that needs the whole store read and checked.
public struct LoadedStore: Sendable {
    public var services: [Service]
    public var errors: [String]
    /// What the deliveries lists and the composer need.
    public var deliveries: [Delivery]
    public var profiles: [Profile]
    public var findings: [Finding]
}

extension ConsoleStore {
    /// Stores with more files than this open lazily (names first); smaller ones load in
    /// a few milliseconds, before the first frame, and show everything at once.
    public static let lazyThreshold = 300
}

extension ConsoleStorage {
    /// Reads and checks the whole store (the slow part; any thread).
    public func loadEverything() -> LoadedStore {
        let r = load()
        let deliveries = deliveries()
        return LoadedStore(
            services: r.services, errors: r.errors, deliveries: deliveries, profiles: profiles(),
            findings: check(r.services, deliveries))
    }
}

extension ConsoleApp {
    static let stillLoading = KeyRegistry.stillLoading

    /// The lazy start: one placeholder row per service file, marked as loading.
    func beginLoading() {
        services = store.index().map { Service(name: $0, label: "") }
        loadErrors = []
        deliveries = []
        profiles = []
        findings = []
        loading = true
    }

    /// The background load arrived: the real records and findings replace the placeholders.
    public func finishLoading(_ loaded: LoadedStore) {
        loading = false
        services = loaded.services
        loadErrors = loaded.errors
        deliveries = loaded.deliveries
        profiles = loaded.profiles
        findings = loaded.findings  // no draft can exist yet: nothing opens while loading
        for s in stack { s.willAppear(app: self) }
        settle()
    }
}

/// One value handed from the loading thread to the run loop.
public final class LoadInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: LoadedStore?
    public init() {}
    public func put(_ v: LoadedStore) {
        lock.lock()
        value = v
        lock.unlock()
    }
    public func take() -> LoadedStore? {
        lock.lock()
        defer {
            value = nil
            lock.unlock()
        }
        return value
    }

    /// Starts loading `store` on its own thread.
    public func start(_ store: any ConsoleStorage) {
        Thread.detachNewThread { [self] in put(store.loadEverything()) }
    }
}
