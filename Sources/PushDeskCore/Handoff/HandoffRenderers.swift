/// The three renderings of a hand-off sheet. Each returns the whole file, ending in a newline.
public enum HandoffFormat: String, Sendable, CaseIterable {
    case md, html, json
}

extension HandoffSheet {
    public func rendered(as format: HandoffFormat) -> String {
        switch format {
        case .md: markdown
        case .html: html
        case .json: json.pretty + "\n"
        }
    }

    static let intro =
        "Give this sheet to the app's developers. It holds no secret: credentials are named by kind only."

    // MARK: Markdown

    public var markdown: String {
        let code = HandoffText.markdownCode
        let text = HandoffText.markdown
        var l: [String] = [
            "# Integration sheet: \(text(label.isEmpty ? service : label)) (\(code(service)))",
            "",
            Self.intro,
            "",
            "| Setting | Value |",
            "|---|---|",
            "| Marketing URL | \(code(marketingUrl)) |",
            "| Tracking URL | \(code(trackingUrl)) |",
        ]
        for app in apps {
            l += [
                "", "## \(text(app.label)) (\(app.platformTitle))", "",
                "| Setting | Value |", "|---|---|",
                "| Integration key | \(code(app.integrationKey)) |",
                "| \(app.appIdTitle) | \(code(app.appId)) |",
            ]
            if let env = app.environment { l.append("| Environment | \(env.rawValue) |") }
            if let api = app.api { l.append("| FCM API | \(api.rawValue) |") }
            l.append("| Connector | \(app.connector) |")
            l.append("| Credential | \(app.credentialKind ?? "(not set)") |")

            l += ["", "### Variables", ""]
            if app.variables.isEmpty {
                l.append("None declared.")
            } else {
                l += ["| Name | Label |", "|---|---|"]
                l += app.variables.map { "| \(code($0.name)) | \(text($0.label)) |" }
            }
            l += ["", "### Subscription parameters", ""]
            if app.subscriptionParams.isEmpty {
                l.append("None declared.")
            } else {
                l += ["| Config name | Field | Label |", "|---|---|---|"]
                l += app.subscriptionParams.map { "| \(code($0.name)) | \(code($0.field)) | \(text($0.label)) |" }
            }
            if app.platform == .ios {
                l += ["", "### Sounds", ""]
                if app.sounds.isEmpty {
                    l.append("None declared.")
                } else {
                    l += ["| File name | Label |", "|---|---|"]
                    l += app.sounds.map { "| \(code($0.name)) | \(text($0.label)) |" }
                }
            }
            for s in app.snippets {
                let fence = HandoffText.fence(for: s.code)
                l += [
                    "", "### \(s.title): \(code(s.fileName))", "",
                    fence + s.language.markdownTag, s.code + fence,
                ]
            }
        }
        if let localization { l += localization.markdown }
        if let listen { l += listen.markdown }
        return l.joined(separator: "\n") + "\n"
    }

    // MARK: HTML

    public var html: String {
        let h = HandoffText.html
        let title = "Integration sheet: " + h(label.isEmpty ? service : label)
        var l: [String] = [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\">",
            "<title>\(title)</title>",
            "<style>",
            "body { font-family: sans-serif; max-width: 60em; margin: 2em auto; }",
            "table { border-collapse: collapse; margin: 0.5em 0; }",
            "th, td { border: 1px solid #999; padding: 0.2em 0.6em; text-align: left; }",
            "pre { background: #f4f4f4; padding: 0.8em; overflow-x: auto; }",
            "</style>",
            "</head>",
            "<body>",
            "<h1>\(title) (<code>\(h(service))</code>)</h1>",
            "<p>\(h(Self.intro))</p>",
            "<table>",
            "<tr><th>Marketing URL</th><td>\(htmlValue(marketingUrl))</td></tr>",
            "<tr><th>Tracking URL</th><td>\(htmlValue(trackingUrl))</td></tr>",
            "</table>",
        ]
        for app in apps {
            l += [
                "<div class=\"app\">", "<h2>\(h(app.label)) (\(app.platformTitle))</h2>", "<table>",
                "<tr><th>Integration key</th><td>\(htmlValue(app.integrationKey))</td></tr>",
                "<tr><th>\(app.appIdTitle)</th><td>\(htmlValue(app.appId))</td></tr>",
            ]
            if let env = app.environment { l.append("<tr><th>Environment</th><td>\(env.rawValue)</td></tr>") }
            if let api = app.api { l.append("<tr><th>FCM API</th><td>\(api.rawValue)</td></tr>") }
            l.append("<tr><th>Connector</th><td>\(app.connector)</td></tr>")
            l.append("<tr><th>Credential</th><td>\(app.credentialKind ?? "(not set)")</td></tr>")
            l.append("</table>")

            l.append("<h3>Variables</h3>")
            l += htmlTable(["Name", "Label"], app.variables.map { [htmlValue($0.name), h($0.label)] })
            l.append("<h3>Subscription parameters</h3>")
            l += htmlTable(
                ["Config name", "Field", "Label"],
                app.subscriptionParams.map { [htmlValue($0.name), htmlValue($0.field), h($0.label)] })
            if app.platform == .ios {
                l.append("<h3>Sounds</h3>")
                l += htmlTable(["File name", "Label"], app.sounds.map { [htmlValue($0.name), h($0.label)] })
            }
            for s in app.snippets {
                l.append("<h3>\(h(s.title)): <code>\(h(s.fileName))</code></h3>")
                l.append(
                    "<pre><code class=\"language-\(s.language.rawValue)\">"
                        + HandoffText.htmlCode(s.code) + "</code></pre>")
            }
            l.append("</div>")
        }
        if let localization { l += localization.html }
        if let listen { l += listen.html }
        l += ["</body>", "</html>"]
        return l.joined(separator: "\n") + "\n"
    }

    private func htmlValue(_ s: String) -> String {
        s.isEmpty ? "(not set)" : "<code>" + HandoffText.html(s) + "</code>"
    }

    private func htmlTable(_ header: [String], _ rows: [[String]]) -> [String] {
        if rows.isEmpty { return ["<p>None declared.</p>"] }
        return ["<table>", "<tr>" + header.map { "<th>\($0)</th>" }.joined() + "</tr>"]
            + rows.map { "<tr>" + $0.map { "<td>\($0)</td>" }.joined() + "</tr>" }
            + ["</table>"]
    }

    // MARK: JSON

    /// Machine-readable form (pretty-printed by `rendered(as: .json)`), through the shared JSONValue.
    public var json: JSONValue {
        var m: [(String, JSONValue)] = [
            ("service", .string(service)),
            ("label", .string(label)),
            ("marketingUrl", .string(marketingUrl)),
            ("trackingUrl", .string(trackingUrl)),
            ("apps", .array(apps.map(\.json))),
        ]
        if let localization { m.append(("localization", localization.json)) }
        if let listen { m.append(("testAgainstPushDesk", listen.json)) }
        return .object(m)
    }
}

extension HandoffApp {
    /// "iOS, sandbox", "Android".
    var platformTitle: String {
        switch platform {
        case .ios: "iOS" + (environment.map { ", " + $0.rawValue } ?? "")
        case .android: "Android"
        }
    }

    var json: JSONValue {
        var m: [(String, JSONValue)] = [
            ("label", .string(label)),
            ("platform", .string(platform.rawValue)),
        ]
        if let environment { m.append(("environment", .string(environment.rawValue))) }
        m.append(("integrationKey", .string(integrationKey)))
        m.append((platform == .ios ? "bundleId" : "packageName", .string(appId)))
        if let api { m.append(("api", .string(api.rawValue))) }
        m.append(("connector", .string(connector)))
        m.append(("credential", credentialKind.map { .string($0) } ?? .null))
        m.append(
            (
                "variables",
                .array(
                    variables.map {
                        .object([("name", .string($0.name)), ("label", .string($0.label))])
                    })
            ))
        m.append(
            (
                "subscriptionParams",
                .array(
                    subscriptionParams.map {
                        .object([
                            ("name", .string($0.name)), ("label", .string($0.label)), ("field", .string($0.field)),
                        ])
                    })
            ))
        if platform == .ios {
            m.append(
                (
                    "sounds",
                    .array(
                        sounds.map {
                            .object([("name", .string($0.name)), ("label", .string($0.label))])
                        })
                ))
        }
        m.append(
            (
                "snippets",
                .array(
                    snippets.map {
                        .object([
                            ("language", .string($0.language.rawValue)), ("fileName", .string($0.fileName)),
                            ("title", .string($0.title)), ("code", .string($0.code)),
                        ])
                    })
            ))
        return .object(m)
    }
}

extension CodeSnippet.Language {
    /// Info string of a Markdown code fence.
    var markdownTag: String { self == .java ? "java" : "objectivec" }
}

extension HandoffFormat {
    /// The format a file name asks for (`sheet.html` → html), nil when the extension says nothing.
    public init?(fileName: String) {
        let lower = fileName.lowercased()
        if lower.hasSuffix(".html") || lower.hasSuffix(".htm") {
            self = .html
        } else if lower.hasSuffix(".json") {
            self = .json
        } else if lower.hasSuffix(".md") || lower.hasSuffix(".markdown") {
            self = .md
        } else {
            return nil
        }
    }
}
