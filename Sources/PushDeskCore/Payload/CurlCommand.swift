import Foundation

/// A ready `curl` command for one preview target: the exact endpoint, headers and body of
/// SPEC §4, with placeholders where a device token or a credential goes. It never holds a
/// credential: the operator pastes their own provider token (APNs), OAuth access token
/// (FCM v1) or server key (legacy FCM) in place of the `<…>` placeholder.
///
/// Shapes follow Apple's "Sending push notifications using command-line tools" (HTTP/2,
/// `authorization: bearer`, or `--cert`/`--key` for certificate auth) and Firebase's HTTP v1
/// `messages:send` (`Authorization: Bearer`).
public enum CurlCommand {
    public static let deviceToken = "<DEVICE_TOKEN>"
    /// The JWT signed with the app's .p8 key (token auth).
    public static let providerToken = "<PROVIDER_TOKEN>"
    public static let certificate = "<CERTIFICATE.pem>"
    public static let certificateKey = "<PRIVATE_KEY.pem>"
    /// An OAuth 2 access token of the service account (scope firebase.messaging).
    public static let accessToken = "<ACCESS_TOKEN>"
    public static let serverKey = "<SERVER_KEY>"

    /// The command for the app with integration key `appKey`, built from the same preview
    /// `pushdesk preview` makes, with `<DEVICE_TOKEN>` as the token. nil when the service has
    /// no such app.
    public static func command(delivery: Delivery, service: Service, profile: Profile?, appKey: String, now: Date)
        -> String?
    {
        guard let app = service.app(integrationKey: appKey) else { return nil }
        let preview = PreviewEngine.preview(
            delivery: delivery, service: service, profile: profile,
            appKey: appKey, token: deviceToken, now: now)
        guard let target = preview.targets.first else { return nil }
        return format(target, app: app)
    }

    /// Formats a target built with `token: deviceToken`. `app` chooses the auth arguments
    /// (certificate auth for an iOS app on certificates; a bearer token otherwise).
    public static func format(_ target: PreviewTarget, app: MobileApp?) -> String {
        // One option (with its value) per line, so long commands stay readable.
        var head = ["curl"]
        var options: [[String]] = []
        switch target.api {
        case .apns:
            head += ["-v", "--http2"]
            if case .ios(let a)? = app, case .certificate? = a.auth {
                options += [
                    ["--cert", certificate], ["--cert-type", "PEM"], ["--key", certificateKey], ["--key-type", "PEM"],
                ]
            } else {
                options.append(["--header", "authorization: bearer \(providerToken)"])
            }
            for h in target.headers { options.append(["--header", terminalSafeText("\(h.name): \(h.value)")]) }
        case .httpv1:
            head += ["-X", "POST"]
            options += [
                ["--header", "Authorization: Bearer \(accessToken)"],
                ["--header", "Content-Type: application/json; charset=UTF-8"],
            ]
        case .legacy:
            head += ["-X", "POST"]
            options += [
                ["--header", "Authorization: key=\(serverKey)"], ["--header", "Content-Type: application/json"],
            ]
        }
        options += [["--data", terminalSafeJSON(target.payload.compact)], [terminalSafeText(target.endpoint)]]
        return ([head] + options).map { $0.map(shellQuote).joined(separator: " ") }.joined(separator: " \\\n  ") + "\n"
    }

    /// Quotes one argument for a POSIX shell: bare when it is plainly safe, else in single
    /// quotes (a `'` inside becomes `'\''`).
    public static func shellQuote(_ s: String) -> String {
        if !s.isEmpty, s.unicodeScalars.allSatisfy(isBare) { return s }
        return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The JSON body with DEL, C1 controls, bidi overrides and line separators written as
    /// `\uXXXX`: the same JSON value (they can only stand inside strings, and the compact
    /// form already escapes U+0000–U+001F), but nothing in it can drive a terminal or hide text
    /// when the command is shown or pasted.
    static func terminalSafeJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var out = ""
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) {
                out += String(format: "\\u%04X", scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Header values and URLs cannot carry control characters in HTTP; one from a file is
    /// shown as a visible `\u{…}` escape instead of reaching the terminal raw.
    static func terminalSafeText(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isBare(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "/", ":", "=", "@", ",", "+": true
        default: false
        }
    }

    private static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v)
            || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x2028 || v == 0x2029
    }
}
