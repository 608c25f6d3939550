import PushDeskCore

/// The composer's language selector and the Languages tab's edits: which language the form
/// edits (the default `<content>` or one variant), what the preview builds for it (the
/// variant `preview --locale TAG` builds), and adding, renaming and deleting variants as
/// undoable edits of the draft (docs/CONSOLE.md, "Languages").
extension ComposerScreen {
    /// The variant being edited (its index in the draft); nil: the default, or a variant an
    /// undo took away.
    var languageIndex: Int? {
        language.flatMap { l in s.draft.variants.firstIndex { $0.locale == l } }
    }

    /// How findings name the language being edited (`de` of `variant[de].title`); nil: the default.
    var languageTag: String? {
        languageIndex.map { s.draft.variants[$0] }.map { $0.tag?.description ?? $0.locale }
    }

    /// "de (German)", or "default".
    func languageLabel(_ v: DeliveryVariant?) -> String {
        guard let v else { return ComposerFields.defaultLanguage }
        let tag = v.tag?.description ?? v.locale
        return v.tag?.englishName.map { "\(tag) (\($0))" } ?? tag
    }

    /// The title bar's part: the language being edited, once the delivery has more than one.
    var languageTitle: String {
        guard !s.draft.variants.isEmpty else { return "" }
        return " · language " + languageLabel(languageIndex.map { s.draft.variants[$0] })
    }

    /// The form box's title when languages change what it shows; nil: the tab's own.
    var languageBoxTitle: String? {
        let v = languageIndex.map { s.draft.variants[$0] }
        switch tab {
        case .content where !s.draft.variants.isEmpty:
            return " — \(languageLabel(v)) (F7 language, Ctrl-O next tab)"
        case .variables where v != nil:
            return " — \(languageLabel(v)): greyed values are the default's"
        case .languages:
            let n = s.draft.variants.count
            return " — default and \(n) variant\(n == 1 ? "" : "s") (n add, r rename, d delete, x export, i import)"
        default: return nil
        }
    }

    /// What the preview builds: the language being edited, as `preview --locale TAG` builds it
    /// (the same core function). A variant no device can get (its locale is no tag, or a second
    /// one for its tag; `variant.locale` says so) is shown applied, as written.
    var previewed: (Delivery, PreviewLocale?) {
        guard let i = languageIndex else { return (s.draft, nil) }
        let v = s.draft.variants[i]
        if let tag = v.tag, s.draft.variants.firstIndex(where: { $0.tag == tag }) == i { return (s.draft, .tag(tag)) }
        return (s.draft.applying(v), nil)
    }

    /// Edits `locale`'s variant (nil: the default); the form and the preview follow.
    func select(language l: String?, app: AppContext) {
        language = l
        sync(app, force: true)
    }

    /// A finding's language before its field is focused: `variant[de].title` selects de, the
    /// default's texts and values the default; a variant's locale selects its row. False when
    /// the path names a variant the draft no longer has.
    func focusLanguage(of path: FieldPath, tab t: ComposerTab, id: String) -> Bool {
        if let tag = ComposerFields.language(of: path) {
            guard let i = s.draft.variants.firstIndex(where: { ($0.tag?.description ?? $0.locale) == tag }) else {
                return false
            }
            if t == .languages {
                languagesTab.pendingRow = i + 1
            } else {
                language = s.draft.variants[i].locale
            }
        } else if t == .content && DeliveryText(rawValue: id) != nil || t == .variables && id.hasPrefix("var.") {
            language = nil
        } else if t == .languages {
            languagesTab.pendingRow = 0
        }
        return true
    }

    /// F7: the languages to edit, the default first, then the variants in file order.
    func askLanguage() -> Effect {
        let variants = s.draft.variants
        guard !variants.isEmpty else {
            return .say("This delivery is in one language: add another on the Languages tab (n).")
        }
        let options = ["default — the delivery's <content>"] + variants.map { languageLabel($0) }
        let locales = variants.map(\.locale)
        return .ask(
            self,
            .choices("Language to edit", options: options, selected: languageIndex.map { $0 + 1 } ?? 0) { i in
                guard let i else { return .cancelled }
                return .language(i == 0 ? nil : locales[i - 1])
            })
    }

    // MARK: the Languages tab

    func handleLanguages(_ action: Action, app: AppContext) -> Effect? {
        if view.languages.handle(action) { return Effect.none }
        let row = view.languages.selectedRow
        switch action {
        case .open:
            guard let row else { return Effect.none }
            language = row == 0 ? nil : s.draft.variants[row - 1].locale
            tab = .content
            sync(app, force: true)
            form.focus(id: "title")
            return Effect.none
        case .new:
            return .ask(
                self,
                .text(
                    "Add a language",
                    "Language tag of the variant: language[-Script][-REGION], e.g. de, pt-BR, zh-Hant, es-419. Devices whose language looks it up get its texts."
                ) { .addLanguage($0) })
        case .rename:
            guard let row, row > 0 else {
                return .say("The default is the delivery's own <content>: it has no tag to change.")
            }
            let locale = s.draft.variants[row - 1].locale
            return .ask(
                self,
                .text("Rename \(Sanitize.string(locale))", "New language tag for this variant:", value: locale) {
                    .renameLanguage(from: locale, to: $0)
                })
        case .exportLanguages: return askExport()
        case .importLanguages: return askImport()
        default: return nil
        }
    }

    /// Deleting a variant (a dangerous binding): the framework asks first; `u` undoes it
    /// until the delivery is saved.
    func danger(_ action: Action, app: AppContext) -> Danger? {
        guard tab == .languages, focusArea == .form, action == .delete, let row = view.languages.selectedRow,
            row > 0, s.draft.variants.indices.contains(row - 1)
        else { return nil }
        let v = s.draft.variants[row - 1]
        let what = languageLabel(v)
        let values = v.variables.count
        let name = s.draft.name.isEmpty ? "the new delivery" : s.draft.name
        return Danger(
            "Delete language",
            "Delete the \(Sanitize.string(what)) variant of \(Sanitize.string(name)): its texts\(values > 0 ? " and \(values) value\(values == 1 ? "" : "s")" : "")? Its devices get the default. u undoes it until you save."
        ) { [weak self] app in
            guard let self else { return .none }
            let locale = v.locale
            self.s.edit(nil) { d in
                if let i = d.variants.firstIndex(where: { $0.locale == locale }) { d.variants.remove(at: i) }
            }
            if self.language == locale { self.language = nil }
            self.sync(app, force: true)
            return .say("Deleted the \(Sanitize.string(what)) variant; u brings it back.")
        }
    }

    /// A new variant, empty (`variant.empty` until its texts are written), last in the file.
    func addLanguage(_ text: String?, app: AppContext) -> Effect {
        guard let t = text?.trimmingCharacters(in: .whitespaces), !t.isEmpty else { return .none }
        if let problem = DeliveryRules.variantLocaleProblem(t, in: s.draft) {
            return .inform("Language not added", Sanitize.string(problem) + " [variant.locale]")
        }
        guard s.draft.variants.count < DeliveryVariant.maxCount else {
            return .inform(
                "Language not added",
                "A delivery holds at most \(DeliveryVariant.maxCount) variants [variant.count]; remove one first.")
        }
        let tag = LocaleTag(t)?.description ?? t
        s.edit(nil) { d in d.variants.append(DeliveryVariant(locale: tag)) }
        languagesTab.pendingRow = s.draft.variants.count
        sync(app, force: true)
        return .say("Added \(languageLabel(s.draft.variants.last)): Enter edits its texts.")
    }

    /// A variant's new tag, refused as an added one would be (the variant itself aside).
    func renameLanguage(_ from: String, to text: String?, app: AppContext) -> Effect {
        guard let t = text?.trimmingCharacters(in: .whitespaces), !t.isEmpty,
            let i = s.draft.variants.firstIndex(where: { $0.locale == from })
        else { return .none }
        if let problem = DeliveryRules.variantLocaleProblem(t, in: s.draft, replacing: i) {
            return .inform("Language not renamed", Sanitize.string(problem) + " [variant.locale]")
        }
        let tag = LocaleTag(t)?.description ?? t
        guard tag != from else { return .none }
        s.edit(nil) { d in d.variants[i].locale = tag }
        if language == from { language = tag }
        languagesTab.pendingRow = i + 1
        sync(app, force: true)
        return .say("Renamed \(Sanitize.string(from)) to \(languageLabel(s.draft.variants[i])).")
    }
}
