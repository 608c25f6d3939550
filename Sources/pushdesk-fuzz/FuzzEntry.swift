import Foundation
import PushDeskFuzzing

// Two builds of one file (docs/RELIABILITY.md):
// - `scripts/fuzz` builds it with `--sanitize=fuzzer -DPUSHDESK_LIBFUZZER` into .build-fuzz:
//   libFuzzer supplies `main` and calls `LLVMFuzzerTestOneInput` with each input;
// - `swift build` builds the replay tool below: `pushdesk-fuzz xml|payload FILE|DIR…`
//   runs the same checks on saved inputs (a crash found by the fuzzer, a corpus).

/// The target chosen once per process (`PUSHDESK_FUZZ_TARGET`, default xml).
let selectedTarget = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["PUSHDESK_FUZZ_TARGET"] ?? "xml") ?? .xml

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Data(bytes: $0, count: size) } ?? Data()
    let problems = selectedTarget.check(input)
    if !problems.isEmpty {
        // A broken promise is a crash to libFuzzer: it saves the input as an artifact.
        FileHandle.standardError.write(Data("pushdesk-fuzz (\(selectedTarget.rawValue)): \(problems)\n".utf8))
        abort()
    }
    return 0
}

#if !PUSHDESK_LIBFUZZER
    @main
    enum ReplayTool {
        static func main() {
            let args = Array(CommandLine.arguments.dropFirst())
            guard let first = args.first, let target = FuzzTarget(rawValue: first), args.count > 1 else {
                FileHandle.standardError.write(
                    Data(
                        "usage: pushdesk-fuzz xml|payload FILE|DIR…  (replays saved fuzz inputs; scripts/fuzz fuzzes)\n"
                            .utf8))
                exit(2)
            }
            var files: [String] = []
            for path in args.dropFirst() {
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
                    FileHandle.standardError.write(Data("\(path): error: no such file\n".utf8))
                    exit(2)
                }
                if isDir.boolValue {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                    files += names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
                } else {
                    files.append(path)
                }
            }
            var failed = 0
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                let problems = target.check(data)
                if !problems.isEmpty {
                    failed += 1
                    print("\(file): \(problems)")
                }
            }
            print("\(target.rawValue): \(files.count) inputs, \(failed) broke a promise")
            exit(failed == 0 ? 0 : 1)
        }
    }
#endif
