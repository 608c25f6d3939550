/// The `liveactivity` payload shape (SPEC §12.2): what `<liveActivity>` becomes in `aps`,
/// which token kind its event goes to, and its findings. The push-type row, headers, topic,
/// priority and size checks are the shared ones (`PushType.liveactivity`, `APNsRequest`,
/// `PushTypeRules`).
///
/// Not built yet: the delivery model has no `<liveActivity>` element, so `aps` holds only the
/// `timestamp` and every Live Activity delivery carries a `liveactivity.json` error, which
/// blocks sending it. The Live Activity work fills these three functions in.
enum LiveActivityPayload {
    /// The members of `aps`, in SPEC §12.2's order; `timestamp` is the UNIX second the
    /// request is built (`preview --at` pins it).
    static func aps<J: JSONOutput>(_: J.Type, delivery: Delivery, timestamp: Int) -> J.Object {
        var aps = J.emptyObject
        J.append("timestamp", J.int(timestamp), to: &aps)
        return aps
    }

    /// `pushToStart` for a start, `activity` for an update or end.
    static func tokenKind(_ delivery: Delivery) -> TokenKind { .pushToStart }

    /// The `liveactivity.*` findings of a Live Activity delivery.
    static func findings(_ delivery: Delivery, file: String) -> [Finding] {
        [
            DeliveryRules.liveActivityJSON.finding(
                "this PushDesk cannot read a Live Activity's content state yet, so it cannot build the payload; use another type",
                file: file, field: "ios.type")
        ]
    }
}
