import Foundation

/// Reads the certificates out of a PKCS#12 (.p12) bundle with the system `openssl`
/// (swift-certificates has no PKCS#12 support).
///
/// The password reaches openssl on its stdin (`-passin fd:0`): not on argv, where `ps` shows
/// it, nor in the child's environment. openssl's stderr is only inspected to tell a wrong
/// password from a damaged file and is never shown: no error of ours carries it.
public struct PKCS12Reader: Sendable {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// No `openssl` on PATH.
        case opensslMissing
        /// The MAC check failed: the password is not the bundle's.
        case wrongPassword
        /// Not a PKCS#12 bundle, or one without a certificate.
        case unreadable(String)

        public var description: String {
            switch self {
            case .opensslMissing:
                "reading a .p12 needs the `openssl` command, which is not on PATH; install it (Debian: apt-get install openssl) or convert the bundle to a PEM certificate"
            case .wrongPassword:
                "the password does not open this .p12 bundle; set the right one in the secret named by passwordRef"
            case .unreadable(let why): why
            }
        }
    }

    /// Path of openssl, nil when it is not installed.
    public let openssl: String?

    public init(searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) {
        openssl = ChildProcess.locate("openssl", searchPath: searchPath)
    }

    /// DER bytes of the bundle's certificates: the client certificate (the one matching the
    /// private key) when the bundle marks it, else every certificate in file order.
    public func certificates(file: URL, password: SecretValue) throws -> [[UInt8]] {
        guard let openssl else { throw Failure.opensslMissing }
        var certs = try extract(openssl, file: file, password: password, clientOnly: true)
        if certs.isEmpty { certs = try extract(openssl, file: file, password: password, clientOnly: false) }
        guard !certs.isEmpty else { throw Failure.unreadable("the .p12 bundle holds no certificate") }
        return certs
    }

    private func extract(_ openssl: String, file: URL, password: SecretValue, clientOnly: Bool) throws -> [[UInt8]] {
        var result = try run(openssl, file: file, password: password, clientOnly: clientOnly, legacy: false)
        if result.status != 0 {
            let err = String(decoding: result.stderr, as: UTF8.self).lowercased()
            if err.contains("unsupported") || err.contains("rc2") {
                // Keychain exports made with RC2-40 need OpenSSL 3's legacy provider.
                result = try run(openssl, file: file, password: password, clientOnly: clientOnly, legacy: true)
            }
        }
        if result.status != 0 {
            let err = String(decoding: result.stderr, as: UTF8.self).lowercased()
            if err.contains("invalid password") || err.contains("mac verify") { throw Failure.wrongPassword }
            throw Failure.unreadable("not a readable PKCS#12 (.p12) bundle")
        }
        return CredentialText.pemBlocks(String(decoding: result.stdout, as: UTF8.self), label: "CERTIFICATE")
    }

    private func run(
        _ openssl: String, file: URL, password: SecretValue, clientOnly: Bool,
        legacy: Bool
    ) throws -> ChildProcess.Result {
        var args = ["pkcs12", "-in", file.path, "-nokeys", "-passin", "fd:0"]
        if clientOnly { args.append("-clcerts") }
        if legacy { args.append("-legacy") }
        return try ChildProcess.run(openssl, args, stdin: password.bytes + [0x0A])
    }
}
