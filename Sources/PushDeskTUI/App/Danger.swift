import PushDeskCore

/// What a dangerous action would do (its binding is marked `dangerous` in the registry: a
/// delete that `u` cannot bring back): the record it names and the answer Yes gives. The
/// view says only this; the framework asks the one question for every such action
/// (`Effect.confirm`): Yes does it, No — focused — and Esc keep everything.
struct Danger {
    /// The dialog's title, e.g. "Delete service".
    var title: String
    /// The question, naming the record and its file.
    var question: String
    let yes: (AppContext) -> Effect

    /// Yes is an effect the app carries out (deleting a record file).
    init(_ title: String, _ question: String, yes effect: Effect) {
        self.init(title, question) { _ in effect }
    }

    /// Yes is the view's own change (its draft), answering with an effect.
    init(_ title: String, _ question: String, yes: @escaping (AppContext) -> Effect) {
        self.title = title
        self.question = question
        self.yes = yes
    }
}

extension ConsoleScreen {
    /// The answer to an action reached through `binding`: a dangerous one is asked about
    /// first (nothing happens when the view has nothing to act on), any other goes to `handle`.
    func respond(to binding: KeyBinding, app: AppContext) -> Effect? {
        guard binding.dangerous else { return handle(binding.action, app: app) }
        return danger(binding.action, app: app).map(Effect.confirm) ?? Effect.none
    }

    /// `respond(to:)` for the binding of `action` among the view's key contexts.
    func respond(_ action: Action, app: AppContext) -> Effect? {
        guard let b = KeyRegistry.bindings(in: contexts).first(where: { $0.action == action }) else {
            return handle(action, app: app)
        }
        return respond(to: b, app: app)
    }
}

extension Effect {
    /// The one question before a dangerous action.
    static func confirm(_ danger: Danger) -> Effect {
        let ask = Ask<Bool>.buttons(
            danger.title, danger.question, [("Yes", true), ("No", false)], focus: 1, cancel: false)
        return .ask(Question(dialog: ask.dialog) { r, app in ask.reply(r) ? danger.yes(app) : .none })
    }
}
