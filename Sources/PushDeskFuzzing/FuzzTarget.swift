import Foundation

/// The two fuzz targets; scripts/fuzz picks one with `PUSHDESK_FUZZ_TARGET`.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Bytes as service, delivery and profile files (`LoaderFuzz`).
    case xml
    /// Bytes as model values for the payload builder (`PayloadFuzz`).
    case payload

    public func check(_ data: Data) -> FuzzProblems {
        switch self {
        case .xml: LoaderFuzz.check(data)
        case .payload: PayloadFuzz.check(data)
        }
    }
}
