/// The hand-off sheet's "Test against PushDesk" part (docs/LISTEN.md): the SDK
/// settings that point a test build at `pushdesk listen`, and how to trust its CA.
public struct HandoffListen: Equatable, Sendable {
    /// `host:port` of the listener, as the app reaches it (no scheme).
    public var address: String

    public init(address: String) { self.address = address }

    public static let caFile = "ca.pem"

    /// (setting, value) pairs, AEP first, then the legacy SDK.
    public var settings: [(name: String, value: String)] {
        [
            ("campaignclassic.marketingServer", address), ("campaignclassic.trackingServer", address),
            ("setMarketingHost (legacy SDK)", "https://\(address)/"),
            ("setTrackingHost (legacy SDK)", "https://\(address)/"),
        ]
    }

    public static let intro =
        "Point a test build at the operator's `pushdesk listen`: it checks each registration against this service, saves the device as a test device, and ties the app's tracking to the test push it sent. Ask the operator for the listener's CA certificate (`ca.pem`) and trust it on the test device. Never ship these settings."

    public static let iosTrust =
        "iOS Simulator: `xcrun simctl keychain booted add-root-cert ca.pem`. A device: install ca.pem as a profile, then enable it under Settings › General › About › Certificate Trust Settings."

    public static let androidTrust =
        "Android debug build: install ca.pem as a user CA (Settings › Security › Encryption & credentials › Install a certificate › CA certificate) and trust user CAs in debug builds only (below). An emulator or USB device reaches a listener on the developer's machine through `adb reverse tcp:PORT tcp:PORT`; a remote one through `ssh -L PORT:127.0.0.1:PORT`."

    public static let networkSecurityConfig = """
        <!-- res/xml/network_security_config.xml; android:networkSecurityConfig="@xml/network_security_config" in the manifest -->
        <network-security-config>
          <debug-overrides>
            <trust-anchors><certificates src="user"/></trust-anchors>
          </debug-overrides>
        </network-security-config>
        """

    var markdown: [String] {
        let code = HandoffText.markdownCode
        var l = ["", "## Test against PushDesk", "", Self.intro, "", "| Setting | Value |", "|---|---|"]
        l += settings.map { "| \($0.name) | \(code($0.value)) |" }
        l += ["", Self.iosTrust, "", Self.androidTrust, "", "```xml", Self.networkSecurityConfig, "```"]
        return l
    }

    var html: [String] {
        let h = HandoffText.html
        func inline(_ s: String) -> String {
            // `code` spans of the fixed texts become <code>.
            var out = ""
            for (i, part) in s.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
                out += i % 2 == 1 ? "<code>" + h(String(part)) + "</code>" : h(String(part))
            }
            return out
        }
        var l = ["<h2>Test against PushDesk</h2>", "<p>\(inline(Self.intro))</p>", "<table>"]
        l += settings.map { "<tr><th>\(h($0.name))</th><td><code>\(h($0.value))</code></td></tr>" }
        l += [
            "</table>", "<p>\(inline(Self.iosTrust))</p>", "<p>\(inline(Self.androidTrust))</p>",
            "<pre><code class=\"language-xml\">" + HandoffText.htmlCode(Self.networkSecurityConfig) + "</code></pre>",
        ]
        return l
    }

    var json: JSONValue {
        .object([
            ("address", .string(address)),
            ("settings", .object(settings.map { ($0.name, JSONValue.string($0.value)) })),
            ("iosTrust", .string(Self.iosTrust)), ("androidTrust", .string(Self.androidTrust)),
            ("networkSecurityConfig", .string(Self.networkSecurityConfig)),
        ])
    }
}
