/// The service-file rules of broadcast channels (SPEC §12.4), run with the other per-app rules.
extension ServiceRules {
    /// `channel.id`: Apple's ids are base64; `channel.label-duplicate`: the console, `send
    /// --channel` and `channels delete --label` find a channel by its label within the app.
    static func checkChannels(
        _ channels: [BroadcastChannel], app p: FieldPath, name: @autoclosure () -> String,
        _ add: (Severity, String, FieldPath, String) -> Void
    ) {
        var labels = Set<String>(minimumCapacity: channels.count)
        for (j, c) in channels.enumerated() {
            if !BroadcastChannel.isValidId(c.id) {
                add(
                    .error, "channel.id", p.item("channels", j).appending("id"),
                    c.id.isEmpty
                        ? "a channel of \(name()) has no id; create channels with `pushdesk channels create`"
                        : "channel id \"\(Escape.inline(c.id, limit: 60))\" of \(name()) is not base64 as Apple writes channel ids; copy it from `pushdesk channels list`"
                )
            }
            if !c.label.isEmpty, !labels.insert(c.label).inserted {
                add(
                    .error, "channel.label-duplicate", p.item("channels", j).appending("label"),
                    "the channel label `\(Escape.inline(c.label))` is used twice in \(name()); labels pick a channel, so give each its own"
                )
            }
        }
    }
}
