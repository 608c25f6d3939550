import Foundation

/// `deliveries/<name>.xml` ⇄ `Delivery` (docs/FORMATS.md). Attribute order here is the file's fixed order.
public enum DeliveryXML {
    static let deliveryAttributes = ["format", "name", "label", "service"]
    static let iosAttributes = IOSOptions.definitions.names()
    static let androidAttributes = AndroidOptions.definitions.names()
    static let liveActivityAttributes = LiveActivity.definitions.names()

    // MARK: reading

    /// The delivery, and where its fields stand (found again from `data` when first asked).
    public static func decode(_ data: Data, file: String) throws -> (Delivery, SourceMap) {
        try SourceMap.decoding(data, file: file) { try decode($0, file: $1, recording: $2) }
    }

    static func decode(_ data: Data, file: String, recording map: SourceMapRecorder?) throws -> Delivery {
        try decode(XMLReader.parse(data, file: file), file: file, recording: map)
    }

    /// An already parsed file (the merge driver parses each version once).
    static func decode(_ root: XMLNode, file: String, recording map: SourceMapRecorder? = nil) throws -> Delivery {
        let r = ElementReader(root, file: file, sourceMap: map)
        try r.checkRoot(RecordKind.delivery.rootElement)
        try r.checkAttributes(deliveryAttributes)
        try r.checkChildren(["content", "tracking", "ios", "liveActivity", "android", "variables"])
        var d = Delivery(
            name: try r.required("name"), label: r.optional("label") ?? "",
            service: r.optional("service") ?? "")
        if let node = r.child(named: "content") {
            let c = r.reader(for: node, path: "content")
            try c.checkAttributes([])
            try c.checkChildren(["title", "subtitle", "body"])
            for child in node.children {
                let text = try c.leafText(of: child, path: "content.\(child.name)")
                switch child.name {
                case "title": d.content.title = text
                case "subtitle": d.content.subtitle = text
                default: d.content.body = text
                }
            }
        }
        if let node = r.child(named: "tracking") {
            let t = r.reader(for: node, path: "tracking.")
            try t.checkAttributes(["messageId", "deliveryId"])
            try t.checkChildren([])
            d.tracking = Tracking(messageId: t.optional("messageId") ?? "", deliveryId: t.optional("deliveryId") ?? "")
        }
        if let node = r.child(named: "ios") {
            let i = r.reader(for: node, path: "ios.")
            try i.checkAttributes(iosAttributes)
            try i.checkChildren([])
            try IOSOptions.definitions.decode(i, into: &d.ios)
        }
        if let node = r.child(named: "liveActivity") {
            d.liveActivity = try liveActivity(r.reader(for: node, path: "liveActivity."), file: file, recording: map)
        }
        if let node = r.child(named: "android") {
            let a = r.reader(for: node, path: "android.")
            try a.checkAttributes(androidAttributes)
            try a.checkChildren([])
            try AndroidOptions.definitions.decode(a, into: &d.android)
        }
        if let node = r.child(named: "variables") {
            let v = r.reader(for: node, path: "variables")
            try v.checkAttributes([])
            try v.checkChildren(["value"], repeatable: ["value"])
            for child in node.children {
                let e = ElementReader(child, file: file, sourceMap: map)
                try e.checkAttributes(["name"])
                let name = try e.required("name")
                if d.variables.contains(where: { $0.name == name }) {
                    throw e.error(attribute: "name", "a value for `\(Escape.inline(name))` is given twice; keep one")
                }
                map?.record("variables.\(name)", (child.line, child.column))
                try e.checkChildren([], textAllowed: true)
                d.variables.append(VariableValue(name: name, value: child.text))
            }
        }
        return d
    }

    /// `<liveActivity>`: its attributes, then `<contentState>` (required) and `<attributes>`.
    /// The JSON texts are kept as written; the rules read them (`liveactivity.json`). Their
    /// fields are mapped to where the text starts, so a JSON error's line:column inside the
    /// text becomes one in the file.
    private static func liveActivity(_ l: ElementReader, file: String, recording map: SourceMapRecorder?) throws
        -> LiveActivity
    {
        try l.checkAttributes(liveActivityAttributes)
        try l.checkChildren(LiveActivity.texts.map(\.name))
        var la = LiveActivity(contentState: "")
        try LiveActivity.definitions.decode(l, into: &la)
        guard l.child(named: "contentState") != nil else {
            throw l.error(
                "<liveActivity> needs <contentState> with a JSON object, e.g. <contentState>{\"status\":\"boarding\"}</contentState>"
            )
        }
        for (name, _, kp) in LiveActivity.texts {
            guard let child = l.child(named: name) else { continue }
            map?.record("liveActivity.\(name)", child.textPosition)
            la[keyPath: kp] = try l.leafText(of: child, path: "liveActivity.\(name)")
        }
        return la
    }

    // MARK: writing

    public static func encode(_ d: Delivery) throws -> String {
        var w = XMLWriter()
        try w.start("delivery", [("format", "1"), ("name", d.name), ("label", d.label), ("service", d.service)])
        let c = d.content
        if !(c.title.isEmpty && c.subtitle.isEmpty && c.body.isEmpty) {
            try w.start("content")
            if !c.title.isEmpty { try w.textElement("title", text: c.title) }
            if !c.subtitle.isEmpty { try w.textElement("subtitle", text: c.subtitle) }
            if !c.body.isEmpty { try w.textElement("body", text: c.body) }
            w.end()
        }
        if let t = d.tracking {
            try w.empty("tracking", [("messageId", t.messageId), ("deliveryId", t.deliveryId)])
        }
        let iosAttrs = IOSOptions.definitions.attributes(of: d.ios)
        if iosAttrs.contains(where: { $0.1 != nil }) { try w.empty("ios", iosAttrs) }
        if let la = d.liveActivity {
            try w.start("liveActivity", LiveActivity.definitions.attributes(of: la))
            try w.textElement("contentState", text: la.contentState)
            if let a = la.attributes { try w.textElement("attributes", text: a) }
            w.end()
        }
        let androidAttrs = AndroidOptions.definitions.attributes(of: d.android)
        if androidAttrs.contains(where: { $0.1 != nil }) { try w.empty("android", androidAttrs) }
        if !d.variables.isEmpty {
            // The reader refuses a second value for a name; never write a file it would refuse.
            var seen = Set<String>()
            for v in d.variables where !seen.insert(v.name).inserted {
                throw XMLEncodeError("a value for `\(Escape.inline(v.name))` is given twice; keep one")
            }
            try w.start("variables")
            for v in d.variables {
                try w.textElement("value", [("name", v.name)], text: v.value)
            }
            w.end()
        }
        w.end()
        return w.output
    }
}
