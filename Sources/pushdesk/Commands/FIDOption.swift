import ArgumentParser
import PushDeskCore

/// `--fid FID` of `preview` and `send` (docs/SENDING.md): a Firebase installation ID of the
/// `--app` Android app, targeted as `message.fid`.
enum FIDOption {
    /// Usage errors, before any file is read: the FID's form, and the options it goes with.
    static func validate(_ fid: String?, token: String?, app: String?) throws {
        guard let fid else { return }
        if token != nil { throw ValidationError("give --token T or --fid FID, not both") }
        if app == nil {
            throw ValidationError("--fid goes with --app KEY (the Android app the installation belongs to)")
        }
        if let problem = ProfileRules.fidProblem(fid) { throw ValidationError("--fid: " + problem) }
    }

    /// The app `--fid` names must be an Android app.
    static func check(_ fid: String?, app: String?, service: Service) throws {
        guard fid != nil, let app, let a = service.app(integrationKey: app), a.platform == .ios else { return }
        throw ValidationError(
            "--fid: \(Escape.inline(app)) is an iOS app; an installation ID (FID) belongs to an Android app (use --token for an APNs token)"
        )
    }
}
