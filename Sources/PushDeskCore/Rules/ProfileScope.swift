import Foundation

/// The profiles' test devices against the store's apps: checked again when an edit changes
/// an app's integration key or platform.
final class ProfileScope: StoreScope, @unchecked Sendable {
    static func all(_ snapshot: StoreSnapshot, now: Date) -> [Finding] {
        snapshot.positioned(
            ProfileRules.check(
                profiles: snapshot.profiles, services: snapshot.services,
                servicesUnreadable: snapshot.servicesUnreadable))
    }

    /// The findings, positioned, while no edit changes what they depend on.
    private var kept: [Finding]?

    init(_ snapshot: StoreSnapshot, now: Date) {}

    func findings(_ edit: StoreEdit) -> [Finding] {
        if !edit.sameShape
            || edit.changed.contains(where: { !ProfileRules.sameAppKeys(edit.previous[$0], edit.services[$0]) })
        {
            kept = nil
        }
        if let kept { return kept }
        let found = edit.snapshot.positioned(
            ProfileRules.check(
                profiles: edit.snapshot.profiles, services: edit.services,
                servicesUnreadable: edit.snapshot.servicesUnreadable))
        kept = found
        return found
    }
}
