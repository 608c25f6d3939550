import Foundation
import PushDeskCore

/// `--channel ID|LABEL` of `preview` and `send` (docs/SENDING.md): the `--app` iOS app and its
/// channel, for a delivery with a Live Activity. Anything else is a usage error (exit 2).
func broadcastChannel(_ idOrLabel: String, app: String?, service: Service, delivery: Delivery, token: String?)
    throws -> (IOSApp, BroadcastChannel)
{
    guard let app else {
        printError("error: --channel needs --app KEY: the iOS app whose channel it is")
        throw Exit.usageOrIO
    }
    guard token == nil else {
        printError("error: --channel broadcasts to the channel's subscribers; it takes no --token")
        throw Exit.usageOrIO
    }
    guard case .ios(let ios)? = service.app(integrationKey: app) else {
        printError(
            "error: \(Escape.inline(app)) is not an iOS app of service \(Escape.inline(service.name)); channels belong to iOS apps"
        )
        throw Exit.usageOrIO
    }
    guard let channel = BroadcastRequest.channel(idOrLabel, of: ios) else {
        let known = ios.channels.map { Escape.inline($0.label.isEmpty ? $0.id : $0.label) }.joined(separator: ", ")
        printError(
            "error: \(Escape.inline(ios.label)) has no channel with id or label \"\(Escape.inline(idOrLabel))\"\(known.isEmpty ? "; create one with pushdesk channels create" : "; its channels: \(known)")"
        )
        throw Exit.usageOrIO
    }
    guard delivery.ios.effectiveType == .liveactivity, delivery.liveActivity != nil else {
        printError(
            "error: delivery \(Escape.inline(delivery.name)) is no Live Activity (iOS type liveactivity with a <liveActivity>); channels carry Live Activity updates and ends only"
        )
        throw Exit.usageOrIO
    }
    return (ios, channel)
}
