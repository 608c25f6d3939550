import Foundation

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

    /// `2026-11-21T05:42:17Z`.
    public static func iso8601(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: date)
    }

    /// The PEM blocks of a text with the given label (`CERTIFICATE`, `PRIVATE KEY`), decoded.
    /// Text outside the blocks (openssl's "Bag Attributes" lines) is ignored.
    static func pemBlocks(_ text: String, label: String) -> [[UInt8]] {
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        var blocks: [[UInt8]] = []
        var rest = Substring(text)
        while let b = rest.range(of: begin) {
            guard let e = rest.range(of: end, range: b.upperBound..<rest.endIndex) else { break }
            let body = rest[b.upperBound..<e.lowerBound].filter { !$0.isWhitespace }
            if let data = Data(base64Encoded: String(body)) { blocks.append([UInt8](data)) }
            rest = rest[e.upperBound...]
        }
        return blocks
    }

    /// Labels of every PEM block in a text, in order (`CERTIFICATE`, `EC PRIVATE KEY`, …).
    static func pemLabels(_ text: String) -> [String] {
        var labels: [String] = []
        var rest = Substring(text)
        while let b = rest.range(of: "-----BEGIN ") {
            guard let e = rest.range(of: "-----", range: b.upperBound..<rest.endIndex) else { break }
            labels.append(String(rest[b.upperBound..<e.lowerBound]))
            rest = rest[e.upperBound...]
        }
        return labels
    }
}
