/// One field (or list entry) both sides changed differently (docs/TEAMS.md): the merged file
/// keeps OURS' value. `ours` and `theirs` are already in report form: a JSON-quoted value,
/// `(not set)`, `(removed)` or `(changed)`.
public struct MergeConflict: Equatable, Sendable {
    /// Field path as in findings (`apps[2].label`, `ios.badge`, `variables.mediaUrl`).
    public var field: String
    public var ours: String
    public var theirs: String

    public static let notSet = "(not set)"
    public static let removed = "(removed)"
    public static let changed = "(changed)"

    /// `PATH:FIELD: ours VALUE, theirs VALUE`, the report line on stderr. The field path may
    /// hold a name from the file: it goes through the one escape rule.
    public func reportLine(path: String) -> String {
        "\(Escape.inline(path, limit: .max)):\(Escape.inline(field, limit: .max)): ours \(ours), theirs \(theirs)"
    }

    /// A value as the report shows it: JSON-quoted, with every character the escape rule
    /// keeps from a terminal written as a JSON `\u` escape (so the text stays valid JSON).
    static func quoted(_ value: String?) -> String {
        guard let value else { return notSet }
        var bytes: [UInt8] = []
        JSONValue.writeString(value, into: &bytes)
        let json = String(decoding: bytes, as: UTF8.self)
        let scalars = Array(json.unicodeScalars)
        var out = ""
        for (i, s) in scalars.enumerated() {
            let previous = i > 0 ? scalars[i - 1] : nil
            let next = i + 1 < scalars.count ? scalars[i + 1] : nil
            guard Escape.mustEscape(s, previous: previous, next: next) else {
                out.unicodeScalars.append(s)
                continue
            }
            for unit in String(s).utf16 {
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out
    }
}

/// The three-way merge of two edits of one record's element tree (docs/TEAMS.md): fields one
/// side changed take that side, lists merge entry by entry by identity, conflicts keep OURS.
struct TreeMerge {
    let schema: MergeSchema
    /// Conflicts resolved for THEIRS, by field path as reported (the console's resolve):
    /// those fields take THEIRS' value (or entry) and are no longer reported.
    var theirsWins: Set<String> = []

    /// `base` nil: both sides created the record (an empty BASE merges as if it had no fields).
    func merge(base: RecordNode?, ours: RecordNode, theirs: RecordNode) -> (RecordNode, [MergeConflict]) {
        var conflicts: [MergeConflict] = []
        let node = mergeNode(base, ours, theirs, path: "", into: &conflicts)
        return (node, conflicts)
    }

    /// Merges one element; a side without it has none of its fields. Conflicts are appended
    /// in file order.
    private func mergeNode(
        _ b: RecordNode?, _ o: RecordNode?, _ t: RecordNode?, path: String, childNames: [String: String] = [:],
        into conflicts: inout [MergeConflict]
    ) -> RecordNode {
        // Whole subtrees first: most entries of a large record are untouched on one side.
        // Both sides alike, or THEIRS unchanged: OURS. OURS unchanged: THEIRS, unless an
        // order in it is OURS' to keep (a list; a profile's attributes).
        if let o, o == t || b == t { return o }
        if let t, b == o, !containsLists(t), !(schema.freeFormRoot && path.isEmpty) { return t }
        var out = RecordNode(name: (o ?? t ?? b)!.name)
        let versions = [o, t, b].map { ($0?.attributes ?? []).map(\.name) }
        // A profile's own attributes are its fields in the order written: THEIRS' new ones go
        // after OURS'. Other elements' attributes have one fixed order, found from the versions.
        let names = schema.freeFormRoot && path.isEmpty ? Self.appendOrder(versions) : Self.unionOrder(versions)
        for name in names {
            var (value, conflict) = Self.threeWay(b?.attribute(name), o?.attribute(name), t?.attribute(name))
            if conflict, theirsWins.contains(Self.join(path, name)) { (value, conflict) = (t?.attribute(name), false) }
            if conflict {
                conflicts.append(
                    MergeConflict(
                        field: Self.join(path, name), ours: MergeConflict.quoted(o?.attribute(name)),
                        theirs: MergeConflict.quoted(t?.attribute(name))))
            }
            if let value { out.attributes.append(.init(name: name, value: value)) }
        }
        let texts = [b, o, t].map { n in n.flatMap { $0.text.isEmpty ? nil : $0.text } }
        var (text, textConflict) = Self.threeWay(texts[0], texts[1], texts[2])
        if textConflict, theirsWins.contains(path) { (text, textConflict) = (texts[2], false) }
        if textConflict {
            conflicts.append(
                MergeConflict(
                    field: path, ours: MergeConflict.quoted(texts[1]), theirs: MergeConflict.quoted(texts[2])))
        }
        out.text = text ?? ""
        if let rule = schema.list(in: out.name) {
            let listPath =
                if let keyed = rule.keyedAs {
                    Self.join(path.lastIndex(of: ".").map { String(path[..<$0]) } ?? "", keyed)
                } else {
                    rule.segment.map { Self.join(path, $0) } ?? path
                }
            out.children = mergeList(
                b?.children ?? [], o?.children ?? [], t?.children ?? [], rule: rule, listPath: listPath,
                into: &conflicts)
        } else {
            out.children = mergeSingles(b, o, t, path: path, childNames: childNames, into: &conflicts)
        }
        return out
    }

    private func containsLists(_ node: RecordNode) -> Bool {
        schema.list(in: node.name) != nil || node.children.contains { containsLists($0) }
    }

    /// Single child elements: a whole-element field compared as one value, any other a group
    /// of fields merged inside (left out when nothing remains in it).
    private func mergeSingles(
        _ b: RecordNode?, _ o: RecordNode?, _ t: RecordNode?, path: String, childNames: [String: String] = [:],
        into conflicts: inout [MergeConflict]
    ) -> [RecordNode] {
        var out: [RecordNode] = []
        var names: [String] = []
        for name in Self.unionOrder([o, t, b].map { ($0?.children ?? []).map(\.name) }) where !names.contains(name) {
            names.append(name)
        }
        for name in names {
            let bc = b?.children.first { $0.name == name }
            let oc = o?.children.first { $0.name == name }
            let tc = t?.children.first { $0.name == name }
            let childPath = Self.join(path, childNames[name] ?? name)
            if schema.sequenceFields.contains(name) {
                let seqs = [b, o, t].map { n in n.map { $0.children.filter { $0.name == name } } ?? [] }
                var (value, conflict) = Self.threeWay(seqs[0], seqs[1], seqs[2])
                if conflict, theirsWins.contains(childPath) { (value, conflict) = (seqs[2], false) }
                if conflict {
                    func shown(_ s: [RecordNode]) -> String? {
                        s.isEmpty ? nil : s.map { $0.inlineXML() }.joined()
                    }
                    conflicts.append(
                        MergeConflict(
                            field: childPath, ours: MergeConflict.quoted(shown(seqs[1])),
                            theirs: MergeConflict.quoted(shown(seqs[2]))))
                }
                out += value ?? []
            } else if schema.isWholeField(name) {
                var (value, conflict) = Self.threeWay(bc, oc, tc)
                if conflict, theirsWins.contains(childPath) { (value, conflict) = (tc, false) }
                if conflict {
                    conflicts.append(
                        MergeConflict(
                            field: childPath, ours: MergeConflict.quoted(oc?.inlineXML()),
                            theirs: MergeConflict.quoted(tc?.inlineXML())))
                }
                if let value { out.append(value) }
            } else {
                let merged = mergeNode(bc, oc, tc, path: childPath, into: &conflicts)
                if !merged.isEmpty { out.append(merged) }
            }
        }
        return out
    }

    /// One place of the merged list: an entry, or a conflict about an entry OURS removed
    /// (kept where THEIRS has it so the report stays in file order).
    private struct Slot {
        var key: String
        var node: RecordNode?
        var conflicts: [MergeConflict]
        /// Present in OURS and not in BASE: THEIRS' additions at the same place go after it.
        var oursAddition: Bool
    }

    private func mergeList(
        _ b: [RecordNode], _ o: [RecordNode], _ t: [RecordNode], rule: MergeSchema.ListRule, listPath: String,
        into conflicts: inout [MergeConflict]
    ) -> [RecordNode] {
        let bk = Self.keys(b, rule)
        let ok = Self.keys(o, rule)
        let tk = Self.keys(t, rule)
        let bIndex = Dictionary(uniqueKeysWithValues: bk.enumerated().map { ($1, $0) })
        let oIndex = Dictionary(uniqueKeysWithValues: ok.enumerated().map { ($1, $0) })
        let tIndex = Dictionary(uniqueKeysWithValues: tk.enumerated().map { ($1, $0) })
        func entryPath(_ node: RecordNode, index: Int) -> String {
            if rule.keyedAs != nil {
                return listPath + "[" + rule.identity.compactMap { node.attribute($0) }.joined(separator: "+") + "]"
            }
            return rule.named
                ? Self.join(listPath, rule.identity.compactMap { node.attribute($0) }.joined(separator: "+"))
                : "\(listPath)[\(index)]"
        }

        // OURS' entries, in OURS' order.
        var slots: [Slot] = []
        for (i, entry) in o.enumerated() {
            let key = ok[i]
            let base = bIndex[key].map { b[$0] }
            let theirs = tIndex[key].map { t[$0] }
            let path = entryPath(entry, index: i)
            var local: [MergeConflict] = []
            switch (base, theirs) {
            case (let base?, nil):
                // THEIRS removed it: gone if OURS left it alone, else a conflict that keeps OURS'.
                if entry == base || theirsWins.contains(path) { continue }
                local.append(MergeConflict(field: path, ours: MergeConflict.changed, theirs: MergeConflict.removed))
                slots.append(Slot(key: key, node: entry, conflicts: local, oursAddition: false))
            default:
                let merged = mergeNode(base, entry, theirs, path: path, childNames: rule.childNames, into: &local)
                slots.append(Slot(key: key, node: merged, conflicts: local, oursAddition: base == nil))
            }
        }
        // THEIRS' additions, and entries OURS removed that THEIRS changed (a conflict; OURS'
        // removal stands), each after the nearest entry before it in THEIRS that is kept.
        for (j, entry) in t.enumerated() {
            let key = tk[j]
            guard oIndex[key] == nil else { continue }
            var slot: Slot
            if let bi = bIndex[key] {
                guard entry != b[bi] else { continue }
                if theirsWins.contains(entryPath(entry, index: j)) {
                    slot = Slot(key: key, node: entry, conflicts: [], oursAddition: false)
                    slots.insert(slot, at: Self.position(of: j, tk, in: slots))
                    continue
                }
                let conflict = MergeConflict(
                    field: entryPath(entry, index: j), ours: MergeConflict.removed, theirs: MergeConflict.changed)
                slot = Slot(key: key, node: nil, conflicts: [conflict], oursAddition: false)
            } else {
                slot = Slot(key: key, node: entry, conflicts: [], oursAddition: false)
            }
            slots.insert(slot, at: Self.position(of: j, tk, in: slots))
        }
        for s in slots { conflicts += s.conflicts }
        return slots.compactMap(\.node)
    }

    /// Where THEIRS' entry `j` goes: after the nearest entry before it in THEIRS that is kept,
    /// after any OURS additions (and removal conflicts) at that place.
    private static func position(of j: Int, _ tk: [String], in slots: [Slot]) -> Int {
        var position = 0
        for earlier in tk[..<j].reversed() {
            if let at = slots.firstIndex(where: { $0.key == earlier && $0.node != nil }) {
                position = at + 1
                break
            }
        }
        while position < slots.count, slots[position].oursAddition || slots[position].node == nil {
            position += 1
        }
        return position
    }

    /// Identity of each entry: element name and identity values, then its occurrence among
    /// entries with the same identity (repeated identities are matched in order of appearance).
    private static func keys(_ entries: [RecordNode], _ rule: MergeSchema.ListRule) -> [String] {
        var seen: [String: Int] = [:]
        return entries.map { e in
            var id = e.name
            for attribute in rule.identity {
                id += "\u{0}"
                id += e.attribute(attribute) ?? ""
            }
            let n = seen[id, default: 0]
            seen[id] = n + 1
            return n == 0 ? id : id + "\u{0}#" + String(n)
        }
    }

    /// One field: the side that changed it wins; both changed it differently is a conflict
    /// (and OURS' value stays).
    static func threeWay<T: Equatable>(_ b: T?, _ o: T?, _ t: T?) -> (T?, conflict: Bool) {
        if o == t { return (o, false) }
        if b == o { return (t, false) }
        if b == t { return (o, false) }
        return (o, true)
    }

    /// Names of single children or attributes in an order consistent with every version:
    /// OURS' order, then each name only another version has right after the nearest name
    /// before it there (all versions are canonical, so this is the file's order).
    static func unionOrder(_ sequences: [[String]]) -> [String] {
        var out = sequences.first ?? []
        for sequence in sequences.dropFirst() {
            var anchor = -1
            for name in sequence {
                if let i = out.firstIndex(of: name) {
                    anchor = i
                    continue
                }
                anchor += 1
                out.insert(name, at: anchor)
            }
        }
        return out
    }

    /// OURS' order, then each name only a later version has, in that version's order.
    static func appendOrder(_ sequences: [[String]]) -> [String] {
        var out = sequences.first ?? []
        for sequence in sequences.dropFirst() {
            for name in sequence where !out.contains(name) { out.append(name) }
        }
        return out
    }

    static func join(_ path: String, _ name: String) -> String { path.isEmpty ? name : path + "." + name }
}
