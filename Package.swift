// swift-tools-version:6.2
import PackageDescription

// Layers (see docs/ARCHITECTURE.md):
//   PushDeskCore  — model, XML store, rules, payloads, credentials. No terminal code.
//   CLibXML2      — system library: libxml2's parser, read by PushDeskCore/XML.
//   CNCurses      — system library: ncursesw plus a shim for the macros Swift cannot import.
//   CStopSignal   — C: the SIGHUP/SIGTERM/SIGINT flag the console loop polls.
//   PushDeskTUI   — the console: screen model, widgets, screens; draws through CNCurses.
//   pushdesk      — the command (swift-argument-parser); every subcommand calls PushDeskCore.
// Zero compiler warnings in PushDesk's own targets: every Swift target (and the C one) treats
// a warning as an error, so a new one fails `swift build` and `make test`. Dependencies are
// not affected (SwiftPM builds them with their warnings suppressed).
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "PushDesk",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "pushdesk", targets: ["pushdesk"]),
        .library(name: "PushDeskCore", targets: ["PushDeskCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Credentials (docs/DEPENDENCIES.md): X.509 parsing, P-256/RSA keys, SHA-256, DER.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // Sending (docs/DEPENDENCIES.md, docs/SENDING.md): HTTP/2 over TLS to APNs and FCM.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        // Themes/*.toml (docs/THEMES.md): comments, human-editable, no YAML indentation traps.
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .target(
            name: "PushDeskCore",
            dependencies: [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                "CLibXML2",
            ],
            path: "Sources/PushDeskCore",
            swiftSettings: strict
        ),
        // libxml2's SAX2 parser called directly (docs/PERFORMANCE.md): 5× less work than XMLParser.
        .systemLibrary(
            name: "CLibXML2",
            path: "Sources/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(
            name: "CNCurses",
            path: "Sources/CNCurses",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        // The stop-signal flag and handler (C: a signal handler must not run Swift code).
        .target(
            name: "CStopSignal",
            path: "Sources/CStopSignal",
            cSettings: [.treatAllWarnings(as: .error)]
        ),
        .target(
            name: "PushDeskTUI",
            dependencies: ["PushDeskCore", "CNCurses", "CStopSignal", .product(name: "TOMLKit", package: "TOMLKit")],
            path: "Sources/PushDeskTUI",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "pushdesk",
            dependencies: [
                "PushDeskCore",
                "PushDeskTUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/pushdesk",
            swiftSettings: strict
        ),
        // Benchmark, not shipped: `make bench` (release build) measures preview time and
        // the composer's key-to-frame time (in process).
        .executableTarget(
            name: "pushdesk-bench",
            dependencies: ["PushDeskCore", "PushDeskTUI"],
            path: "Sources/pushdesk-bench",
            swiftSettings: strict
        ),
        // Test helper: saves in a loop so the crash-safety suite can kill it mid-save.
        .executableTarget(
            name: "pushdesk-stress",
            dependencies: ["PushDeskCore"],
            path: "Sources/pushdesk-stress",
            swiftSettings: strict
        ),
        // Fuzzing (docs/RELIABILITY.md): the checks both the libFuzzer build (`scripts/fuzz`,
        // in .build-fuzz) and the corpus replay test run; the executable replays files here.
        .target(
            name: "PushDeskFuzzing",
            dependencies: ["PushDeskCore"],
            path: "Sources/PushDeskFuzzing",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "pushdesk-fuzz",
            dependencies: ["PushDeskFuzzing"],
            path: "Sources/pushdesk-fuzz",
            swiftSettings: strict
        ),
        // Test support, not shipped: the loopback APNs/FCM/Google-token mocks, the CONNECT
        // proxy and the test CA, shared by the core and console tests (docs/ARCHITECTURE.md).
        // Test support, not shipped: a constructor that seals the test process off from real
        // servers before any test runs (every endpoint and the proxy on a refused loopback port).
        .target(
            name: "PushDeskTestSeal",
            path: "Tests/PushDeskTestSeal"
        ),
        .target(
            name: "PushDeskTestSupport",
            dependencies: [
                "PushDeskCore",
                "PushDeskTestSeal",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ],
            path: "Tests/PushDeskTestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "PushDeskCoreTests",
            dependencies: [
                "PushDeskCore",
                "PushDeskFuzzing",
                "PushDeskTestSupport",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ],
            path: "Tests/PushDeskCoreTests",
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PushDeskTUITests",
            dependencies: ["PushDeskTUI", "PushDeskCore", "CStopSignal", "PushDeskTestSupport"],
            path: "Tests/PushDeskTUITests",
            exclude: ["GoldenScreens"],
            swiftSettings: strict
        ),
    ]
)
