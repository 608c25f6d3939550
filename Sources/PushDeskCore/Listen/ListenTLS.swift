import CNIOBoringSSL
import NIOCore
import NIOSSL

/// The listener's TLS (docs/LISTEN.md): TLS 1.2 and 1.3, AEAD suites only, chosen in the
/// server's order — what testssl.sh and nmap's ssl-enum-ciphers call a good server, and all
/// an iOS or Android test build needs. TLS 1.3's suites are all AEAD and fixed by BoringSSL.
enum ListenTLS {
    /// TLS 1.2's suites, best first: ECDSA certificates (the local CA's P-256) and RSA ones
    /// (an operator's `--cert`), AES-GCM then ChaCha20-Poly1305. No CBC: testssl.sh rates
    /// `ECDHE-ECDSA-AES128-SHA` LOW (LUCKY13), and no phone needs it.
    static let tls12Suites = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305",
        "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-CHACHA20-POLY1305",
    ]

    /// How long a close waits for the client's TLS close_notify before the socket is closed
    /// anyway. swift-nio-ssl waits 5 s by default, and a listener that closed its idle
    /// keep-alive connections one after another took 5 s each to stop.
    static let shutdownTimeout: TimeAmount = .milliseconds(200)

    static func serverContext(chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) throws -> NIOSSLContext {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        tls.minimumTLSVersion = .tlsv12
        tls.cipherSuites = tls12Suites.joined(separator: ":")
        tls.shutdownTimeout = shutdownTimeout
        let context = try NIOSSLContext(configuration: tls)
        preferServerOrder(context)
        return context
    }

    /// swift-nio-ssl has no setting for BoringSSL's `SSL_OP_CIPHER_SERVER_PREFERENCE`, so the
    /// option is set on the context's own `SSL_CTX`, found by reflection. Returns whether it
    /// was set; `ListenServerTLSTests` fails when a swift-nio-ssl update hides the context
    /// (the client's order would then win again).
    @discardableResult
    static func preferServerOrder(_ context: NIOSSLContext) -> Bool {
        guard
            let ctx = Mirror(reflecting: context).children.first(where: { $0.label == "sslContext" })?.value
                as? OpaquePointer
        else { return false }
        SSL_CTX_set_options(ctx, UInt32(SSL_OP_CIPHER_SERVER_PREFERENCE))
        return true
    }
}
