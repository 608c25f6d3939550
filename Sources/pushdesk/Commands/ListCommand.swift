import ArgumentParser
import Foundation
import PushDeskCore

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List services, their apps and integration keys, and deliveries.")

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let snapshot = try storeOptions.openStore().loadAll(readOnly: true)  // it saves nothing
        if json {
            print(document(snapshot).pretty)
        } else {
            for s in snapshot.services {
                print("\(Escape.inline(s.name))  \(Escape.inline(s.label))")
                for app in s.apps {
                    let kind: String
                    switch app {
                    case .ios(let a): kind = "ios/\(a.environment.rawValue)"
                    case .android(let a): kind = "android/\(a.api.rawValue)"
                    }
                    print(
                        "  \(kind.padding(toLength: 18, withPad: " ", startingAt: 0)) \(Escape.inline(app.integrationKey).padding(toLength: 24, withPad: " ", startingAt: 0)) \(Escape.inline(app.label))"
                    )
                }
            }
            if !snapshot.deliveries.isEmpty {
                print("deliveries:")
                for d in snapshot.deliveries {
                    print(
                        "  \(Escape.inline(d.name).padding(toLength: 24, withPad: " ", startingAt: 0)) \(Escape.inline(d.service).padding(toLength: 16, withPad: " ", startingAt: 0)) \(Escape.inline(d.label))"
                    )
                }
            }
            let withDevices = snapshot.profiles.filter { !$0.subscriptions.isEmpty }
            if !withDevices.isEmpty {
                print("test devices:")
                for p in withDevices {
                    print("  \(Escape.inline(p.name))")
                    for s in p.subscriptions {
                        // Shortened (docs/FORMATS.md): the full token is in the file and in --json.
                        print(
                            "    \(Escape.inline(s.app).padding(toLength: 24, withPad: " ", startingAt: 0)) \(Escape.inline(s.shortToken).padding(toLength: 12, withPad: " ", startingAt: 0)) \(s.kind.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) \(Escape.inline(s.label ?? ""))"
                        )
                    }
                }
            }
        }
        for e in snapshot.errors { printError(e.description) }
        if !snapshot.errors.isEmpty { throw Exit.inputErrors }
    }

    private func document(_ snap: StoreSnapshot) -> JSONValue {
        .object([
            (
                "services",
                .array(
                    snap.services.map { s in
                        .object([
                            ("name", .string(s.name)), ("label", .string(s.label)),
                            (
                                "apps",
                                .array(
                                    s.apps.map { app in
                                        var m: [(String, JSONValue)] = [
                                            ("integrationKey", .string(app.integrationKey)),
                                            ("label", .string(app.label)),
                                            ("platform", .string(app.platform.rawValue)),
                                        ]
                                        switch app {
                                        case .ios(let a): m.append(("environment", .string(a.environment.rawValue)))
                                        case .android(let a): m.append(("api", .string(a.api.rawValue)))
                                        }
                                        return .object(m)
                                    })
                            ),
                        ])
                    })
            ),
            (
                "deliveries",
                .array(
                    snap.deliveries.map { d in
                        .object([
                            ("name", .string(d.name)), ("label", .string(d.label)), ("service", .string(d.service)),
                        ])
                    })
            ),
            (
                "profiles",
                .array(
                    snap.profiles.map { p in
                        .object([
                            ("name", .string(p.name)),
                            (
                                "subscriptions",
                                .array(
                                    p.subscriptions.map { s in
                                        .object([
                                            ("app", .string(s.app)), ("token", .string(s.token)),
                                            ("userKey", s.userKey.map(JSONValue.string) ?? .null),
                                            ("label", s.label.map(JSONValue.string) ?? .null),
                                            ("kind", .string(s.kind.rawValue)),
                                            // As written: `validate` reports one that is no tag.
                                            ("locale", s.locale.map(JSONValue.string) ?? .null),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
            ("errors", .array(snap.errors.map { .string($0.description) })),
        ])
    }
}
