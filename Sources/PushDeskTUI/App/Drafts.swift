import PushDeskCore

/// Record lists as the console shows them: open drafts in place of their saved copies, and
/// the name a duplicate gets.
enum Drafts {
    /// `base`, or `base2`, `base3`, … : the first name not yet taken (a duplicate's name;
    /// with `separator` "-", a new app's integration key: `base-2`, `base-3`, …).
    static func uniqueName<S: Sequence<String>>(_ base: String, taken: S, separator: String = "") -> String {
        let names = Set(taken)
        var n = base
        var i = 2
        while names.contains(n) {
            n = "\(base)\(separator)\(i)"
            i += 1
        }
        return n
    }

    /// Saved records with every open draft in place of its saved copy (new ones appended).
    static func substituting<R>(_ saved: [R], _ sessions: [EditSession<R>]) -> [R] {
        var list = saved
        for s in sessions {
            if let o = s.original, let i = list.firstIndex(where: { $0.name == o.name }) {
                list[i] = s.draft
            } else {
                list.append(s.draft)
            }
        }
        return list
    }
}
