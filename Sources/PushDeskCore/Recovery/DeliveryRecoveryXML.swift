/// A delivery draft's XML for a recovery file, never failing, as `RecoveryXML.service`:
/// characters XML cannot store (a pasted ESC in a body) become U+FFFD and the entry says so.
extension RecoveryXML {
    public static func delivery(_ d: Delivery) -> (bytes: [UInt8], replaced: Bool) {
        if let text = try? DeliveryXML.encode(d) { return (Array(text.utf8), false) }
        let clean = d.mappingStrings(replaceForbidden)
        return (Array(((try? DeliveryXML.encode(clean)) ?? "").utf8), true)
    }
}

extension Delivery {
    /// The same delivery with `f` applied to every text value.
    func mappingStrings(_ f: (String) -> String) -> Delivery {
        func opt(_ s: String?) -> String? { s.map(f) }
        var d = self
        d.name = f(name)
        d.label = f(label)
        d.service = f(service)
        d.content = DeliveryContent(title: f(content.title), subtitle: f(content.subtitle), body: f(content.body))
        d.tracking = tracking.map { Tracking(messageId: f($0.messageId), deliveryId: f($0.deliveryId)) }
        d.variables = variables.map { VariableValue(name: f($0.name), value: f($0.value)) }
        d.ios.sound = opt(ios.sound)
        d.ios.volume = opt(ios.volume)
        d.ios.badge = opt(ios.badge)
        d.ios.category = opt(ios.category)
        d.ios.threadId = opt(ios.threadId)
        d.ios.relevanceScore = opt(ios.relevanceScore)
        d.ios.targetContentId = opt(ios.targetContentId)
        d.ios.launchImage = opt(ios.launchImage)
        d.ios.collapseId = opt(ios.collapseId)
        d.ios.expiration = opt(ios.expiration)
        d.android.ttl = opt(android.ttl)
        d.android.collapseKey = opt(android.collapseKey)
        d.android.channelId = opt(android.channelId)
        d.android.sound = opt(android.sound)
        d.android.icon = opt(android.icon)
        d.android.color = opt(android.color)
        d.android.tag = opt(android.tag)
        d.android.clickAction = opt(android.clickAction)
        d.android.image = opt(android.image)
        d.android.ticker = opt(android.ticker)
        d.android.notificationCount = opt(android.notificationCount)
        return d
    }
}
