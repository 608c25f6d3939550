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
        if var l = content.localized {
            for o in LocalizedKeys.definitions { o.set(&l, opt(o.text(l))) }
            for a in LocalizedKeys.arguments { l[keyPath: a.args] = l[keyPath: a.args].map(f) }
            d.content.localized = l
        }
        d.variants = variants.map { v in
            DeliveryVariant(
                locale: f(v.locale), title: f(v.title), subtitle: f(v.subtitle), body: f(v.body),
                variables: v.variables.map { VariableValue(name: f($0.name), value: f($0.value)) })
        }
        d.tracking = tracking.map { Tracking(messageId: f($0.messageId), deliveryId: f($0.deliveryId)) }
        d.variables = variables.map { VariableValue(name: f($0.name), value: f($0.value)) }
        for o in IOSOptions.definitions where o.kind == .text { o.set(&d.ios, opt(o.text(ios))) }
        for o in AndroidOptions.definitions where o.kind == .text { o.set(&d.android, opt(o.text(android))) }
        if var la = liveActivity {
            for o in LiveActivity.definitions where o.kind == .text { o.set(&la, opt(o.text(la))) }
            for t in LiveActivity.texts { la[keyPath: t.text] = opt(la[keyPath: t.text]) }
            d.liveActivity = la
        }
        return d
    }
}
