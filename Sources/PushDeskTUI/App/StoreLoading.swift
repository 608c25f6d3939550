import Foundation
import PushDeskCore

/// A console that opens at once on a large store: the first frame lists the service
/// names (a directory listing), while a background job loads every file and runs every
/// rule (`ConsoleApp.startLoading`); its result is the `.loaded` effect, and the screen is
/// redrawn with labels and findings.
/// docs/PERFORMANCE.md has the numbers. A small store shows its services and their
/// findings in the first frame, and its deliveries and profiles are read just after it,
/// before any key is read (`ConsoleApp.loadRest`).

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

    /// The whole store by default; `ConsoleStore` reads the services alone.
    public func loadServices() -> LoadedStore { loadEverything() }
}
