import Foundation
import PushDeskCore

/// A console that opens at once on a large store: the first frame lists the service
/// names (a directory listing), while a background thread loads every file and runs every
/// rule; the load is a background `Job`, whose result the run loop hands to the app, and
/// the screen is redrawn with labels and findings.
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

    /// Starts the lazy start's load off the input loop; recovered drafts (which need the
    /// loaded store) are offered when it arrives.
    public func startLoading() {
        let store = self.store
        apply(
            .run(
                .make(.background, work: { _ in store.loadEverything() }) { [weak self] loaded, _ in
                    guard let self else { return .none }
                    finishLoading(loaded)
                    if dialog == nil { offerPendingRecovery() }
                    return .none
                }))
    }

    /// The background load arrived: the real records and findings replace the placeholders.
    public func finishLoading(_ loaded: LoadedStore) {
        loading = false
        services = loaded.services
        loadErrors = loaded.errors
        deliveries = loaded.deliveries
        profiles = loaded.profiles
        findings = loaded.findings  // no draft can exist yet: nothing opens while loading
        for s in stack { s.willAppear(app: context) }
        settle()
    }
}
