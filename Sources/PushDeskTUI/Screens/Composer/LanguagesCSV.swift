import Foundation
import PushDeskCore

/// The Languages tab's translators' files (docs/FORMATS.md, "Translators' files"): export
/// writes the draft's languages as `pushdesk variants export` writes them; import reads a
/// file onto the draft as `pushdesk variants import` reads it (the core's `VariantsCSV`),
/// checked as `validate` checks it, and applies the result as one edit (`u` undoes it;
/// Ctrl-S saves it like any edit), saying what changed and the findings.
extension ComposerScreen {
    /// The answers of the file dialogs.
    enum CSVReply {
        case exportFormat(VariantsCSVFormat?)
        case exportPath(VariantsCSVFormat, String?)
        case exportReplace(VariantsCSVFormat, String)
        case importMode(replace: Bool?)
        case importPath(replace: Bool, String?)
    }

    var csvBaseName: String { (s.draft.name.isEmpty ? "delivery" : s.draft.name) + "-languages.csv" }

    func askExport() -> Effect {
        let formats = VariantsCSVFormat.allCases
        return .ask(
            self,
            .choices(
                "Export the languages (a translators' file)",
                options: formats.map {
                    $0 == .pushdesk
                        ? "pushdesk: locale, title, subtitle, body, a value:NAME column per value"
                        : "campaign-standard: Campaign Standard's 14 columns"
                }, selected: 0
            ) { i in .csv(.exportFormat(i.map { formats[$0] })) })
    }

    func askImport() -> Effect {
        .ask(
            self,
            .choices(
                "Import a translators' file",
                options: [
                    "Add and change languages: the file's rows (the others stay)",
                    "Replace: also remove the languages the file does not name",
                ], selected: 0
            ) { i in .csv(.importMode(replace: i.map { $0 == 1 })) })
    }

    func answerCSV(_ reply: CSVReply, app: AppContext) -> Effect {
        let cwd = app.workingDirectory
        switch reply {
        case .exportFormat(nil), .exportPath(_, nil), .importMode(nil), .importPath(_, nil): return .none
        case .exportFormat(let format?):
            return .ask(
                self,
                .filePath(
                    "Export the languages (\(format.rawValue))", "File, relative to \(cwd) (Tab completes):",
                    value: csvBaseName, base: cwd
                ) { .csv(.exportPath(format, $0)) })
        case .exportPath(let format, let path?):
            guard !path.isEmpty else { return .none }
            guard app.fileExists(path) else { return export(format, to: path, app: app) }
            return .ask(
                self,
                .buttons(
                    "Replace?", "\(Sanitize.string(path)) exists. Replace it?",
                    [("Yes", .csv(.exportReplace(format, path))), ("No", .cancelled)], focus: 1, cancel: .cancelled))
        case .exportReplace(let format, let path): return export(format, to: path, app: app)
        case .importMode(let replace?):
            return .ask(
                self,
                .filePath(
                    "Import a translators' file", "CSV file, relative to \(cwd) (Tab completes):", value: csvBaseName,
                    base: cwd
                ) { .csv(.importPath(replace: replace, $0)) })
        case .importPath(let replace, let path?):
            guard !path.isEmpty else { return .none }
            let service = app.currentService(named: s.draft.service)
            let profiles = app.profiles
            let now = clock()
            return .readFile(app.fileURL(path), maxBytes: CSVTable.maxBytes) { [weak self] read in
                guard let self else { return .none }
                return self.imported(read, path: path, replace: replace, service: service, profiles: profiles, now: now)
            }
        }
    }

    private func export(_ format: VariantsCSVFormat, to path: String, app: AppContext) -> Effect {
        let text = VariantsCSV.export(s.draft, format: format)
        let url = app.fileURL(path)
        let n = s.draft.variants.count
        return .writeFile(url, Array(text.utf8), mode: 0o644) { error in
            guard let error else {
                return .say(
                    "Wrote \(Sanitize.string(url.path)) (the default and \(n) variant\(n == 1 ? "" : "s"), \(text.utf8.count) bytes)."
                )
            }
            return .inform(
                "Not written",
                Sanitize.string("\(url.path): \(error)")
                    + "\nNothing was written. Check the folder exists and is writable.")
        }
    }

    /// The file read: its plan onto the draft, applied as one edit when nothing in it is an error.
    private func imported(
        _ read: Result<Data?, Error>, path: String, replace: Bool, service: Service?, profiles: [Profile], now: Date
    ) -> Effect {
        var plan: VariantsImportPlan
        switch read {
        case .failure(let e as SafeFile.Refusal) where e.isTooLarge:
            plan = .tooLarge(path, onto: s.draft)
        case .failure(let e):
            return .inform("Not imported", Sanitize.string("\(path): cannot read the CSV file: \(e)"))
        case .success(nil):
            return .inform("Not imported", Sanitize.string("\(path): no such file"))
        case .success(let data?):
            plan = VariantsCSV.plan(data, file: path, onto: s.draft, replace: replace)
        }
        if plan.result != nil, let service { plan = plan.checked(service: service, profiles: profiles, now: now) }
        let findings = plan.findings.map { Sanitize.string($0.formatted) }
        guard let result = plan.result else {
            return .inform("Not imported: nothing changed", findings.joined(separator: "\n"))
        }
        guard !plan.isEmpty else { return .say("\(Sanitize.string(path)): nothing to change.") }
        // One edit: `u` takes the whole file back. The form follows at the next frame (`update`).
        s.edit(nil) { d in d = result }
        let changes = plan.changes.map { Sanitize.string($0.line) }
        let summary =
            "Imported \(Sanitize.string(path)) (u undoes it; Ctrl-S saves):\n" + changes.joined(separator: "\n")
        return findings.isEmpty
            ? .say("Imported \(Sanitize.string(path)): \(changes.joined(separator: "; ")) (u undoes it).")
            : .inform("Imported", summary + "\n\n" + findings.joined(separator: "\n"))
    }
}
