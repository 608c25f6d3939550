import Foundation

/// Reads and checks the credentials of every app of a service. Used by
/// `pushdesk credentials check`, `pushdesk validate` and the console's Credentials tab.
public enum CredentialChecker {
    public static func check(service: Service, storeRoot: URL, now: Date) -> [CredentialReport] {
        check(
            service: service, storeRoot: storeRoot, now: now,
            environment: ProcessEnvironment.read(), pkcs12: PKCS12Reader())
    }

    /// `environment` resolves `env:` secret references; `pkcs12` finds openssl.
    public static func check(
        service: Service, storeRoot: URL, now: Date, environment: [String: String],
        pkcs12: PKCS12Reader
    ) -> [CredentialReport] {
        let ctx = Context(
            service: service, storeRoot: storeRoot, now: now,
            secrets: SecretStore(storeRoot: storeRoot, environment: environment), pkcs12: pkcs12)
        var reports = service.apps.enumerated().map { i, app -> CredentialReport in
            switch app {
            case .ios(let a): ctx.check(a, index: i)
            case .android(let a): ctx.check(a, index: i)
            }
        }
        sharedCertificates(&reports)
        return reports
    }

    /// Every credential finding of a store, positioned, for `pushdesk validate`. Leaves out
    /// `fcm.legacy-api`, which ServiceRules already reports for `api="legacy"`.
    public static func findings(_ snapshot: StoreSnapshot, storeRoot: URL, now: Date) -> [Finding] {
        let all = snapshot.services.flatMap { check(service: $0, storeRoot: storeRoot, now: now) }.flatMap(\.findings)
        return snapshot.positioned(all.filter { $0.rule != CredentialRules.fcmLegacyAPI.id })
    }

    /// `certificate.shared` (docs/RULES.md): the sandbox and production apps use the same certificate.
    static func sharedCertificates(_ reports: inout [CredentialReport]) {
        for i in reports.indices {
            guard let fp = reports[i].certificate?.sha256Fingerprint, let env = reports[i].environment else { continue }
            let others = reports.indices.filter {
                $0 != i && reports[$0].environment != nil && reports[$0].environment != env
                    && reports[$0].certificate?.sha256Fingerprint == fp
            }
            guard let other = others.first else { continue }
            let place = CredentialRules.Place(
                file: Service.path(reports[i].service),
                field: FieldPath.app(reports[i].index).appending("auth", "certificateFile"))
            reports[i].findings.append(
                place.finding(
                    CredentialRules.certificateShared,
                    "the \(env.rawValue) app uses the same certificate (SHA-256 \(fp.prefix(23))…) as \(reports[other].app); give sandbox and production each their own certificate"
                ))
        }
    }

    struct Context {
        let service: Service
        let storeRoot: URL
        let now: Date
        let secrets: SecretStore
        let pkcs12: PKCS12Reader

        /// Fields as ServiceRules names them (`apps[2].auth.keyFile`), so that
        /// `StoreSnapshot.positioned` finds their line:column.
        func place(_ index: Int, _ field: FieldPath) -> CredentialRules.Place {
            CredentialRules.Place(file: Service.path(service.name), field: FieldPath.app(index).appending(field))
        }

        /// Paths in attributes are relative to the store unless absolute (docs/FORMATS.md).
        func resolve(_ path: String) -> URL {
            path.hasPrefix("/") ? URL(fileURLWithPath: path) : storeRoot.appendingPathComponent(path)
        }

        func check(_ app: IOSApp, index: Int) -> CredentialReport {
            var r = CredentialReport(
                service: service.name, app: app.integrationKey, label: app.label,
                platform: .ios, environment: app.environment, kind: .none, index: index)
            switch app.auth {
            case nil:
                break  // ServiceRules reports auth.missing
            case .certificate(let file, let passwordRef):
                r.kind = .certificate
                checkCertificate(app, index: index, file: file, passwordRef: passwordRef, into: &r)
            case .token(let keyId, let teamId, let keyFile, _, _):
                r.kind = .token
                checkToken(app, index: index, keyId: keyId, teamId: teamId, keyFile: keyFile, into: &r)
            }
            return r
        }

        func checkCertificate(
            _ app: IOSApp, index: Int, file: String, passwordRef: String, into r: inout CredentialReport
        ) {
            let at = place(index, "auth.certificateFile")
            r.details.append(CredentialDetail("file", "File", file))
            if !passwordRef.isEmpty {
                r.details.append(CredentialDetail("passwordRef", "Password", "secret \(passwordRef)"))
            }
            var passwordFailed = false
            if !passwordRef.isEmpty {
                checkSecret(passwordRef, at: place(index, "auth.passwordRef"), into: &r)
                passwordFailed = !secrets.exists(passwordRef)
            }
            let url = resolve(file)
            if let data = try? SafeFile.readFile(url.path, maxBytes: 1 << 20, shownAs: file),
                CertificateFile.holdsPrivateKey(data),
                let mode = FileMode.of(url.path)
            {
                r.findings += CredentialRules.permissions(path: file, mode: mode, at: at)
            }
            do {
                let (info, format) = try CertificateFile.read(
                    file: url, shownAs: file,
                    password: {
                        if passwordRef.isEmpty { return SecretValue("") }
                        return try secrets.read(passwordRef)
                    }, reader: pkcs12)
                r.certificate = info
                r.details.append(CredentialDetail("format", "Format", format.rawValue))
                r.details.append(CredentialDetail("subject", "Subject", info.subject))
                r.details.append(CredentialDetail("issuer", "Issuer", info.issuer))
                r.details.append(CredentialDetail("serial", "Serial", info.serial))
                r.details.append(CredentialDetail("sha256", "SHA-256", info.sha256Fingerprint))
                r.details.append(
                    CredentialDetail("notBefore", "Not before", ISOTime.string(info.notValidBefore)))
                r.details.append(CredentialDetail("notAfter", "Not after", ISOTime.string(info.notValidAfter)))
                r.details.append(CredentialDetail("topics", "Topics", info.topics.joined(separator: ", ")))
                r.details.append(pushTypes(bundleId: app.bundleId, topics: info.topics))
                r.details.append(CredentialDetail("pushEnvironment", "Environment", info.environment.label))
                r.findings += CredentialRules.validity(info, now: now, at: at)
                r.findings += CredentialRules.topic(info, bundleId: app.bundleId, at: place(index, "bundleId"))
                r.findings += CredentialRules.environment(info, app: app.environment, at: at)
            } catch let f as CertificateFile.Failure {
                switch f {
                case .wrongPassword:
                    let message =
                        passwordRef.isEmpty
                        ? "\(file) needs a password: store it with `pushdesk credentials set-secret NAME` and set passwordRef=\"NAME\""
                        : "the password in secret \(passwordRef) does not open \(file); set the right one with `pushdesk credentials set-secret \(passwordRef)`"
                    r.findings.append(
                        place(index, "auth.passwordRef").finding(
                            CredentialRules.certificatePassword, message))
                default:
                    r.findings.append(at.finding(CredentialRules.certificateUnreadable, f.description))
                }
            } catch {
                // The password secret is missing: already reported as secret.missing.
                if !passwordFailed {
                    r.findings.append(
                        at.finding(CredentialRules.certificateUnreadable, "\(file) cannot be read"))
                }
            }
        }

        func checkToken(
            _ app: IOSApp, index: Int, keyId: String, teamId: String, keyFile: String, into r: inout CredentialReport
        ) {
            r.details.append(CredentialDetail("keyId", "Key ID", keyId))
            r.details.append(CredentialDetail("teamId", "Team ID", teamId))
            r.details.append(CredentialDetail("file", "Key file", keyFile))
            // A scoped key's scope (docs/CREDENTIALS.md); a team key for both environments adds nothing.
            if case .token(_, _, _, let env, let topics)? = app.auth {
                if !env.isEmpty { r.details.append(CredentialDetail("keyEnvironment", "Key environment", env)) }
                if !topics.isEmpty { r.details.append(CredentialDetail("keyTopics", "Key topics", topics)) }
            }
            r.details.append(pushTypes(bundleId: app.bundleId, topics: nil))
            r.findings += CredentialRules.keyScope(app, file: Service.path(service.name), index: index)
            r.findings += CredentialRules.tokenIDs(
                keyId: keyId, teamId: teamId,
                keyIdAt: place(index, "auth.keyId"),
                teamIdAt: place(index, "auth.teamId"))
            let at = place(index, "auth.keyFile")
            let url = resolve(keyFile)
            if let mode = FileMode.of(url.path) {
                r.findings += CredentialRules.permissions(path: keyFile, mode: mode, at: at)
            }
            do {
                let authKey = try APNsAuthKey.load(file: url, shownAs: keyFile)
                r.details.append(
                    CredentialDetail("publicKeySha256", "Public key SHA-256", authKey.publicKeyFingerprint))
                let token = try APNsProviderToken(keyId: keyId, teamId: teamId, key: authKey, issuedAt: now)
                r.details.append(CredentialDetail("authorization", "authorization", token.redacted))
            } catch let f as APNsAuthKey.Failure {
                let message = if case .fileNotFound = f { f.description } else { "\(keyFile): \(f.description)" }
                r.findings.append(at.finding(CredentialRules.tokenKey, message))
            } catch {
                r.findings.append(
                    at.finding(CredentialRules.tokenKey, "\(keyFile): the key cannot sign a token"))
            }
        }

        /// Which push types (docs/PAYLOADS.md) the credential can send, and why not the others: token
        /// auth sends every type; a certificate those whose topic it lists and that take it.
        func pushTypes(bundleId: String, topics: [String]?) -> CredentialDetail {
            let (can, cannot) = DeliveryRules.pushTypes(bundleId: bundleId, topics: topics)
            var text = can.map(\.name).joined(separator: ", ")
            if topics == nil { text += " (token auth sends every type)" }
            if !cannot.isEmpty {
                text += "; not " + cannot.map { "\($0.0.name) (\($0.1))" }.joined(separator: ", ")
            }
            return CredentialDetail("pushTypes", "Push types", text)
        }

        func check(_ app: AndroidApp, index: Int) -> CredentialReport {
            var r = CredentialReport(
                service: service.name, app: app.integrationKey, label: app.label,
                platform: .android, environment: nil, kind: .none, index: index)
            switch app.auth {
            case nil:
                break  // ServiceRules reports auth.missing
            case .serverKey(let ref):
                r.kind = .serverKey
                r.details.append(CredentialDetail("serverKeyRef", "Server key", "secret \(ref)"))
                checkSecret(ref, at: place(index, "auth.serverKeyRef"), into: &r)
                r.findings.append(
                    place(index, "auth").finding(
                        CredentialRules.fcmLegacyAPI,
                        "a legacy FCM server key: Google shut the legacy HTTP API down in 2024; move the app to FCM HTTP v1 with a service-account key"
                    ))
            case .serviceAccount(let projectId, let clientEmail, let keyFile):
                r.kind = .serviceAccount
                r.details.append(CredentialDetail("file", "Key file", keyFile))
                let at = place(index, "auth.keyFile")
                let url = resolve(keyFile)
                if let mode = FileMode.of(url.path) {
                    r.findings += CredentialRules.permissions(path: keyFile, mode: mode, at: at)
                }
                do {
                    let account = try ServiceAccount.load(file: url, shownAs: keyFile)
                    if let v = account.type { r.details.append(CredentialDetail("type", "Type", v)) }
                    if let v = account.projectId { r.details.append(CredentialDetail("projectId", "Project", v)) }
                    if let v = account.clientEmail {
                        r.details.append(CredentialDetail("clientEmail", "Client email", v))
                    }
                    if let v = account.privateKeyId {
                        r.details.append(CredentialDetail("privateKeyId", "Private key id", v))
                    }
                    if let bits = account.keyBits {
                        r.details.append(CredentialDetail("keyBits", "Key", "RSA \(bits) bits"))
                    }
                    if let fp = account.publicKeyFingerprint {
                        r.details.append(CredentialDetail("publicKeySha256", "Public key SHA-256", fp))
                    }
                    r.findings += CredentialRules.serviceAccount(
                        account, projectId: projectId, clientEmail: clientEmail, at: at,
                        projectIdAt: place(index, "auth.projectId"),
                        clientEmailAt: place(index, "auth.clientEmail"))
                } catch {
                    let message =
                        switch error as? ServiceAccount.Failure {
                        case .fileNotFound(let path)?: "file not found: \(path)"
                        case let f?: "\(keyFile): \(f.description)"
                        case nil: "\(keyFile) cannot be read"
                        }
                    r.findings.append(at.finding(CredentialRules.serviceAccountUnreadable, message))
                }
            }
            return r
        }

        /// `secret.missing` when the reference resolves to nothing; `secret.permissions` when
        /// the secret's file or the secrets directory is open to group or others.
        func checkSecret(_ ref: String, at p: CredentialRules.Place, into r: inout CredentialReport) {
            do {
                _ = try secrets.read(ref)
            } catch {
                r.findings.append(
                    p.finding(
                        CredentialRules.secretMissing,
                        (error as? SecretError)?.message ?? "secret \(ref) cannot be read"))
                return
            }
            guard case .file(let name)? = SecretRef(ref) else { return }
            if let mode = FileMode.of(secrets.directory.path) {
                r.findings += CredentialRules.permissions(path: SecretStore.directoryName + "/", mode: mode, at: p)
            }
            if let mode = FileMode.of(secrets.directory.appendingPathComponent(name).path) {
                r.findings += CredentialRules.permissions(path: SecretStore.relativePath(name), mode: mode, at: p)
            }
        }
    }
}
