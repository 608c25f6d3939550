import Foundation

/// Processing instructions (`<?target data?>`) have no place in PushDesk files, and one
/// without data (`<?note?>`, a broken `<?xml?>`) crashes Foundation's XMLParser on Linux
/// (it calls strlen on libxml2's NULL data pointer): found by the XML fuzzer. So the byte
/// scan refuses every `<?` except the XML declaration at the very start (after a BOM), before
/// any parser sees the file, whichever parser that is. Comments and CDATA are not exempt:
/// libxml2 recovers from a broken comment and then parses a `<?` inside it (found by the
/// fuzzer too), and PushDesk never writes `<?` anywhere but the declaration.
extension SourceScan {
    /// Offset and message of the first processing instruction, or of a malformed or
    /// misplaced XML declaration.
    func processingInstructionProblem() -> (offset: Int, message: String)? {
        let bytes = text.bytes
        let n = bytes.count
        let declaration = Array("<?xml".utf8)
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // `?` is rare in a record (a URL's query at most): memchr finds each, and only a `?`
        // right after `<` is looked at (a byte loop over every byte was 3% of a merge).
        return bytes.withUnsafeBufferPointer { b -> (offset: Int, message: String)? in
            guard n >= 2, let base = b.baseAddress else { return nil }
            var j = 1
            while j < n, let p = memchr(base + j, 0x3F, n - j) {
                let q = UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self) - base
                j = q + 1
                guard base[q - 1] == 0x3C else { continue }
                let i = q - 1
                if i == start, matches(declaration, at: i) {
                    // `<?xml` then white space: a declaration (libxml2 checks its content).
                    let k = i + declaration.count
                    if k < n, [0x20, 0x09, 0x0A, 0x0D].contains(base[k]) {
                        j = k
                        continue
                    }
                    return (
                        i,
                        "the XML declaration is malformed; the first line should be <?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                    )
                }
                if matches(declaration, at: i) {
                    return (
                        i,
                        "an XML declaration (<?xml …?>) may only stand at the very start of the file; remove this one"
                    )
                }
                return (
                    i,
                    "a processing instruction (<?…?>) is not part of a PushDesk file; remove it (in text, write < as &lt;)"
                )
            }
            return nil
        }
    }
}
