import Foundation
import PushDeskTestSeal

/// The sealed environment the test process runs in (Tests/PushDeskTestSeal sets it before
/// any test): what a test with no mock reaches, and the names it covers.
public enum SealedEnvironment {
    /// The loopback port every endpoint and the proxy point at: held bound, never listened on.
    public static var port: Int { Int(pushdesk_test_sealed_port()) }

    /// Every endpoint variable PushDesk reads (docs/SENDING.md and the channel and broadcast APIs).
    public static let endpointVariables = [
        "PUSHDESK_APNS_SANDBOX_URL", "PUSHDESK_APNS_PRODUCTION_URL", "PUSHDESK_FCM_URL",
        "PUSHDESK_APNS_MANAGE_SANDBOX_URL", "PUSHDESK_APNS_MANAGE_PRODUCTION_URL",
        "PUSHDESK_APNS_BROADCAST_SANDBOX_URL", "PUSHDESK_APNS_BROADCAST_PRODUCTION_URL",
    ]

    /// What the seal sets, variable by variable (`nil`: unset).
    public static var expected: [String: String?] {
        var e: [String: String?] = [:]
        for name in endpointVariables { e[name] = "https://127.0.0.1:\(port)" }
        e["https_proxy"] = "http://127.0.0.1:\(port)"
        e["HTTPS_PROXY"] = "http://127.0.0.1:\(port)"
        e["no_proxy"] = .some(nil)
        e["NO_PROXY"] = .some(nil)
        e["PUSHDESK_CA_FILE"] = .some(nil)
        e["PUSHDESK_SYSTEM_TRUST"] = "0"
        return e
    }
}

extension SealedEnvironment {
    /// `env` (a child's whole environment, chosen by a test) with the seal's variables added
    /// where `env` does not set them, so that child is sealed off too.
    public static func adding(_ env: [String: String]) -> [String: String] {
        var out = env
        for (name, value) in expected where out[name] == nil {
            if let value { out[name] = value }
        }
        return out
    }
}
