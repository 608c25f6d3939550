import Foundation

/// Writing a sheet to a file, shared by `pushdesk handoff -o` and the console's
/// "Hand-off sheet" action: atomic, so a reader never sees half a sheet.
public enum HandoffExport {
    /// Renders the sheet of `service` (one app when `appKey` is given) and writes it to `url`.
    public static func write(service: Service, appKey: String? = nil, format: HandoffFormat, to url: URL) throws {
        let sheet = try HandoffSheet(service: service, appKey: appKey)
        try AtomicFile.write(Array(sheet.rendered(as: format).utf8), to: url)
    }
}
