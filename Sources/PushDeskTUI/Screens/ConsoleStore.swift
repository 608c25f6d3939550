import PushDeskCore

/// What the console needs from the store: the core's Store and rules engine, bound
/// by `ConsoleStore.open(root:)`. Kept as a value of functions so the screens name
/// no file paths and every rule comes from PushDeskCore.
public struct ConsoleStore: Sendable {
    /// The store directory (file-path completion starts here).
    public var root: String
    /// Services and load errors (`FILE:LINE:COLUMN: error: MESSAGE`).
    public var load: @Sendable () -> (services: [Service], errors: [String])
    public var save: @Sendable (Service) throws -> Void
    public var delete: @Sendable (String) throws -> Void
    /// Every finding of the store with these services in place of the saved ones.
    public var check: @Sendable ([Service]) -> [Finding]

    public init(root: String,
                load: @escaping @Sendable () -> (services: [Service], errors: [String]),
                save: @escaping @Sendable (Service) throws -> Void,
                delete: @escaping @Sendable (String) throws -> Void,
                check: @escaping @Sendable ([Service]) -> [Finding]) {
        self.root = root; self.load = load; self.save = save; self.delete = delete; self.check = check
    }

    /// Store-relative file of a service (as findings name it).
    public static func servicePath(_ name: String) -> String { "services/\(name).xml" }
}
