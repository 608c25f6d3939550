/// Every command a key can trigger. Screens handle actions, not keys.
public enum Action: String, Hashable, Sendable, CaseIterable {
    // global
    case help, quit, save, undo, redraw, themes, findings, back, takeLock
    // lists and tables
    case up, down, pageUp, pageDown, top, bottom, open, filter, new, duplicate, delete, moveUp, moveDown
    // service editor
    case addIOS, addAndroid
    // forms
    case nextField, prevField, generateKey, toggle, pick
    // multi-line text
    case newline, lineUp, lineDown
    // tabs
    case nextTab, prevTab
    // deliveries and the composer
    case deliveries, allServices, switchPane, copyOut, nextTarget, prevTarget, deviceView
    // languages (the composer's selector and Languages tab)
    case chooseLanguage, rename, exportLanguages, importLanguages
    // text editing (one line editor for text fields and the body: Widgets/LineEditor.swift)
    case cursorLeft, cursorRight, lineStart, lineEnd, deleteBack, deleteForward, deleteWord, deleteToStart, deleteToEnd
    // the store in git (Screens/Git/)
    case commit, sync, resolve, history, takeOurs, takeTheirs, editResolution, markResolved, restore
    // sending (docs/SENDING.md)
    case checkOnline, sends, sendTest, dryRun
    // test devices (Screens/TestDevices/)
    case testDevices, addField
    // the Listen view (Screens/Listen/, docs/LISTEN.md)
    case listen
    // broadcast channels (the app editor's Channels tab)
    case fetchChannels
    // dialogs, the diff view
    case pressButton, scrollLeft, scrollRight
}

/// Where a binding applies. The focused view's context is tried first, then `.global`.
public enum KeyContext: String, CaseIterable, Sendable {
    case global = "Everywhere"
    case list = "Lists and tables"
    /// While a list's filter line is being edited (printable keys type into it).
    case filterLine = "Lists: the filter line"
    case servicesList = "Services list"
    case serviceEditor = "Service editor"
    case serviceApps = "Service editor: apps table"
    case form = "Forms"
    case appEditor = "App editor"
    case itemsTable = "App editor: variables, parameters, sounds"
    case channelsTab = "App editor: channels (iOS)"
    case deliveriesList = "Deliveries list"
    case composer = "Composer"
    case textArea = "Composer: the body (multi-line text)"
    case composerPreview = "Composer: preview and findings"
    case composerLanguages = "Composer: the Languages tab"
    case findings = "Findings"
    /// Active whenever a text field (or the body) has focus, after the view's own contexts.
    case textField = "Text fields (one line, and the body)"
    case dialog = "Dialogs"
    case dialogButtons = "Dialogs: buttons"
    case dialogChoices = "Dialogs: a list of choices"
    /// While the help overlay is open; any key it does not bind closes it.
    case help = "The help overlay"
    case commitView = "Commit (the store in git)"
    case resolveView = "Resolve a conflicted record"
    case historyView = "History of a record"
    case profilesList = "Test devices: profiles"
    case profileDevices = "Profile editor: devices table"
    case profileEditor = "Profile editor: its fields"
    case listenView = "Listen view"
    case diffView = "Differences (a draft against the file)"
    /// While a job runs in the foreground (git's commit, sync, resolve): other keys wait.
    case foregroundJob = "While git works"
}

/// When a binding cannot act; the console says why instead (lazygit's disabled reason).
public enum KeyCondition: String, Sendable {
    /// A large store is still loading: its rows are names only.
    case storeLoading = "while the store loads"
    /// The view edits no record.
    case nothingOpen = "where nothing is open"
    /// The store is in no git work tree (docs/TEAMS.md).
    case noRepository = "outside a git repository"

    /// Hidden from the status-bar hints while it holds (a short-lived condition is not).
    var hidesHint: Bool { self == .nothingOpen || self == .noRepository }
}

/// A binding that cannot act under a condition, and the reason given to the operator.
public struct Unavailability: Sendable {
    public var when: KeyCondition
    public var why: String
}

/// One binding: keys, action, what it does. The help overlay, the status-bar hints and
/// docs/KEYS.md are all generated from `KeyRegistry.bindings`, so they cannot drift.
public struct KeyBinding: Sendable {
    public var context: KeyContext
    public var keys: [Key]
    public var action: Action
    public var description: String
    /// Short label for the status bar; nil = not shown there.
    public var hint: String?
    /// Marks actions that destroy data (asked for confirmation).
    public var dangerous = false
    /// The key is not a fixed one but the first letter of a label (a dialog's buttons: y/n,
    /// s/d/c); `keys` is empty and `KeyRegistry.firstLetter` finds the label.
    public var byFirstLetter = false
    /// How its keys are written in help and docs/KEYS.md.
    public var keyLabels: [String] { byFirstLetter ? ["a button's first letter"] : keys.map(\.label) }
    /// Changes a record or the store: hidden from the hints and refused, with who holds the
    /// store, in a read-only console. (A text-editing key writes only in a record's field: a
    /// list's filter is no record.)
    public var writes = false
    /// Conditions under which it cannot act, each with the reason the console gives.
    public var unavailable: [Unavailability] = []
    /// What help and docs/KEYS.md say: the description, plus the confirmation a destructive key asks for.
    public var helpText: String { dangerous ? description + " (asks first)" : description }

    /// The key to name for it: the first, or, where printable keys type text (a text field
    /// has focus), the first that is not a printable key (`?` types, F1 opens help).
    public func shownKey(textFocused: Bool) -> Key {
        guard textFocused else { return keys[0] }
        return keys.first { if case .char = $0 { false } else { true } } ?? keys[0]
    }
}

public enum KeyRegistry {
    /// What the rows of a loading store cannot do: they are names only (Screens/StoreLoading.swift).
    /// An array, not a `Set`: a set of `Action` makes the runtime check `Action: Hashable`
    /// at start, a walk of every conformance record of the binary before the first frame.
    static let needsLoadedStore: [Action] = [
        .open, .new, .duplicate, .delete, .deliveries, .allServices, .findings, .takeLock,
    ]
    static let stillLoading = "Still loading the store; this takes a moment on a large store."
    static let notInGit = Unavailability(
        when: .noRepository,
        why:
            "The store is not in a git repository (or its repository ignores it): see docs/TEAMS.md (`pushdesk init --git`, `git-setup`)."
    )

    private static func b(
        _ c: KeyContext, _ keys: [Key], _ a: Action, _ d: String, hint: String? = nil, dangerous: Bool = false,
        writes: Bool = false, unavailable: [Unavailability] = []
    ) -> KeyBinding {
        var u = unavailable
        if needsLoadedStore.contains(a) { u.append(Unavailability(when: .storeLoading, why: stillLoading)) }
        return KeyBinding(
            context: c, keys: keys, action: a, description: d, hint: hint, dangerous: dangerous,
            writes: writes || dangerous, unavailable: u)
    }

    public static let bindings: [KeyBinding] = [
        b(
            .global, [.char("?"), .f(1), .ctrl("r")], .help, "Show the keys of this view (Ctrl-R inside text fields)",
            hint: "help"),
        b(
            .global, [.ctrl("s"), .f(2)], .save, "Save the record being edited", hint: "save", writes: true,
            unavailable: [
                .init(when: .nothingOpen, why: "Nothing to save here: open a service or a delivery (Enter) first.")
            ]),
        b(.global, [.ctrl("z")], .undo, "Undo the last edit of this record", writes: true),
        b(
            .global, [.ctrl("q"), .f(10), .ctrl("c")], .quit, "Quit (asks when there are unsaved changes)", hint: "quit"
        ),
        b(.global, [.ctrl("l")], .redraw, "Redraw the whole screen"),
        b(.global, [.ctrl("t"), .f(9)], .themes, "Choose a colour theme"),
        b(.global, [.ctrl("f"), .f(4)], .findings, "Show every finding of the store", hint: "findings"),
        b(.global, [.escape], .back, "Close this view (asks when there are unsaved changes)", hint: "back"),
        b(
            .global, [.ctrl("x")], .takeLock,
            "Read-only console: take the store's lock once its holder has ended (asks first if its process is gone)"),

        b(.list, [.up, .char("k")], .up, "Move the selection up"),
        b(.list, [.down, .char("j")], .down, "Move the selection down"),
        b(.list, [.pageUp], .pageUp, "One page up"),
        b(.list, [.pageDown], .pageDown, "One page down"),
        b(.list, [.home, .char("g")], .top, "First row"),
        b(.list, [.end, .char("G")], .bottom, "Last row"),
        b(.list, [.char("/")], .filter, "Filter rows by text (Esc clears)", hint: "filter"),
        b(.list, [.char("u")], .undo, "Undo the last edit of this record", writes: true),
        b(.list, [.char("q")], .quit, "Quit (asks when there are unsaved changes)"),

        b(.servicesList, [.enter], .open, "Edit the selected service", hint: "edit"),
        b(.servicesList, [.char("n"), .ctrl("n"), .f(7)], .new, "New service", hint: "new", writes: true),
        b(
            .servicesList, [.char("c"), .f(5)], .duplicate, "Duplicate the selected service", hint: "duplicate",
            writes: true),
        b(
            .servicesList, [.char("d"), .delete, .f(8)], .delete, "Delete the selected service", hint: "delete",
            dangerous: true),
        b(
            .servicesList, [.char("D"), .ctrl("y")], .deliveries, "Deliveries of the selected service",
            hint: "deliveries"),

        b(.serviceEditor, [.ctrl("y")], .deliveries, "Deliveries of this service", hint: "deliveries"),

        b(.serviceApps, [.enter], .open, "Edit the selected app", hint: "edit app"),
        b(
            .serviceApps, [.char("i")], .addIOS, "Add an iOS app (creates the sandbox + production pair)",
            hint: "add iOS", writes: true),
        b(.serviceApps, [.char("a")], .addAndroid, "Add an Android app", hint: "add Android", writes: true),
        b(
            .serviceApps, [.char("d"), .delete, .f(8)], .delete, "Delete the selected app", hint: "delete",
            dangerous: true),
        b(.serviceApps, [.char("K"), .f(11)], .moveUp, "Move the selected app up", writes: true),
        b(.serviceApps, [.char("J"), .f(12)], .moveDown, "Move the selected app down", writes: true),
        b(.serviceApps, [.tab], .nextField, "Back to the service's fields (Shift-Tab: the last one)"),
        b(.serviceApps, [.backTab], .prevField, "The service's last field"),

        b(.form, [.tab, .down], .nextField, "Next field", hint: "next"),
        b(.form, [.backTab, .up], .prevField, "Previous field"),
        b(.form, [.char(" ")], .toggle, "Toggle a checkbox or cycle a choice", writes: true),
        b(.form, [.enter], .pick, "Open the choices of a choice field; next field otherwise", writes: true),

        b(
            .appEditor, [.ctrl("g"), .f(6)], .generateKey, "Generate an integration key (a UUID)",
            hint: "generate key", writes: true),
        b(
            .appEditor, [.ctrl("o"), .char("]"), .f(3)], .nextTab, "Next tab (`]` outside text fields)",
            hint: "next tab"),
        b(.appEditor, [.ctrl("p"), .char("[")], .prevTab, "Previous tab (`[` outside text fields)"),
        b(
            .appEditor, [.ctrl("y")], .checkOnline,
            "Check online: connect to APNs / FCM with this app's credential, step by step (Esc cancels)"),

        b(.itemsTable, [.char("n"), .char("a"), .ctrl("n"), .f(7)], .new, "Add a row", hint: "add", writes: true),
        b(.itemsTable, [.enter], .open, "Edit the selected row", hint: "edit"),
        b(.itemsTable, [.tab], .nextField, "Edit the selected row (Esc: back to the table)"),
        b(
            .itemsTable, [.char("d"), .delete, .f(8)], .delete, "Delete the selected row (`u` brings it back)",
            hint: "delete", writes: true),
        b(
            .channelsTab, [.char("f"), .f(5)], .fetchChannels, "Fetch Apple's list of the app's channels", hint: "fetch"
        ),
        b(
            .channelsTab, [.char("n"), .ctrl("n"), .f(7)], .new,
            "Create a channel at Apple (asks its label and storage); saved into the file at once", hint: "create",
            writes: true),
        b(
            .channelsTab, [.char("d"), .delete, .f(8)], .delete,
            "Delete the selected channel at Apple and from the file", hint: "delete", dangerous: true),
        b(.itemsTable, [.char("K"), .f(11)], .moveUp, "Move the selected row up", hint: "move", writes: true),
        b(.itemsTable, [.char("J"), .f(12)], .moveDown, "Move the selected row down", writes: true),

        b(.deliveriesList, [.enter], .open, "Compose the selected delivery", hint: "compose"),
        b(.deliveriesList, [.char("n"), .ctrl("n"), .f(7)], .new, "New delivery", hint: "new", writes: true),
        b(
            .deliveriesList, [.char("c"), .f(5)], .duplicate, "Duplicate the selected delivery", hint: "duplicate",
            writes: true),
        b(
            .deliveriesList, [.char("d"), .delete, .f(8)], .delete, "Delete the selected delivery", hint: "delete",
            dangerous: true),
        b(
            .deliveriesList, [.char("a")], .allServices, "Show every service's deliveries / only this service's",
            hint: "all"),
        b(
            .deliveriesList, [.char("s")], .sends, "Sends of the selected delivery (the send log, newest first)",
            hint: "sends"),

        b(
            .composer, [.ctrl("o"), .char("]"), .f(3)], .nextTab, "Next tab (`]` outside text fields)", hint: "next tab"
        ),
        b(.composer, [.ctrl("p"), .char("[")], .prevTab, "Previous tab (`[` outside text fields)"),
        b(
            .composer, [.ctrl("v"), .f(6)], .switchPane,
            "Move between the form and the preview (findings: Enter jumps to the field)", hint: "preview"),
        b(
            .composer, [.ctrl("y"), .f(5)], .copyOut,
            "Copy out the payload, a curl command or the iOS Simulator's push file (to a file, or to stdout on exit)",
            hint: "copy out"),
        b(
            .composer, [.ctrl("g")], .sendTest,
            "Send test: pick test devices, confirm, watch each answer (Esc stops), read the results", hint: "send test"),
        b(.composer, [.ctrl("n")], .dryRun, "Dry run: as Send test, but FCM only validates and APNs is skipped"),
        b(
            .composer, [.f(7), .char("L")], .chooseLanguage,
            "Language being edited: the default or a variant; the form, preview and device view follow (`L` outside text fields)",
            hint: "language"),

        b(
            .composerLanguages, [.enter], .open, "Edit the selected language's texts (selects it, Content tab)",
            hint: "edit"),
        b(
            .composerLanguages, [.char("n"), .char("a")], .new,
            "Add a language: asks its tag (de, pt-BR, zh-Hant); `u` takes it back", hint: "add", writes: true),
        b(
            .composerLanguages, [.char("r")], .rename, "Change the selected variant's language tag", hint: "rename",
            writes: true),
        b(
            .composerLanguages, [.char("d"), .delete, .f(8)], .delete,
            "Delete the selected variant (`u` brings it back until you save)", hint: "delete", dangerous: true),
        b(
            .composerLanguages, [.char("x")], .exportLanguages,
            "Export the languages as a translators' CSV file (asks the format and the path)", hint: "export"),
        b(
            .composerLanguages, [.char("i")], .importLanguages,
            "Import a translators' CSV file onto the draft: one edit, `u` undoes it (asks the path)", hint: "import",
            writes: true),

        b(.textArea, [.enter], .newline, "New line (Tab: next field)", writes: true),
        b(.textArea, [.up], .lineUp, "Row up (from the first row: the field above)"),
        b(.textArea, [.down], .lineDown, "Row down (from the last row: the field below)"),

        b(.composerPreview, [.right, .char("l")], .nextTarget, "Next app", hint: "app"),
        b(.composerPreview, [.left, .char("h")], .prevTarget, "Previous app"),
        b(.composerPreview, [.down, .char("j")], .down, "Next finding"),
        b(.composerPreview, [.up, .char("k")], .up, "Previous finding"),
        b(.composerPreview, [.pageDown], .pageDown, "Scroll the payload down"),
        b(.composerPreview, [.pageUp], .pageUp, "Scroll the payload up"),
        b(.composerPreview, [.enter], .open, "Jump to the field of the selected finding", hint: "jump"),
        b(
            .composerPreview, [.char("v")], .deviceView, "Device view / payload (narrow screens show one at a time)",
            hint: "device"),

        b(.findings, [.enter], .open, "Jump to the field of the finding", hint: "jump"),

        b(.textField, [.left, .ctrl("b")], .cursorLeft, "Cursor left"),
        b(.textField, [.right], .cursorRight, "Cursor right"),
        b(.textField, [.home, .ctrl("a")], .lineStart, "Start of the value (in the body: of the line)"),
        b(.textField, [.end, .ctrl("e")], .lineEnd, "End of the value (in the body: of the line)"),
        b(.textField, [.backspace, .ctrl("h")], .deleteBack, "Delete the character before the cursor", writes: true),
        b(.textField, [.delete, .ctrl("d")], .deleteForward, "Delete the character at the cursor", writes: true),
        b(.textField, [.ctrl("w")], .deleteWord, "Delete the word before the cursor", writes: true),
        b(.textField, [.ctrl("u")], .deleteToStart, "Delete to the start (in the body: of the line)", writes: true),
        b(
            .textField, [.ctrl("k")], .deleteToEnd, "Delete to the end (body: of the line; at its end, join)",
            writes: true),

        b(.dialog, [.enter], .open, "Press the focused button (a text or path: OK; a list: choose)", hint: "OK"),
        b(.dialog, [.escape], .back, "Cancel", hint: "cancel"),
        b(
            .dialog, [.tab], .pick, "Complete a file path's name (in any other text, Tab does nothing)",
            hint: "complete"),
        b(.dialogButtons, [.tab, .right], .nextField, "Next button", hint: "next"),
        b(.dialogButtons, [.backTab, .left], .prevField, "Previous button"),
        KeyBinding(
            context: .dialogButtons, keys: [], action: .pressButton,
            description: "Press the button it starts (y/n, s/d/c)",
            byFirstLetter: true),
        b(.dialogChoices, [.up, .char("k")], .up, "Previous choice"),
        b(.dialogChoices, [.down, .char("j")], .down, "Next choice"),

        // Not `b(…)`: keeping a filter opens nothing, so it does not wait for the store to load.
        KeyBinding(
            context: .filterLine, keys: [.enter], action: .open, description: "Keep the filter and go back to the rows"),
        b(.filterLine, [.escape], .back, "Clear the filter"),

        b(.diffView, [.right], .scrollRight, "Scroll right (long lines)"),
        b(.diffView, [.left], .scrollLeft, "Scroll left"),

        b(.foregroundJob, [.escape], .back, "Stop after the current step (other keys wait for it)"),

        b(.help, [.down, .char("j")], .down, "Scroll down (any other key closes the help)"),
        b(.help, [.up, .char("k")], .up, "Scroll up"),
        b(.help, [.pageDown], .pageDown, "One page down"),
        b(.help, [.pageUp], .pageUp, "One page up"),

        b(
            .servicesList, [.char("C")], .commit, "Commit the changed records (git)", hint: "commit", writes: true,
            unavailable: [notInGit]),
        b(
            .servicesList, [.char("S")], .sync, "Sync with the upstream: fetch, rebase, push (git)", hint: "sync",
            writes: true, unavailable: [notInGit]),
        b(
            .servicesList, [.char("R")], .resolve, "Resolve the selected conflicted service (git)", writes: true,
            unavailable: [notInGit]),
        b(
            .servicesList, [.char("H")], .history, "History of the selected service (git)", hint: "history",
            unavailable: [notInGit]),
        b(
            .deliveriesList, [.char("C")], .commit, "Commit the changed records (git)", hint: "commit", writes: true,
            unavailable: [notInGit]),
        b(
            .deliveriesList, [.char("S")], .sync, "Sync with the upstream: fetch, rebase, push (git)", hint: "sync",
            writes: true, unavailable: [notInGit]),
        b(
            .deliveriesList, [.char("R")], .resolve, "Resolve the selected conflicted delivery (git)", writes: true,
            unavailable: [notInGit]),
        b(
            .deliveriesList, [.char("H")], .history, "History of the selected delivery (git)", hint: "history",
            unavailable: [notInGit]),
        b(
            .profilesList, [.char("R")], .resolve, "Resolve the selected conflicted profile (git)", writes: true,
            unavailable: [notInGit]),
        b(.profilesList, [.char("H")], .history, "History of the selected profile (git)", unavailable: [notInGit]),
        b(
            .commitView, [.enter], .open, "Show the selected record's changes (diff against the last commit)",
            hint: "diff"),
        b(
            .commitView, [.char("c"), .ctrl("s")], .commit, "Write the message and commit the records marked [x]",
            hint: "commit", writes: true),
        b(
            .commitView, [.char(" ")], .toggle, "Leave the selected record out of the commit, or put it back in",
            hint: "in/out"),
        b(
            .resolveView, [.char("o")], .takeOurs, "Take the upstream's value (ours) for the selected field",
            hint: "ours"),
        b(
            .resolveView, [.char("t")], .takeTheirs, "Take your commit's value (theirs) for the selected field",
            hint: "theirs"),
        b(
            .resolveView, [.char("w"), .ctrl("s")], .markResolved,
            "Write the record with these choices and mark it resolved (the last one finishes the sync)",
            hint: "resolved", writes: true),
        b(
            .resolveView, [.char("e")], .editResolution,
            "Write these choices, mark resolved and open the record in its editor", hint: "edit", writes: true),
        b(.resolveView, [.enter], .open, "Show the record with these choices against the upstream's (diff)"),
        b(.historyView, [.enter], .open, "Show the selected version against the current file (diff)", hint: "diff"),
        b(
            .historyView, [.char("r")], .restore, "Restore the selected version as an unsaved draft (then Ctrl-S)",
            hint: "restore", writes: true),

        b(
            .servicesList, [.char("t")], .testDevices,
            "Test devices: profiles and their device tokens", hint: "test devices",
            unavailable: [.init(when: .storeLoading, why: stillLoading)]),
        b(
            .servicesList, [.char("L")], .listen,
            "Listen: a test build's registrations and tracking, live", hint: "listen"),
        b(
            .listenView, [.enter], .open,
            "Add the selected registration's device to a profile (pick one or a new name)",
            hint: "add device", writes: true),
        b(.listenView, [.up, .char("k")], .up, "Newer request"),
        b(.listenView, [.down, .char("j")], .down, "Older request"),
        b(.listenView, [.home, .char("g")], .top, "Newest request"),
        b(.listenView, [.end, .char("G")], .bottom, "Oldest request"),
        b(.profilesList, [.enter], .open, "Edit the selected profile and its test devices", hint: "edit"),
        b(.profilesList, [.char("n"), .ctrl("n"), .f(7)], .new, "New profile", hint: "new", writes: true),
        b(
            .profilesList, [.char("d"), .delete, .f(8)], .delete, "Delete the selected profile", hint: "delete",
            dangerous: true),
        b(.profileDevices, [.enter], .open, "Edit the selected test device", hint: "edit device"),
        b(
            .profileDevices, [.char("n"), .char("a"), .ctrl("n"), .f(7)], .new,
            "Add a test device (paste its token, pick its app)", hint: "add device", writes: true),
        b(
            .profileDevices, [.char("d"), .delete, .f(8)], .delete, "Remove the selected device (`u` brings it back)",
            hint: "remove", writes: true),
        b(.profileDevices, [.tab], .nextField, "Back to the profile's fields (Shift-Tab: the last one)"),
        b(.profileDevices, [.backTab], .prevField, "The profile's last field"),
        b(
            .profileEditor, [.ctrl("n")], .addField,
            "Add a recipient field (what <%= recipient.NAME %> personalizes)", hint: "add field", writes: true),
        b(.profileDevices, [.char("K"), .f(11)], .moveUp, "Move the selected device up", writes: true),
        b(.profileDevices, [.char("J"), .f(12)], .moveDown, "Move the selected device down", writes: true),
    ]

    /// The binding of a key in the first context that binds it.
    public static func binding(for key: Key, in contexts: [KeyContext]) -> KeyBinding? {
        for c in contexts {
            if let b = byContext[c.ordinal].first(where: { $0.keys.contains(key) }) { return b }
        }
        return nil
    }

    /// Each context's bindings in registry order, at its place in `allCases`: the status bar
    /// asks for a view's bindings at every frame, and filtering the whole registry each time
    /// copied every binding (a fifth of the first frame's drawing). Built in one pass: a
    /// filter per context copied and freed every binding once per context (1 M instructions
    /// of the first frame).
    private static let byContext: [[KeyBinding]] = {
        var lists = [[KeyBinding]](repeating: [], count: KeyContext.allCases.count)
        for b in bindings { lists[b.context.ordinal].append(b) }
        return lists
    }()

    /// The action bound to a key in the first context that binds it.
    public static func action(for key: Key, in contexts: [KeyContext]) -> Action? {
        binding(for: key, in: contexts)?.action
    }

    /// The label a key presses by its first letter, where one of `contexts` binds first
    /// letters (a dialog's buttons); nil when no label starts with it.
    public static func firstLetter(_ key: Key, of labels: [String], in contexts: [KeyContext]) -> Int? {
        guard case .char(let c) = key, bindings.contains(where: { $0.byFirstLetter && contexts.contains($0.context) })
        else { return nil }
        return labels.firstIndex { $0.lowercased().first == Character(c.lowercased()) }
    }

    /// The editing action of a key in a text field (what the line editor does with it).
    public static func editAction(for key: Key) -> Action? { action(for: key, in: [.textField]) }

    public static func bindings(in contexts: [KeyContext]) -> [KeyBinding] {
        contexts.flatMap { byContext[$0.ordinal] }
    }

    /// Status-bar hints: "Enter edit  n new …" for the given contexts, without the bindings
    /// `hidden` says cannot act here (read-only, nothing open).
    public static func hints(
        for contexts: [KeyContext], textFocused: Bool = false, hiding hidden: (KeyBinding) -> Bool = { _ in false }
    ) -> [(key: String, label: String)] {
        bindings(in: contexts).filter { !hidden($0) }.compactMap { b in
            b.hint.map { (b.shownKey(textFocused: textFocused).label, $0) }
        }
    }

    /// docs/KEYS.md, generated (KeysDocTests fails when the committed file is stale).
    public static func markdown() -> String {
        var s = "# Keys\n\nGenerated from the key registry (`Sources/PushDeskTUI/Keys/KeyRegistry.swift`) by\n"
        s += "`pushdesk keys --markdown`; do not edit by hand. Every F-key has a plain-key or Ctrl\n"
        s += "alternative, because F-keys get lost over some SSH clients and multiplexers. In text\n"
        s += "fields, printable keys type text; plain-letter bindings apply in lists and tables.\n"
        s += "A bracketed paste is always inserted as text: a pasted newline never submits a form\n"
        s += "(in a one-line field it becomes a space; in the body it is a line break).\n"
        s += "The last column says when a key does not act: in a read-only console (another console\n"
        s += "holds the store's lock) the keys that write are refused, with who holds it, and are not\n"
        s += "offered in the status bar; the console gives the reason each time.\n"
        s += "With `--mouse` (off by default) a click selects a row (a second click opens it), focuses\n"
        s += "a field or switches a tab, and the wheel moves the selection.\n"
        for c in KeyContext.allCases {
            let bs = bindings.filter { $0.context == c }
            if bs.isEmpty { continue }
            s += "\n## \(c.rawValue)\n\n| keys | action | not available |\n|---|---|---|\n"
            for b in bs {
                let keys = b.keyLabels.map { "`\($0.replacingOccurrences(of: "|", with: "\\|"))`" }.joined(
                    separator: ", ")
                let not = (b.writes ? ["read-only"] : []) + b.unavailable.map(\.when.rawValue)
                s += "| \(keys) | \(b.helpText) | \(not.joined(separator: ", ")) |\n"
            }
        }
        return s
    }
}

extension KeyContext: CaseOrdinal {}
