import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Temp files a killed save leaves behind (`.NAME.tmp-PID-RANDOM`, written by AtomicFile and
/// SecretStore). They are never read as records, but they pile up; the console removes them
/// when it opens the store holding its lock — so no other PushDesk process can be mid-save —
/// and then only those whose writer is gone or that are older than `maxAge`.
public enum StaleTempFiles {
    public static let folders =
        RecordKind.allCases.map(\.folder) + ["secrets", RecoveryStore.relativeDirectory]

    /// The writer's pid in a temp file name, nil when the name is not one of ours.
    public static func writerPid(_ fileName: String) -> Int32? {
        guard fileName.hasPrefix("."), let r = fileName.range(of: ".tmp-", options: .backwards) else { return nil }
        let parts = fileName[r.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            r.lowerBound > fileName.index(after: fileName.startIndex)
        else { return nil }
        return Int32(parts[0])
    }

    /// Removes stale temp files; returns their store-relative paths.
    @discardableResult
    public static func clean(
        storeRoot: URL, now: Date = Date(), maxAge: TimeInterval = 600,
        isAlive: (Int32) -> Bool = ProcessIdentity.isAlive
    ) -> [String] {
        var removed: [String] = []
        for folder in folders {
            let dir = storeRoot.appendingPathComponent(folder)
            for name in ((try? SafeFile.entryNames(dir.path)) ?? []).sorted() {
                guard let pid = writerPid(name) else { continue }
                let path = dir.appendingPathComponent(name).path
                var st = stat()
                // lstat: a symbolic link is never followed, and never ours.
                guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
                let age = now.timeIntervalSince1970 - TimeInterval(st.st_mtim.tv_sec)
                guard !isAlive(pid) || age > maxAge else { continue }
                if unlink(path) == 0 { removed.append("\(folder)/\(name)") }
            }
        }
        return removed
    }
}
