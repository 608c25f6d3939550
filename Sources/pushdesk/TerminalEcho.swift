import Foundation

/// Runs `body` with the terminal's echo off when `off` is true and standard input's modes can
/// be read (a terminal), and puts them back after: a secret typed at a prompt is not shown.
func withEchoOff<T>(_ off: Bool, _ body: () -> T) -> T {
    var saved = termios()
    let restore = off && tcgetattr(STDIN_FILENO, &saved) == 0
    if restore {
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
    }
    defer { if restore { tcsetattr(STDIN_FILENO, TCSANOW, &saved) } }
    return body()
}
