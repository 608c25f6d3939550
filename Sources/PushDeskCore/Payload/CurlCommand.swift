import Foundation

/// A ready `curl` command for one preview target: the exact endpoint, headers and body of
/// docs/PAYLOADS.md, with placeholders where a device token or a credential goes. It never holds a
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
    /// `locale`: the variant `preview --locale TAG` builds (nil: the default).
    public static func command(
        delivery: Delivery, service: Service, profile: Profile?, appKey: String, now: Date,
        locale: PreviewLocale? = nil
    ) -> String? {
        guard let app = service.app(integrationKey: appKey) else { return nil }
        let preview = PreviewEngine.preview(
            delivery: delivery, service: service, profile: profile,
            appKey: appKey, token: deviceToken, now: now, locale: locale)
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
            for h in target.headers {
                options.append(["--header", Escape.inline("\(h.name): \(h.value)", limit: .max)])
            }
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
        options += [["--data", Escape.json(target.payload.compact)], [Escape.inline(target.endpoint, limit: .max)]]
        return ([head] + options).map { $0.map(shellQuote).joined(separator: " ") }.joined(separator: " \\\n  ") + "\n"
    }

    /// Quotes one argument for a POSIX shell: bare when it is plainly safe, else in single
    /// quotes (a `'` inside becomes `'\''`).
    public static func shellQuote(_ s: String) -> String {
        if !s.isEmpty, s.unicodeScalars.allSatisfy(isBare) { return s }
        return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func isBare(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "/", ":", "=", "@", ",", "+": true
        default: false
        }
    }
}
