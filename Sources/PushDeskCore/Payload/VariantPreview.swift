/// Which variant a preview builds (`pushdesk preview --locale TAG|all`).
public enum PreviewLocale: Equatable, Sendable {
    /// The variant this tag looks up (RFC 4647 lookup; the default when none matches).
    case tag(LocaleTag)
    /// For each app the default, then every variant a device can get, in file order.
    case all
}

extension Delivery {
    /// The variants a device can get: those whose locale is a tag, the first of each tag
    /// (a second one is `variant.locale`), in file order.
    public var reachableVariants: [DeliveryVariant] {
        var seen = Set<LocaleTag>()
        return variants.filter { v in
            guard let tag = v.tag else { return false }
            return seen.insert(tag).inserted
        }
    }

    /// The variant a device with this tag gets; nil = the default (`zh-Hant-TW` tries
    /// `zh-Hant-TW`, `zh-Hant`, `zh`; `pt-BR` with only `pt-PT` gets the default).
    public func variant(for tag: LocaleTag) -> DeliveryVariant? {
        let reachable = reachableVariants
        guard let found = LocaleTag.lookup(tag, in: reachable.compactMap(\.tag)) else { return nil }
        return reachable.first { $0.tag == found }
    }

    /// The delivery as a device of this variant gets it: the variant's texts replace the
    /// default's as a set (a text it leaves out is not sent), its non-empty values override
    /// the delivery's of the same name (the others are inherited; a new name comes last).
    public func applying(_ v: DeliveryVariant) -> Delivery {
        var d = self
        d.content.title = v.title
        d.content.subtitle = v.subtitle
        d.content.body = v.body
        for value in v.variables where !value.value.isEmpty {
            if let i = d.variables.firstIndex(where: { $0.name == value.name }) {
                d.variables[i].value = value.value
            } else {
                d.variables.append(value)
            }
        }
        return d
    }
}

extension DeliveryVariant {
    /// A finding made on the delivery this variant built, moved to the variant's own field:
    /// every text is the variant's (`variant[de].title`), a value it overrides is its own
    /// (`variant[de].values.mediaUrl`); anything else stays the delivery's.
    func moving(_ f: Finding) -> Finding {
        let steps = f.field.steps
        guard steps.count == 2, case .name(let head) = steps[0], case .name(let name) = steps[1] else { return f }
        var moved = f
        if head == "content", DeliveryText(rawValue: name) != nil {
            moved.field = field.appending(name)
        } else if head == "variables", variables.contains(where: { $0.name == name && !$0.value.isEmpty }) {
            moved.field = field.appending("values", name)
        } else {
            return f
        }
        return moved
    }
}
