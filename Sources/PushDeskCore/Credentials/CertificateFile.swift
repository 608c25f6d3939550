import Foundation
import X509

/// Reads an APNs certificate file in any of the forms operators have: PEM (`.pem`, often with
/// the private key beside it), DER (`.cer`, as Apple's site hands it out) or PKCS#12 (`.p12`,
/// as Keychain exports it, with a password).
public enum CertificateFile {
    public enum Format: String, Sendable { case pem, der, pkcs12 }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case fileNotFound(String)
        case unreadable(String)
        case wrongPassword

        public var description: String {
            switch self {
            case .fileNotFound(let path): "file not found: \(path)"
            case .unreadable(let why): why
            case .wrongPassword: PKCS12Reader.Failure.wrongPassword.description
            }
        }
    }

    /// The format from the content: PEM text, a DER certificate, else a PKCS#12 bundle.
    public static func format(of data: Data) -> Format {
        if String(decoding: data.prefix(4096), as: UTF8.self).contains("-----BEGIN ") { return .pem }
        if (try? Certificate(derEncoded: [UInt8](data))) != nil { return .der }
        return .pkcs12
    }

    /// Whether the file holds a private key (PEM with a key block, or any .p12), so that its
    /// permissions matter.
    public static func holdsPrivateKey(_ data: Data) -> Bool {
        switch format(of: data) {
        case .pem:
            CredentialText.pemLabels(String(decoding: data, as: UTF8.self)).contains { $0.hasSuffix("PRIVATE KEY") }
        case .der: false
        case .pkcs12: true
        }
    }

    /// `password` is asked for only when the file turns out to be PKCS#12.
    public static func read(
        file: URL, shownAs path: String, password: () throws -> SecretValue,
        reader: PKCS12Reader = PKCS12Reader()
    ) throws -> (CertificateInfo, Format) {
        let data: Data
        do {
            guard let d = try SafeFile.readFile(file.path, maxBytes: 1 << 20, shownAs: path) else {
                throw Failure.fileNotFound(path)
            }
            data = d
        } catch let r as SafeFile.Refusal { throw Failure.unreadable(r.description) }
        let fmt = format(of: data)
        let der: [UInt8]
        switch fmt {
        case .pem:
            guard
                let first = CredentialText.pemBlocks(String(decoding: data, as: UTF8.self), label: "CERTIFICATE").first
            else {
                throw Failure.unreadable("\(path) holds no PEM CERTIFICATE block")
            }
            der = first
        case .der:
            der = [UInt8](data)
        case .pkcs12:
            do {
                guard let first = try reader.certificates(file: file, password: try password()).first else {
                    throw Failure.unreadable("\(path): the .p12 bundle holds no certificate")
                }
                der = first
            } catch let f as PKCS12Reader.Failure {
                switch f {
                case .wrongPassword: throw Failure.wrongPassword
                case .unreadable(let why): throw Failure.unreadable("\(path): \(why) (nor a PEM or DER certificate)")
                }
            }
        }
        do {
            return (try CertificateInfo(derEncoded: der), fmt)
        } catch {
            throw Failure.unreadable("\(path): the certificate is not valid X.509")
        }
    }
}
