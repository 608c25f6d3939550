import Foundation

/// `deliveries/<name>.xml` ⇄ `Delivery` (docs/FORMATS.md). Attribute order here is the file's fixed order.
public enum DeliveryXML {
    static let deliveryAttributes = ["format", "name", "label", "service"]
    static let iosAttributes = IOSOptions.definitions.names()
    static let androidAttributes = AndroidOptions.definitions.names()
    static let liveActivityAttributes = LiveActivity.definitions.names()
    static let localizedAttributes = LocalizedKeys.definitions.names()
    static let textElements = DeliveryText.allCases.map(\.rawValue)

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
        try r.checkChildren(["content", "variants", "tracking", "ios", "liveActivity", "android", "variables"])
        var d = Delivery(
            name: try r.required("name"), label: r.optional("label") ?? "",
            service: r.optional("service") ?? "")
        if let node = r.child(named: "content") {
            let c = r.reader(for: node, path: "content")
            try c.checkAttributes([])
            try c.checkChildren(textElements + ["localized"])
            try readTexts(c, path: "content", into: &d.content)
            if let l = c.child(named: "localized") {
                d.content.localized = try localized(c.reader(for: l, path: "content.localized."))
            }
        }
        if let node = r.child(named: "variants") {
            d.variants = try variants(r.reader(for: node, path: "variants"), file: file, recording: map)
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
            d.variables = try values(
                r.reader(for: node, path: "variables"), path: "variables", file: file, recording: map)
        }
        return d
    }

    /// The `<value name>` children of a `<variables>`, each name once.
    private static func values(_ v: ElementReader, path: String, file: String, recording map: SourceMapRecorder?)
        throws -> [VariableValue]
    {
        try v.checkAttributes([])
        try v.checkChildren(["value"], repeatable: ["value"])
        var out: [VariableValue] = []
        for child in v.node.children {
            let e = ElementReader(child, file: file, sourceMap: map)
            try e.checkAttributes(["name"])
            let name = try e.required("name")
            if out.contains(where: { $0.name == name }) {
                throw e.error(attribute: "name", "a value for `\(Escape.inline(name))` is given twice; keep one")
            }
            map?.record("\(path).\(name)", (child.line, child.column))
            try e.checkChildren([], textAllowed: true)
            out.append(VariableValue(name: name, value: child.text))
        }
        return out
    }

    /// `<title>`, `<subtitle>`, `<body>` of `<content>` or a `<variant>` (the caller checked
    /// which children may appear).
    private static func readTexts(_ r: ElementReader, path: String, into t: inout some DeliveryTexts) throws {
        for child in r.node.children {
            guard let text = DeliveryText(rawValue: child.name) else { continue }
            text.set(try r.leafText(of: child, path: "\(path).\(child.name)"), in: &t)
        }
    }

    /// `<localized>`: its key attributes, then its arguments in the order written.
    private static func localized(_ l: ElementReader) throws -> LocalizedKeys {
        try l.checkAttributes(localizedAttributes)
        let names = LocalizedKeys.arguments.map(\.element)
        try l.checkChildren(names, repeatable: names)
        var keys = LocalizedKeys()
        try LocalizedKeys.definitions.decode(l, into: &keys)
        for child in l.node.children {
            guard let arg = LocalizedKeys.arguments.first(where: { $0.element == child.name }) else { continue }
            keys[keyPath: arg.args].append(try l.leafText(of: child, path: "content.localized.\(child.name)"))
        }
        return keys
    }

    /// `<variants>`: `<variant locale>` entries in file order, each with its texts and values.
    /// A locale that is no tag, or one given twice, is kept for the rules (`variant.locale`).
    private static func variants(_ r: ElementReader, file: String, recording map: SourceMapRecorder?) throws
        -> [DeliveryVariant]
    {
        try r.checkAttributes([])
        try r.checkChildren(["variant"], repeatable: ["variant"])
        var out: [DeliveryVariant] = []
        for node in r.node.children {
            let probe = ElementReader(node, file: file, sourceMap: nil)
            let locale = try probe.required("locale")
            let path = DeliveryVariant(locale: locale).field.description
            let v = r.reader(for: node, path: path + ".")
            try v.checkAttributes(["locale"])
            try v.checkChildren(textElements + ["variables"])
            var variant = DeliveryVariant(locale: locale)
            try readTexts(v, path: path, into: &variant)
            if let vars = v.child(named: "variables") {
                variant.variables = try values(
                    v.reader(for: vars, path: path + ".values"), path: path + ".values", file: file, recording: map)
            }
            out.append(variant)
        }
        return out
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
        if !c.hasNoText || c.localized != nil {
            try w.start("content")
            try writeTexts(c, &w)
            if let l = c.localized {
                var args: [(element: String, text: String)] = []
                for a in LocalizedKeys.arguments {
                    let texts: [String] = l[keyPath: a.args]
                    args += texts.map { (a.element, $0) }
                }
                let attributes = LocalizedKeys.definitions.attributes(of: l)
                if args.isEmpty {
                    try w.empty("localized", attributes)
                } else {
                    try w.start("localized", attributes)
                    for (element, text) in args { try w.textElement(element, text: text) }
                    w.end()
                }
            }
            w.end()
        }
        if !d.variants.isEmpty {
            try w.start("variants")
            for v in d.variants {
                try w.start("variant", [("locale", v.tag?.description ?? v.locale)])
                try writeTexts(v, &w)
                try writeValues(v.variables, &w)
                w.end()
            }
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
        try writeValues(d.variables, &w)
        w.end()
        return w.output
    }

    private static func writeTexts(_ t: some DeliveryTexts, _ w: inout XMLWriter) throws {
        for text in DeliveryText.allCases where !text.value(in: t).isEmpty {
            try w.textElement(text.rawValue, text: text.value(in: t))
        }
    }

    /// `<variables>`, when there is a value.
    private static func writeValues(_ values: [VariableValue], _ w: inout XMLWriter) throws {
        guard !values.isEmpty else { return }
        // The reader refuses a second value for a name; never write a file it would refuse.
        var seen = Set<String>()
        for v in values where !seen.insert(v.name).inserted {
            throw XMLEncodeError("a value for `\(Escape.inline(v.name))` is given twice; keep one")
        }
        try w.start("variables")
        for v in values {
            try w.textElement("value", [("name", v.name)], text: v.value)
        }
        w.end()
    }
}
