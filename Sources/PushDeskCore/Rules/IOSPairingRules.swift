/// iOS apps come as a sandbox + production pair with distinct keys and one bundle id.
enum IOSPairingRules {
    typealias R = ServiceRules

    static let check = RuleCheck<Service>([R.iosPairDuplicate, R.iosPairMissing, R.iosPairBundle]) { s, out in
        let ios = s.apps.enumerated().compactMap { (i, app) -> (Int, IOSApp)? in
            if case .ios(let a) = app { return (i, a) } else { return nil }
        }
        guard !ios.isEmpty else { return }
        let file = Service.path(s.name)
        for env in IOSEnvironment.allCases {
            let count = ios.filter { $0.1.environment == env }.count
            if count == 0 {
                let other = env == .sandbox ? "production" : "sandbox"
                out.append(
                    R.iosPairMissing.finding(
                        "the iOS app has a \(other) version but no \(env.rawValue) one; iOS apps come as a sandbox + production pair",
                        file: file, field: FieldPath.app(ios[0].0).appending("environment")))
            } else if count > 1 {
                let second = ios.filter { $0.1.environment == env }[1]
                out.append(
                    R.iosPairDuplicate.finding(
                        "the service has \(count) \(env.rawValue) iOS apps; keep one sandbox and one production app",
                        file: file, field: FieldPath.app(second.0).appending("environment")))
            }
        }
        if let sb = ios.first(where: { $0.1.environment == .sandbox }),
            let pr = ios.first(where: { $0.1.environment == .production }),
            !sb.1.bundleId.isEmpty, !pr.1.bundleId.isEmpty, sb.1.bundleId != pr.1.bundleId
        {
            out.append(
                R.iosPairBundle.finding(
                    "the sandbox app's bundle id \(Escape.inline(sb.1.bundleId)) differs from the production app's \(Escape.inline(pr.1.bundleId)); a pair is one app",
                    file: file, field: FieldPath.app(pr.0).appending("bundleId")))
        }
    }
}
