import Foundation
import SwiftASN1

/// Small text helpers shared by the credential readers. Everything shown from a credential
/// file (subject names, topics, project ids) is untrusted and goes through `Escape.inline`,
/// the one rule for text on its way to a terminal (controls, bidi overrides, invisibles).
public enum CredentialText {
    /// `AB:CD:…` — the form `openssl x509 -fingerprint` prints, so operators can compare.
    public static func colonHex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        bytes.map { byte in
            let s = String(byte, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }.joined(separator: ":")
    }

    /// Base64url without padding (RFC 7515 §2), as JWTs use.
    public static func base64url<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url with or without padding; nil when malformed.
    public static func base64urlDecode(_ text: String) -> Data? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s)
    }

    /// The PEM blocks of a text with the given label (`CERTIFICATE`, `PRIVATE KEY`), decoded
    /// by SwiftASN1's `PEMDocument`. Text between blocks (openssl's "Bag Attributes" lines)
    /// is skipped; a malformed block makes the text hold none.
    static func pemBlocks(_ text: String, label: String) -> [[UInt8]] {
        pemDocuments(text).filter { $0.discriminator == label }.map(\.derBytes)
    }

    /// Labels of every PEM block in a text, in order (`CERTIFICATE`, `EC PRIVATE KEY`, …).
    static func pemLabels(_ text: String) -> [String] { pemDocuments(text).map(\.discriminator) }

    private static func pemDocuments(_ text: String) -> [PEMDocument] {
        (try? PEMDocument.parseMultiple(pemString: text)) ?? []
    }
}
