/// Escaping for the text renderings of the sheet. Values come from service files, so they are
/// untrusted: control characters become visible `\u{1B}` text before they reach a terminal,
/// a Markdown table or an HTML page.
public enum HandoffText {
    /// What `Escape.mustEscape` flags (C0, DEL, C1, bidi controls, separators, invisibles)
    /// shown as `\u{XX}`: the one escape rule, so a sheet reads the same as every other output.
    public static func visible(_ s: String) -> String {
        Escape.inline(s, limit: Int.max)
    }

    /// Markdown inline text (inside a table cell or after a list marker): visible control
    /// characters, and the characters that open emphasis, links, code, HTML, entities or a new
    /// table cell backslash-escaped.
    public static func markdown(_ s: String) -> String {
        var out = ""
        for ch in visible(s) {
            if "\\`*_[]<>|~&".contains(ch) { out.append("\\") }
            out.append(ch)
        }
        return out
    }

    /// A Markdown code span (values meant to be copied: keys, URLs, names). The fence is longer
    /// than any backtick run inside; `|` is escaped because GFM splits table cells on it even
    /// inside code spans. An empty value reads `(not set)`.
    public static func markdownCode(_ s: String) -> String {
        if s.isEmpty { return "(not set)" }
        var text = ""
        for ch in visible(s) { if ch == "|" { text += "\\|" } else { text.append(ch) } }
        let marks = String(repeating: "`", count: longestBacktickRun(text) + 1)
        let pad = text.hasPrefix("`") || text.hasSuffix("`") ? " " : ""
        return marks + pad + text + pad + marks
    }

    /// Text and attribute values for HTML.
    public static func html(_ s: String) -> String {
        var out = ""
        for ch in visible(s) {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }

    /// HTML for a code block: the code keeps its line breaks, the rest as `html`.
    public static func htmlCode(_ code: String) -> String {
        code.split(separator: "\n", omittingEmptySubsequences: false).map { html(String($0)) }
            .joined(separator: "\n")
    }

    /// A Markdown code fence longer than any run of backticks in `code`, so it cannot be closed early.
    public static func fence(for code: String) -> String {
        String(repeating: "`", count: max(3, longestBacktickRun(code) + 1))
    }

    static func longestBacktickRun(_ s: String) -> Int {
        var longest = 0
        var run = 0
        for ch in s {
            if ch == "`" {
                run += 1
                longest = max(longest, run)
            } else {
                run = 0
            }
        }
        return longest
    }
}
