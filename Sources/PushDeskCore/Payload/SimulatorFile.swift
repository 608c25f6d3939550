/// The iOS Simulator's push file (docs/PAYLOADS.md): the APNs payload with
/// `"Simulator Target Bundle"` (the app's bundle id) as its first key, for
/// `xcrun simctl push booted FILE` or a drop on the Simulator window. The Simulator takes
/// application notifications only (`alert` and `silent`).
public enum SimulatorFile {
    public static let typeRule = Rule(
        "simulator.type", .error, .preview, "the Simulator takes alert and silent pushes only")
    public static let platformRule = Rule(
        "simulator.platform", .error, .preview, "a Simulator file asked for an Android app")
    public static let all: [Rule] = [typeRule, platformRule]

    public static let bundleKey = "Simulator Target Bundle"

    /// The file's text for `target` (a preview target of `app`), or the finding that says why
    /// there is none.
    public enum Outcome: Sendable {
        case file(String)
        case refused(Finding)
    }

    public static func make(delivery: Delivery, app: MobileApp, target: PreviewTarget?) -> Outcome {
        guard case .ios(let a) = app else {
            return .refused(
                platformRule.finding(
                    "\(Escape.inline(app.integrationKey)) is an Android app; the iOS Simulator takes APNs payloads: give --app the key of an iOS app (an emulator gets FCM messages through send)",
                    file: Delivery.path(delivery.name), field: "app"))
        }
        let type = delivery.ios.effectiveType
        guard type == .alert || type == .silent else {
            return .refused(
                typeRule.finding(
                    "the Simulator takes alert and silent pushes only, not \(type.name); send it to a device (pushdesk send) or change the iOS type",
                    file: Delivery.path(delivery.name), field: "ios.type"))
        }
        var members: [(String, JSONValue)] = [(bundleKey, .string(a.bundleId))]
        if case .object(let payload)? = target?.payload { members += payload }
        return .file(JSONValue.object(members).pretty)
    }
}
