import Foundation

extension URL {
    /// A file URL's path as `path` gives it: percent escapes decoded, no trailing slash.
    /// `path` builds a `Set<UInt8>` from its mangled name the first time a process calls
    /// it, and finding `UInt8: Hashable` for it scans every conformance record of the static
    /// binary (0.5 M instructions). The start of the console reads its store's paths this
    /// way, so that scan is not part of the first frame (docs/PERFORMANCE.md).
    public var plainPath: String {
        var p = path(percentEncoded: false)
        while p.utf8.count > 1, p.utf8.last == UInt8(ascii: "/") { p.removeLast() }
        return p
    }

    /// `standardizedFileURL.path` (`.` and `..` resolved, empty components dropped), without
    /// the scan that `standardizedFileURL` pays as `path` does.
    public var standardizedPlainPath: String {
        var parts: [String] = []
        for c in plainPath.split(separator: "/") {
            if c == "." { continue }
            if c == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(String(c))
        }
        if parts.isEmpty { return "/" }
        var s = ""
        for c in parts {
            s += "/"
            s += c
        }
        return s
    }
}
