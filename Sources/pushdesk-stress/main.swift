// Test helper for the crash-safety suite (Tests/PushDeskCoreTests/Store/CrashSafetyTests.swift):
// saves two versions of one service alternately, forever or N times, through the real Store.
//   pushdesk-stress STORE_DIR [COUNT] [--fsize-limit BYTES]
// With --fsize-limit the process may not write files larger than BYTES (RLIMIT_FSIZE), so a
// save of the larger version fails in write(2) with EFBIG exactly like a full disk would.
import Foundation
import PushDeskCore

#if canImport(Glibc)
    import Glibc
#endif

var args = Array(CommandLine.arguments.dropFirst())
var limit: Int?
if let i = args.firstIndex(of: "--fsize-limit"), i + 1 < args.count {
    limit = Int(args[i + 1])
    args.removeSubrange(i...(i + 1))
}
guard let dir = args.first else {
    FileHandle.standardError.write(Data("usage: pushdesk-stress STORE_DIR [COUNT] [--fsize-limit BYTES]\n".utf8))
    exit(2)
}
let count = args.count > 1 ? Int(args[1]) ?? Int.max : Int.max
if let limit {
    signal(SIGXFSZ, SIG_IGN)  // get EFBIG from write(2) instead of being killed
    var rl = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
    setrlimit(Int32(RLIMIT_FSIZE.rawValue), &rl)
}
let store = Store(root: URL(fileURLWithPath: dir))
let small = StressVersions.small
let large = StressVersions.large
var failures = 0
var i = 0
while i < count {
    do { try store.save(i % 2 == 0 ? large : small) } catch { failures += 1 }
    i += 1
}
print("saves=\(count) failures=\(failures)")
