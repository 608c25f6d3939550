// swift-tools-version:6.0
import PackageDescription

// Layers (see docs/ARCHITECTURE.md):
//   PushDeskCore  — model, XML store, rules, payloads, credentials. No terminal code.
//   CNCurses      — system library: ncursesw plus a shim for the macros Swift cannot import.
//   PushDeskTUI   — the console: screen model, widgets, screens; draws through CNCurses.
//   pushdesk      — the command (swift-argument-parser); every subcommand calls PushDeskCore.
let package = Package(
    name: "PushDesk",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "pushdesk", targets: ["pushdesk"]),
        .library(name: "PushDeskCore", targets: ["PushDeskCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "PushDeskCore",
            dependencies: [],
            path: "Sources/PushDeskCore"
        ),
        .systemLibrary(
            name: "CNCurses",
            path: "Sources/CNCurses",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        .target(
            name: "PushDeskTUI",
            dependencies: ["PushDeskCore", "CNCurses"],
            path: "Sources/PushDeskTUI"
        ),
        .executableTarget(
            name: "pushdesk",
            dependencies: [
                "PushDeskCore",
                "PushDeskTUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/pushdesk"
        ),
        // Test helper: saves in a loop so the crash-safety suite can kill it mid-save.
        .executableTarget(
            name: "pushdesk-stress",
            dependencies: ["PushDeskCore"],
            path: "Sources/pushdesk-stress"
        ),
        .testTarget(
            name: "PushDeskCoreTests",
            dependencies: ["PushDeskCore"],
            path: "Tests/PushDeskCoreTests",
            resources: [.copy("Fixtures")]
        ),
    ]
)
