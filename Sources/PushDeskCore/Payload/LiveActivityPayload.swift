/// The `liveactivity` payload shape (docs/PAYLOADS.md): `{"aps":{…}}` and no custom keys
/// (ActivityKit does not hand them to the app), and which token kind its event goes to. The
/// push-type row, headers, topic, priority and size checks are the shared ones
/// (`PushType.liveactivity`, `APNsRequest`, `PushTypeRules`); its own rules are
/// `LiveActivityRules`. `aps` holds, each only when set and in this
/// order: `timestamp`, `event`, `content-state`, `attributes-type`, `attributes`,
/// `stale-date`, `dismissal-date`, `relevance-score`, `input-push-token`,
/// `input-push-channel`, `alert` {`title`, `body`, `sound`}.
///
/// What an event does not take (attributes on an update, a dismissal date on a start) is
/// left out, and a JSON text that does not read, or a date that does not parse, too: the
/// rules (`liveactivity.event`, `liveactivity.json`, …) report them on their field, so the
/// preview never shows a payload ActivityKit would drop.
public enum LiveActivityPayload {
    /// The two JSON texts, read; nil for one that is absent or does not read.
    public struct Texts: Sendable {
        public var contentState: JSONValue?
        public var attributes: JSONValue?
        public init(_ la: LiveActivity) {
            contentState = try? JSONReader.object(la.contentState)
            attributes = la.attributes.flatMap { try? JSONReader.object($0) }
        }
    }

    /// `{"aps":{…}}` as `APNsRequest` builds it for the type.
    public static func payload(delivery: Delivery, timestamp: Int) -> JSONValue {
        var top = JSONTree.emptyObject
        JSONTree.append("aps", .object(aps(JSONTree.self, delivery: delivery, timestamp: timestamp)), to: &top)
        return .object(top)
    }

    /// Byte count of `payload`, built by the same function.
    static func payloadBytes(delivery: Delivery, timestamp: Int) -> Int {
        var top = JSONByteCount.emptyObject
        JSONByteCount.append(
            "aps", JSONByteCount.value(aps(JSONByteCount.self, delivery: delivery, timestamp: timestamp)), to: &top)
        return JSONByteCount.value(top)
    }

    /// `pushToStart` for a start, `activity` for an update or end (docs/PAYLOADS.md).
    static func tokenKind(_ delivery: Delivery) -> TokenKind {
        delivery.liveActivity?.knownEvent == .start ? .pushToStart : .activity
    }

    /// The members of `aps`, in the order docs/PAYLOADS.md gives; `timestamp` is the UNIX second the
    /// request is built (`preview --at` pins it).
    static func aps<J: JSONOutput>(_: J.Type, delivery: Delivery, timestamp: Int) -> J.Object {
        let la = delivery.liveActivity ?? LiveActivity(contentState: "")
        let event = la.knownEvent
        let texts = Texts(la)
        var aps = J.emptyObject
        J.append("timestamp", J.int(timestamp), to: &aps)
        if let e = la.event.nonEmpty { J.append("event", J.string(e), to: &aps) }
        if let cs = texts.contentState { J.append("content-state", J.json(cs), to: &aps) }
        if event == .start {
            if let t = la.attributesType.nonEmpty { J.append("attributes-type", J.string(t), to: &aps) }
            if let a = texts.attributes { J.append("attributes", J.json(a), to: &aps) }
        }
        if let text = la.staleDate.nonEmpty, let s = OptionValues.expiration(text) {
            J.append("stale-date", J.number(String(s)), to: &aps)
        }
        if event == .end, let text = la.dismissalDate.nonEmpty, let s = OptionValues.expiration(text) {
            J.append("dismissal-date", J.number(String(s)), to: &aps)
        }
        if let text = delivery.ios.relevanceScore.nonEmpty, let v = OptionValues.number(text) {
            J.append("relevance-score", J.number(v), to: &aps)
        }
        if event == .start {
            if la.inputPushToken == true { J.append("input-push-token", J.int(1), to: &aps) }
            if let c = la.inputPushChannel.nonEmpty { J.append("input-push-channel", J.string(c), to: &aps) }
        }
        // For Live Activities Apple puts the sound inside `alert`.
        var alert = J.emptyObject
        if let t = delivery.content.title.nonEmpty { J.append("title", J.string(t), to: &alert) }
        if let b = delivery.content.body.nonEmpty { J.append("body", J.string(b), to: &alert) }
        if let s = APNsSound.value(J.self, delivery.ios) { J.append("sound", s, to: &alert) }
        if !J.isEmpty(alert) { J.append("alert", J.value(alert), to: &aps) }
        return aps
    }
}

/// `sound` as docs/PAYLOADS.md says it is sent: the name, or for a critical alert the dictionary
/// `{"critical":1,"name":NAME,"volume":V}`; nil when there is none.
enum APNsSound {
    static func value<J: JSONOutput>(_: J.Type, _ ios: IOSOptions) -> J.Value? {
        if ios.critical == true {
            var sound = J.emptyObject
            J.append("critical", J.int(1), to: &sound)
            J.append("name", J.string(ios.sound.nonEmpty ?? "default"), to: &sound)
            if let text = ios.volume.nonEmpty, let v = OptionValues.unitInterval(text) {
                J.append("volume", J.number(v), to: &sound)
            }
            return J.value(sound)
        }
        return ios.sound.nonEmpty.map { J.string($0) }
    }
}
