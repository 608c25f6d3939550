// Generated from Themes/*.toml by scripts/embed-themes (ThemeTests fails when they differ).
// Built in so that the console has its themes wherever the binary is copied.
enum BuiltinThemes {
    static let sources: [String: String] = [
        "default": #"""
        # PushDesk theme: default (dark).
        # One table per role. fg/bg: 256-colour index (0-255), a colour name, or "default".
        # fg16/bg16: fallback from the 16 colour names for 8/16-colour terminals.
        # attrs: any of "bold", "underline", "reverse", "dim".
        # A role left out inherits screen.normal. See docs/THEMES.md for every role.
        name = "default"

        [screen.normal]
        fg = 252
        bg = 235
        fg16 = "white"
        bg16 = "black"

        [text.muted]
        fg = 244
        bg = 235
        fg16 = "brightblack"
        bg16 = "black"

        [text.escaped]   # control characters shown as ^[ or \u{…}
        fg = 208
        bg = 235
        fg16 = "yellow"
        bg16 = "black"

        [title.bar]
        fg = 231
        bg = 24
        fg16 = "brightwhite"
        bg16 = "blue"
        attrs = ["bold"]

        [title.dirty]    # the "modified" marker
        fg = 214
        bg = 24
        fg16 = "brightyellow"
        bg16 = "blue"
        attrs = ["bold"]

        [status.bar]
        fg = 250
        bg = 237
        fg16 = "black"
        bg16 = "white"

        [status.key]
        fg = 117
        bg = 237
        fg16 = "blue"
        bg16 = "white"
        attrs = ["bold"]

        [status.message]
        fg = 229
        bg = 237
        fg16 = "black"
        bg16 = "white"
        attrs = ["bold"]

        [frame.border]
        fg = 240
        bg = 235
        fg16 = "brightblack"
        bg16 = "black"

        [frame.borderFocus]
        fg = 75
        bg = 235
        fg16 = "brightcyan"
        bg16 = "black"

        [table.header]
        fg = 75
        bg = 235
        fg16 = "cyan"
        bg16 = "black"
        attrs = ["bold"]

        [list.item]
        fg = 252
        bg = 235
        fg16 = "white"
        bg16 = "black"

        [list.selected]
        fg = 231
        bg = 25
        fg16 = "brightwhite"
        bg16 = "blue"
        attrs = ["bold"]

        [list.selectedInactive]
        fg = 252
        bg = 239
        fg16 = "black"
        bg16 = "white"

        [list.filter]
        fg = 229
        bg = 236
        fg16 = "brightyellow"
        bg16 = "black"

        [form.label]
        fg = 249
        bg = 235
        fg16 = "white"
        bg16 = "black"

        [form.field]
        fg = 231
        bg = 237
        fg16 = "brightwhite"
        bg16 = "black"
        attrs = ["underline"]

        [form.fieldFocus]
        fg = 231
        bg = 24
        fg16 = "brightwhite"
        bg16 = "blue"
        attrs = ["bold"]

        [form.error]
        fg = 203
        bg = 235
        fg16 = "brightred"
        bg16 = "black"

        [tabs.active]
        fg = 231
        bg = 25
        fg16 = "brightwhite"
        bg16 = "blue"
        attrs = ["bold"]

        [tabs.inactive]
        fg = 250
        bg = 237
        fg16 = "white"
        bg16 = "black"

        [dialog.body]
        fg = 252
        bg = 238
        fg16 = "black"
        bg16 = "white"

        [dialog.title]
        fg = 231
        bg = 238
        fg16 = "blue"
        bg16 = "white"
        attrs = ["bold"]

        [dialog.button]
        fg = 252
        bg = 240
        fg16 = "black"
        bg16 = "white"

        [dialog.buttonFocus]
        fg = 231
        bg = 25
        fg16 = "brightwhite"
        bg16 = "blue"
        attrs = ["bold"]

        [finding.error]
        fg = 203
        bg = 235
        fg16 = "brightred"
        bg16 = "black"
        attrs = ["bold"]

        [finding.warning]
        fg = 221
        bg = 235
        fg16 = "yellow"
        bg16 = "black"

        [finding.info]
        fg = 117
        bg = 235
        fg16 = "cyan"
        bg16 = "black"

        [help.key]
        fg = 117
        bg = 238
        fg16 = "blue"
        bg16 = "white"
        attrs = ["bold"]

        [form.disabled]   # fields the current type does not send
        fg = 240
        bg = 235
        fg16 = "brightblack"
        bg16 = "black"

        [json.key]
        fg = 117
        bg = 235
        fg16 = "cyan"
        bg16 = "black"

        [json.string]
        fg = 150
        bg = 235
        fg16 = "green"
        bg16 = "black"

        [json.number]
        fg = 215
        bg = 235
        fg16 = "yellow"
        bg16 = "black"

        [json.punctuation]
        fg = 246
        bg = 235
        fg16 = "white"
        bg16 = "black"

        [meter.ok]   # the payload size meter: under 90 %
        fg = 114
        bg = 235
        fg16 = "green"
        bg16 = "black"

        [meter.near]   # 90 % of the limit or more
        fg = 221
        bg = 235
        fg16 = "brightyellow"
        bg16 = "black"
        attrs = ["bold"]

        [meter.over]   # over the 4096-byte limit
        fg = 231
        bg = 160
        fg16 = "brightwhite"
        bg16 = "red"
        attrs = ["bold"]

        [device.body]   # the notification drawn as a device shows it
        fg = 236
        bg = 252
        fg16 = "black"
        bg16 = "white"

        [device.title]
        fg = 16
        bg = 252
        fg16 = "black"
        bg16 = "white"
        attrs = ["bold"]

        [device.muted]
        fg = 242
        bg = 252
        fg16 = "brightblack"
        bg16 = "white"

        """#,
        "light": #"""
        # PushDesk theme: light (dark text on a light background).
        # Same roles as default.toml; see docs/THEMES.md.
        name = "light"

        [screen.normal]
        fg = 236
        bg = 255
        fg16 = "black"
        bg16 = "white"

        [text.muted]
        fg = 245
        bg = 255
        fg16 = "brightblack"
        bg16 = "white"

        [text.escaped]   # control characters shown as ^[ or \u{…}
        fg = 166
        bg = 255
        fg16 = "red"
        bg16 = "white"

        [title.bar]
        fg = 231
        bg = 24
        fg16 = "brightwhite"
        bg16 = "blue"
        attrs = ["bold"]

        [title.dirty]    # the "modified" marker
        fg = 214
        bg = 24
        fg16 = "brightyellow"
        bg16 = "blue"
        attrs = ["bold"]

        [status.bar]
        fg = 238
        bg = 253
        fg16 = "black"
        bg16 = "white"

        [status.key]
        fg = 25
        bg = 253
        fg16 = "blue"
        bg16 = "white"
        attrs = ["bold"]

        [status.message]
        fg = 130
        bg = 253
        fg16 = "black"
        bg16 = "white"
        attrs = ["bold"]

        [frame.border]
        fg = 250
        bg = 255
        fg16 = "brightblack"
        bg16 = "white"

        [frame.borderFocus]
        fg = 25
        bg = 255
        fg16 = "blue"
        bg16 = "white"

        [table.header]
        fg = 25
        bg = 255
        fg16 = "blue"
        bg16 = "white"
        attrs = ["bold"]

        [list.item]
        fg = 236
        bg = 255
        fg16 = "black"
        bg16 = "white"

        [list.selected]
        fg = 231
        bg = 25
        fg16 = "brightwhite"
        bg16 = "blue"
        attrs = ["bold"]

        [list.selectedInactive]
        fg = 236
        bg = 250
        fg16 = "white"
        bg16 = "brightblack"

        [list.filter]
        fg = 130
        bg = 254
        fg16 = "magenta"
        bg16 = "white"

        [form.label]
        fg = 240
        bg = 255
        fg16 = "black"
        bg16 = "white"

        [form.field]
        fg = 16
        bg = 253
        fg16 = "black"
        bg16 = "white"
        attrs = ["underline"]

        [form.fieldFocus]
        fg = 231
        bg = 24
        fg16 = "brightwhite"
        bg16 = "blue"
        attrs = ["bold"]

        [form.error]
        fg = 160
        bg = 255
        fg16 = "red"
        bg16 = "white"

        [tabs.active]
        fg = 231
        bg = 25
        fg16 = "brightwhite"
        bg16 = "blue"
        attrs = ["bold"]

        [tabs.inactive]
        fg = 238
        bg = 253
        fg16 = "black"
        bg16 = "white"

        [dialog.body]
        fg = 236
        bg = 252
        fg16 = "black"
        bg16 = "white"

        [dialog.title]
        fg = 16
        bg = 252
        fg16 = "blue"
        bg16 = "white"
        attrs = ["bold"]

        [dialog.button]
        fg = 236
        bg = 250
        fg16 = "black"
        bg16 = "white"

        [dialog.buttonFocus]
        fg = 231
        bg = 25
        fg16 = "brightwhite"
        bg16 = "blue"
        attrs = ["bold"]

        [finding.error]
        fg = 160
        bg = 255
        fg16 = "red"
        bg16 = "white"
        attrs = ["bold"]

        [finding.warning]
        fg = 130
        bg = 255
        fg16 = "magenta"
        bg16 = "white"

        [finding.info]
        fg = 25
        bg = 255
        fg16 = "blue"
        bg16 = "white"

        [help.key]
        fg = 25
        bg = 252
        fg16 = "blue"
        bg16 = "white"
        attrs = ["bold"]

        [form.disabled]   # fields the current type does not send
        fg = 249
        bg = 255
        fg16 = "brightblack"
        bg16 = "white"

        [json.key]
        fg = 25
        bg = 255
        fg16 = "blue"
        bg16 = "white"

        [json.string]
        fg = 28
        bg = 255
        fg16 = "green"
        bg16 = "white"

        [json.number]
        fg = 130
        bg = 255
        fg16 = "magenta"
        bg16 = "white"

        [json.punctuation]
        fg = 240
        bg = 255
        fg16 = "black"
        bg16 = "white"

        [meter.ok]   # the payload size meter: under 90 %
        fg = 28
        bg = 255
        fg16 = "green"
        bg16 = "white"

        [meter.near]   # 90 % of the limit or more
        fg = 130
        bg = 255
        fg16 = "magenta"
        bg16 = "white"
        attrs = ["bold"]

        [meter.over]   # over the 4096-byte limit
        fg = 231
        bg = 160
        fg16 = "brightwhite"
        bg16 = "red"
        attrs = ["bold"]

        [device.body]   # the notification drawn as a device shows it
        fg = 236
        bg = 254
        fg16 = "black"
        bg16 = "white"

        [device.title]
        fg = 16
        bg = 254
        fg16 = "black"
        bg16 = "white"
        attrs = ["bold"]

        [device.muted]
        fg = 243
        bg = 254
        fg16 = "brightblack"
        bg16 = "white"

        """#,
        "high-contrast": #"""
        # PushDesk theme: high-contrast (bright on black, selection in yellow).
        # Same roles as default.toml; see docs/THEMES.md.
        name = "high-contrast"

        [screen.normal]
        fg = 231
        bg = 16
        fg16 = "brightwhite"
        bg16 = "black"

        [text.muted]
        fg = 250
        bg = 16
        fg16 = "white"
        bg16 = "black"

        [text.escaped]   # control characters shown as ^[ or \u{…}
        fg = 214
        bg = 16
        fg16 = "yellow"
        bg16 = "black"

        [title.bar]
        fg = 16
        bg = 226
        fg16 = "black"
        bg16 = "brightyellow"
        attrs = ["bold"]

        [title.dirty]    # the "modified" marker
        fg = 196
        bg = 226
        fg16 = "red"
        bg16 = "brightyellow"
        attrs = ["bold"]

        [status.bar]
        fg = 231
        bg = 16
        fg16 = "brightwhite"
        bg16 = "black"

        [status.key]
        fg = 51
        bg = 16
        fg16 = "brightcyan"
        bg16 = "black"
        attrs = ["bold"]

        [status.message]
        fg = 226
        bg = 16
        fg16 = "brightyellow"
        bg16 = "black"
        attrs = ["bold"]

        [frame.border]
        fg = 231
        bg = 16
        fg16 = "white"
        bg16 = "black"

        [frame.borderFocus]
        fg = 51
        bg = 16
        fg16 = "brightcyan"
        bg16 = "black"

        [table.header]
        fg = 51
        bg = 16
        fg16 = "cyan"
        bg16 = "black"
        attrs = ["bold"]

        [list.item]
        fg = 231
        bg = 16
        fg16 = "brightwhite"
        bg16 = "black"

        [list.selected]
        fg = 16
        bg = 226
        fg16 = "black"
        bg16 = "brightyellow"
        attrs = ["bold"]

        [list.selectedInactive]
        fg = 16
        bg = 250
        fg16 = "black"
        bg16 = "white"

        [list.filter]
        fg = 226
        bg = 16
        fg16 = "brightyellow"
        bg16 = "black"

        [form.label]
        fg = 231
        bg = 16
        fg16 = "brightwhite"
        bg16 = "black"

        [form.field]
        fg = 231
        bg = 16
        fg16 = "brightwhite"
        bg16 = "black"
        attrs = ["underline"]

        [form.fieldFocus]
        fg = 16
        bg = 226
        fg16 = "black"
        bg16 = "brightyellow"
        attrs = ["bold"]

        [form.error]
        fg = 196
        bg = 16
        fg16 = "brightred"
        bg16 = "black"

        [tabs.active]
        fg = 16
        bg = 226
        fg16 = "black"
        bg16 = "brightyellow"
        attrs = ["bold"]

        [tabs.inactive]
        fg = 231
        bg = 16
        fg16 = "brightwhite"
        bg16 = "black"

        [dialog.body]
        fg = 231
        bg = 16
        fg16 = "brightwhite"
        bg16 = "black"

        [dialog.title]
        fg = 231
        bg = 16
        fg16 = "brightyellow"
        bg16 = "black"
        attrs = ["bold"]

        [dialog.button]
        fg = 231
        bg = 16
        fg16 = "brightwhite"
        bg16 = "black"

        [dialog.buttonFocus]
        fg = 16
        bg = 226
        fg16 = "black"
        bg16 = "brightyellow"
        attrs = ["bold"]

        [finding.error]
        fg = 196
        bg = 16
        fg16 = "brightred"
        bg16 = "black"
        attrs = ["bold"]

        [finding.warning]
        fg = 226
        bg = 16
        fg16 = "yellow"
        bg16 = "black"

        [finding.info]
        fg = 51
        bg = 16
        fg16 = "cyan"
        bg16 = "black"

        [help.key]
        fg = 51
        bg = 16
        fg16 = "brightcyan"
        bg16 = "black"
        attrs = ["bold"]

        [form.disabled]   # fields the current type does not send
        fg = 244
        bg = 16
        fg16 = "brightblack"
        bg16 = "black"

        [json.key]
        fg = 51
        bg = 16
        fg16 = "cyan"
        bg16 = "black"

        [json.string]
        fg = 46
        bg = 16
        fg16 = "brightgreen"
        bg16 = "black"

        [json.number]
        fg = 226
        bg = 16
        fg16 = "yellow"
        bg16 = "black"

        [json.punctuation]
        fg = 231
        bg = 16
        fg16 = "brightwhite"
        bg16 = "black"

        [meter.ok]   # the payload size meter: under 90 %
        fg = 46
        bg = 16
        fg16 = "brightgreen"
        bg16 = "black"

        [meter.near]   # 90 % of the limit or more
        fg = 16
        bg = 226
        fg16 = "black"
        bg16 = "brightyellow"
        attrs = ["bold"]

        [meter.over]   # over the 4096-byte limit
        fg = 231
        bg = 196
        fg16 = "brightwhite"
        bg16 = "red"
        attrs = ["bold"]

        [device.body]   # the notification drawn as a device shows it
        fg = 16
        bg = 231
        fg16 = "black"
        bg16 = "brightwhite"

        [device.title]
        fg = 16
        bg = 231
        fg16 = "black"
        bg16 = "brightwhite"
        attrs = ["bold"]

        [device.muted]
        fg = 238
        bg = 231
        fg16 = "black"
        bg16 = "brightwhite"

        """#,
        "monochrome": #"""
        # PushDesk theme: monochrome. No colours: attributes only (bold, underline, reverse, dim).
        # Used when NO_COLOR is set or the terminal has no colours. See docs/THEMES.md.
        name = "monochrome"

        [screen.normal]
        fg = "default"
        bg = "default"

        [text.muted]
        fg = "default"
        bg = "default"
        attrs = ["dim"]

        [text.escaped]
        fg = "default"
        bg = "default"
        attrs = ["underline"]

        [title.bar]
        fg = "default"
        bg = "default"
        attrs = ["reverse", "bold"]

        [title.dirty]
        fg = "default"
        bg = "default"
        attrs = ["reverse", "bold"]

        [status.bar]
        fg = "default"
        bg = "default"
        attrs = ["reverse"]

        [status.key]
        fg = "default"
        bg = "default"
        attrs = ["reverse", "bold"]

        [status.message]
        fg = "default"
        bg = "default"
        attrs = ["reverse", "bold"]

        [frame.border]
        fg = "default"
        bg = "default"

        [frame.borderFocus]
        fg = "default"
        bg = "default"
        attrs = ["bold"]

        [table.header]
        fg = "default"
        bg = "default"
        attrs = ["bold", "underline"]

        [list.item]
        fg = "default"
        bg = "default"

        [list.selected]
        fg = "default"
        bg = "default"
        attrs = ["reverse", "bold"]

        [list.selectedInactive]
        fg = "default"
        bg = "default"
        attrs = ["reverse"]

        [list.filter]
        fg = "default"
        bg = "default"
        attrs = ["bold"]

        [form.label]
        fg = "default"
        bg = "default"

        [form.field]
        fg = "default"
        bg = "default"
        attrs = ["underline"]

        [form.fieldFocus]
        fg = "default"
        bg = "default"
        attrs = ["reverse"]

        [form.error]
        fg = "default"
        bg = "default"
        attrs = ["bold"]

        [tabs.active]
        fg = "default"
        bg = "default"
        attrs = ["reverse", "bold"]

        [tabs.inactive]
        fg = "default"
        bg = "default"

        [dialog.body]
        fg = "default"
        bg = "default"

        [dialog.title]
        fg = "default"
        bg = "default"
        attrs = ["bold"]

        [dialog.button]
        fg = "default"
        bg = "default"

        [dialog.buttonFocus]
        fg = "default"
        bg = "default"
        attrs = ["reverse", "bold"]

        [finding.error]
        fg = "default"
        bg = "default"
        attrs = ["bold"]

        [finding.warning]
        fg = "default"
        bg = "default"
        attrs = ["underline"]

        [finding.info]
        fg = "default"
        bg = "default"

        [help.key]
        fg = "default"
        bg = "default"
        attrs = ["bold"]

        [form.disabled]   # fields the current type does not send
        fg = "default"
        bg = "default"
        attrs = ["dim"]

        [json.key]
        fg = "default"
        bg = "default"
        attrs = ["bold"]

        [json.string]
        fg = "default"
        bg = "default"

        [json.number]
        fg = "default"
        bg = "default"

        [json.punctuation]
        fg = "default"
        bg = "default"
        attrs = ["dim"]

        [meter.ok]   # the payload size meter: under 90 %
        fg = "default"
        bg = "default"

        [meter.near]   # 90 % of the limit or more
        fg = "default"
        bg = "default"
        attrs = ["bold", "underline"]

        [meter.over]   # over the 4096-byte limit
        fg = "default"
        bg = "default"
        attrs = ["reverse", "bold"]

        [device.body]   # the notification drawn as a device shows it
        fg = "default"
        bg = "default"

        [device.title]
        fg = "default"
        bg = "default"
        attrs = ["bold"]

        [device.muted]
        fg = "default"
        bg = "default"
        attrs = ["dim"]

        """#,
    ]
}
