import Foundation

/// Package root, from this file's path (Tests/PushDeskTUITests/Support/…).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
