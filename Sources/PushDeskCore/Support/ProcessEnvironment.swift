#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process environment as a dictionary, read from `environ` (a name defined twice keeps
/// its first value, as `getenv` gives): the one way PushDesk reads it. Foundation's
/// `ProcessInfo.environment` cost about ten times as much, a visible part of the console's
/// first frame (docs/PERFORMANCE.md).
public enum ProcessEnvironment {
    public static func read() -> [String: String] {
        var env: [String: String] = [:]
        let start: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard var p = start else { return env }
        while let entry = p.pointee {
            // `NAME=value` as bytes: no intermediate string, no grapheme breaking.
            if let eq = strchr(entry, 0x3D) {
                let name = UnsafeRawBufferPointer(start: entry, count: eq - entry)
                let key = String(decoding: name, as: UTF8.self)
                if env[key] == nil { env[key] = String(cString: eq + 1) }
            }
            p += 1
        }
        return env
    }
}
