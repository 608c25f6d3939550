import Foundation
import PushDeskCore

/// The app editor's form tabs: Information (the app's fields) and Credentials (the auth
/// mode, its fields and secrets, the offline credential checks, and Check online).
extension AppEditorScreen {
    /// The tab's fields into the form: built afresh on a new tab or another set of fields,
    /// else their values updated in place so cursors stay where they are.
    func syncForm(tabChanged: Bool) {
        let fresh = tab == .information ? AppFields.info(app) : AppFields.credentials(app, secretSet: secretExists)
        if form.replace(with: fresh, force: tabChanged) { return }
        for f in fresh {
            // A value being typed that is not valid yet stays as typed.
            if form[f.id] != f.value, inputErrors[f.id] == nil { form[f.id] = f.value }
            if let i = form.fields.firstIndex(where: { $0.id == f.id }) { form.fields[i].note = f.note }
        }
    }

    /// The form field `id` changed: its value into the draft, or its input error under it.
    func applyForm(_ id: String) {
        let v = form[id]
        var error: String?
        s.edit("\(tab.rawValue).\(id)") { d in error = AppFields.apply(id, v, to: &d.apps[index]) }
        inputErrors[id] = error
        sync()
    }

    /// The form's keys; Enter on a secret, a choice or a path asks for its value.
    func handleForm(_ action: Action, app: AppContext) -> Effect? {
        switch form.handle(action) {
        case .changed(let id):
            applyForm(id)
            return Effect.none
        case .pick(let id):
            guard let f = form.fields.first(where: { $0.id == id }) else { return Effect.none }
            if f.kind == .secret {
                let what = id == "password" ? "the .p12/.pem password" : "the FCM server key"
                return .ask(
                    self,
                    .text(
                        f.label,
                        "Type or paste \(what). It is stored in the store's secrets/\n(mode 0600), never in services/, and never shown.",
                        masked: true
                    ) { v in v.map { .secret(field: id, value: $0) } ?? .cancelled })
            } else if case .choice(let opts) = f.kind {
                return .ask(
                    self,
                    .choices(f.label, options: opts, selected: opts.firstIndex(of: f.value) ?? 0) { i in
                        i.map { .set(field: id, value: opts[$0]) } ?? .cancelled
                    })
            } else {
                return .ask(
                    self,
                    .filePath(
                        f.label, "Path, relative to the store (Tab completes):", value: f.value, base: app.storeRoot
                    ) { v in v.map { .set(field: id, value: $0) } ?? .cancelled })
            }
        case .moved: return Effect.none
        case .unhandled: return nil
        }
    }

    /// Saves a typed secret under the app's reference, creating the reference
    /// (`<integration key>-p12` / `-server-key`) when it is empty.
    func storeSecret(field: String, value: String) -> Effect {
        let refField = field == "password" ? "passwordRef" : "serverKeyRef"
        var ref = form[refField]
        if ref.isEmpty {
            ref = self.app.integrationKey + (field == "password" ? "-p12" : "-server-key")
            form[refField] = ref
            applyForm(refField)
        }
        return .storeSecret(ref, value) { [weak self] error in
            // The credential checks read the secrets: run again once it is stored.
            self?.sync(force: true)
            self?.form.focus(id: field)
            guard let error else { return .say("Stored the secret '\(ref)' in secrets/ (not in the service file).") }
            return .inform("Secret not stored", Sanitize.string("\(error)"))
        }
    }

    /// Check online, with the offline checks' first error to show before it connects.
    func checkOnline(_ ca: AppContext) -> Effect {
        refreshCredentials(ca)
        let offline = credentialReport?.findings.first { $0.severity == .error }
        return .push(
            OnlineCheckScreen(
                app: app, label: app.label.isEmpty ? app.integrationKey : app.label,
                offlineFinding: offline, storeRoot: URL(fileURLWithPath: ca.storeRoot),
                environment: ca.environment))
    }

    /// Runs the credential checks again when the draft changed since the last run (they
    /// read the key and certificate files, so not on every frame).
    func refreshCredentials(_ ca: AppContext) {
        guard credentialVersion != s.version, s.draft.apps.indices.contains(index) else { return }
        credentialVersion = s.version
        let reports = CredentialChecker.check(
            service: s.draft, storeRoot: URL(fileURLWithPath: ca.storeRoot), now: ca.clock())
        credentialReport = reports.first { $0.index == index }
    }

    /// The rules' findings of this app; on the Credentials tab also the credential checks'
    /// (without `fcm.legacy-api`, which the rules report already, as `pushdesk validate` does).
    func findings(_ ca: AppContext) -> [Finding] {
        let rules = ca.findings(forService: s.draft.name).filter { $0.field.index(in: "apps") == index }
        guard tab == .credentials, let r = credentialReport else { return rules }
        let extra = r.findings.filter { f in
            f.rule != CredentialRules.fcmLegacyAPI.id && !rules.contains { $0.rule == f.rule && $0.field == f.field }
        }
        return rules + extra
    }
}
