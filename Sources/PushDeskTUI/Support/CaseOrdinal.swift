/// An enumeration without payloads, of at most 256 cases, whose values index per-case
/// arrays (a theme's styles by role, the registry's bindings by context) instead of
/// dictionaries: no hashing, and no runtime proof of `Hashable` at first use.
protocol CaseOrdinal: CaseIterable {}

extension CaseOrdinal {
    /// The case's place in `allCases`: such a case is stored as its number in declaration
    /// order (RoleTableTests and KeyRegistryTests check it against `allCases`).
    var ordinal: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}
