import Foundation
import PushDeskCore

// Benchmarks, not tests (docs/PERFORMANCE.md). `make bench` builds in release and runs
// scripts/bench, which calls these modes:
//
//   pushdesk-bench preview [--runs N]          per-preview time (docs/PAYLOADS.md)
//   pushdesk-bench composer [--runs N]         the composer's key-to-frame time in process
//                                              (ComposerBench.swift)
//   pushdesk-bench generate DIR [--services N] [--deliveries M] [--bare]
//                                              writes the large store into DIR (--bare:
//                                              services without apps, one warning each)
//   pushdesk-bench add-4kb STORE               writes the `bench-4kb` delivery (payload near
//                                              4 KB, sorts first) into STORE
//   pushdesk-bench add-live STORE              writes the `bench-live` delivery (a Live
//                                              Activity, 3 KB content state) into STORE
//   pushdesk-bench add-languages STORE         writes the `bench-languages` delivery (50
//                                              variants of about 3 KB) into STORE
//   pushdesk-bench phases STORE [--runs N]     validate's CPU time phase by phase
//   pushdesk-bench typing STORE [--runs N]     a key in the service editor and the composer,
//                                              handle + render, in process
//   pushdesk-bench save STORE [--runs N]       saves its first service N times through
//                                              Store.save (atomic write + fsync); prints µs

func usage() -> Never {
    FileHandle.standardError.write(
        Data(
            """
            usage: pushdesk-bench preview [--runs N]
                   pushdesk-bench composer [--runs N]
                   pushdesk-bench generate DIR [--services N] [--deliveries M] [--bare]
                   pushdesk-bench add-4kb STORE
                   pushdesk-bench add-live STORE
                   pushdesk-bench add-languages STORE
                   pushdesk-bench phases STORE [--runs N]
                   pushdesk-bench typing STORE [--runs N]
                   pushdesk-bench save STORE [--runs N]

            """.utf8))
    exit(2)
}

let args = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> Int? {
    args.firstIndex(of: name).flatMap { i in i + 1 < args.count ? Int(args[i + 1]) : nil }
}

switch args.first ?? "preview" {
case "preview":
    PreviewBench.run(runs: option("--runs") ?? 5000)
case "composer":
    ComposerBench.run(runs: option("--runs") ?? 2000)
case "generate":
    guard args.count >= 2, !args[1].hasPrefix("-") else { usage() }
    let dir = URL(fileURLWithPath: args[1])
    if FileManager.default.fileExists(atPath: dir.appendingPathComponent("services").path) {
        FileHandle.standardError.write(
            Data("pushdesk-bench: \(dir.path) already holds a store; give an empty or new directory\n".utf8))
        exit(2)
    }
    do {
        try LargeStore.generate(
            into: dir, services: option("--services") ?? LargeStore.services,
            deliveries: option("--deliveries") ?? LargeStore.deliveries, bare: args.contains("--bare"))
    } catch {
        FileHandle.standardError.write(Data("pushdesk-bench: \(error)\n".utf8))
        exit(2)
    }
case "add-4kb":
    guard args.count >= 2, !args[1].hasPrefix("-") else { usage() }
    do {
        let (d, bytes) = try ComposerBench.writeFourKB(into: Store(root: URL(fileURLWithPath: args[1])))
        print("\(Delivery.path(d.name)): service \(d.service), largest payload \(bytes) bytes")
    } catch {
        FileHandle.standardError.write(Data("pushdesk-bench: \(error)\n".utf8))
        exit(2)
    }
case "add-live":
    guard args.count >= 2, !args[1].hasPrefix("-") else { usage() }
    do {
        let (d, bytes) = try ComposerBench.writeLiveActivity(into: Store(root: URL(fileURLWithPath: args[1])))
        print(
            "\(Delivery.path(d.name)): service \(d.service), content state \(d.liveActivity?.contentState.utf8.count ?? 0) bytes, payload \(bytes) bytes"
        )
    } catch {
        FileHandle.standardError.write(Data("pushdesk-bench: \(error)\n".utf8))
        exit(2)
    }
case "add-languages":
    guard args.count >= 2, !args[1].hasPrefix("-") else { usage() }
    do {
        let (d, bytes) = try LanguagesBench.write(into: Store(root: URL(fileURLWithPath: args[1])))
        print(
            "\(Delivery.path(d.name)): service \(d.service), \(d.variants.count) variants, largest payload \(bytes) bytes"
        )
    } catch {
        FileHandle.standardError.write(Data("pushdesk-bench: \(error)\n".utf8))
        exit(2)
    }
case "typing":
    guard args.count >= 2, !args[1].hasPrefix("-") else { usage() }
    TypingBench.run(store: URL(fileURLWithPath: args[1]), runs: option("--runs") ?? 200)
case "phases":
    guard args.count >= 2, !args[1].hasPrefix("-") else { usage() }
    ValidatePhases.run(store: URL(fileURLWithPath: args[1]), runs: option("--runs") ?? 5)
case "save":
    guard args.count >= 2, !args[1].hasPrefix("-") else { usage() }
    do {
        for micros in try SaveBench.run(store: URL(fileURLWithPath: args[1]), runs: option("--runs") ?? 30) {
            print(String(format: "%.1f", micros))
        }
    } catch {
        FileHandle.standardError.write(Data("pushdesk-bench: \(error)\n".utf8))
        exit(2)
    }
default:
    usage()
}
