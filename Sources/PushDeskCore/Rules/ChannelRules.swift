/// The rules of an iOS app's broadcast channels in the service file (docs/SENDING.md), run with
/// the other app checks, and the one `pushdesk channels list` reports against Apple's list.
public enum ChannelRules {
    public static let channelId = Rule(
        "channel.id", .error, .app, "an iOS app's channel id is empty or not base64")
    public static let labelDuplicate = Rule(
        "channel.label-duplicate", .error, .app, "two channels of one app share a label")
    public static let unknownToApple = Rule(
        "channel.unknown-to-apple", .warning, .app, "a channel of the store that Apple's list does not hold")

    static let all = [channelId, labelDuplicate, unknownToApple]

    /// `channel.id`: Apple's ids are base64; `channel.label-duplicate`: the console, `send
    /// --channel` and `channels delete --label` find a channel by its label within the app.
    static let check = RuleCheck<AppInput>([channelId, labelDuplicate]) { input, out in
        guard case .ios(let a) = input.app, !a.channels.isEmpty else { return }
        var labels = Set<String>(minimumCapacity: a.channels.count)
        for (j, c) in a.channels.enumerated() {
            var field: FieldPath { input.path.item("channels", j) }  // built only for a finding
            if !BroadcastChannel.isValidId(c.id) {
                out.append(
                    input.finding(
                        channelId, field.appending("id"),
                        c.id.isEmpty
                            ? "a channel of \(input.name) has no id; create channels with `pushdesk channels create`"
                            : "channel id \"\(Escape.inline(c.id, limit: 60))\" of \(input.name) is not base64 as Apple writes channel ids; copy it from `pushdesk channels list`"
                    ))
            }
            if !c.label.isEmpty, !labels.insert(c.label).inserted {
                out.append(
                    input.finding(
                        labelDuplicate, field.appending("label"),
                        "the channel label `\(Escape.inline(c.label))` is used twice in \(input.name); labels pick a channel, so give each its own"
                    ))
            }
        }
    }

    /// A channel of the store that Apple's list (`channels list`) does not hold.
    public static func notListed(_ c: BroadcastChannel, app: IOSApp, index: Int, channel j: Int, file: String)
        -> Finding
    {
        unknownToApple.finding(
            "channel \(c.label.isEmpty ? "" : "“\(Escape.inline(c.label))” ")(\(Escape.inline(c.id))) is in the store but Apple does not list it for \(Escape.inline(app.bundleId)) in \(app.environment.rawValue): it was deleted or made in the other environment; remove it or create a new one",
            file: file, field: FieldPath.app(index).appending("channels").at(j).appending("id"))
    }
}
