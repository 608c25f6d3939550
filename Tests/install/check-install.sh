#!/usr/bin/env bash
# Installs pushdesk (debug build, so it reuses `swift build`) into a scratch DESTDIR with a
# non-default PREFIX, then checks what an operator would: every file is where PREFIX says, the
# man page renders and the man page and every completion script name every subcommand.
set -euo pipefail
cd "$(dirname "$0")/../.."
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
prefix=/opt/pushdesk-check
make -s install CONFIG=debug PREFIX="$prefix" DESTDIR="$dest" >/dev/null
root="$dest$prefix"
fail() { echo "check-install: $*" >&2; exit 1; }

for f in bin/pushdesk share/man/man1/pushdesk.1 share/bash-completion/completions/pushdesk \
         share/zsh/site-functions/_pushdesk share/fish/vendor_completions.d/pushdesk.fish; do
  [ -s "$root/$f" ] || fail "missing $prefix/$f"
done
[ -x "$root/bin/pushdesk" ] || fail "bin/pushdesk is not executable"

# Subcommands as the binary itself lists them (SUBCOMMANDS section of --help).
mapfile -t subs < <("$root/bin/pushdesk" --help | awk '/^SUBCOMMANDS:/{on=1;next} on&&/^  [a-z]/{print $1} on&&/^$/{exit}')
[ "${#subs[@]}" -ge 1 ] || fail "could not read the subcommand list from --help"

for s in "${subs[@]}"; do
  grep -q -- "$s" "$root/share/man/man1/pushdesk.1" || fail "man page does not mention '$s'"
  for c in share/bash-completion/completions/pushdesk share/zsh/site-functions/_pushdesk \
           share/fish/vendor_completions.d/pushdesk.fish; do
    grep -q -- "$s" "$root/$c" || fail "$c does not mention '$s'"
  done
done

bash -n "$root/share/bash-completion/completions/pushdesk" || fail "bash completion does not parse"
# Drive the bash completion as the shell does: `pushdesk <prefix><TAB>` offers the subcommand.
for s in "${subs[@]}"; do
  prefix=${s:0:3}
  got=$(PATH="$root/bin:$PATH" bash -c 'shopt -s extglob; source "$1"; COMPREPLY=()
        COMP_WORDS=(pushdesk "$2"); COMP_CWORD=1; COMP_LINE="pushdesk $2"; COMP_POINT=${#COMP_LINE}
        _pushdesk pushdesk "$2" pushdesk; printf "%s\n" "${COMPREPLY[@]}"' _ \
        "$root/share/bash-completion/completions/pushdesk" "$prefix")
  grep -qx -- "$s" <<<"$got" || fail "bash completion of 'pushdesk $prefix' does not offer '$s' (got: $got)"
done
if command -v zsh >/dev/null; then zsh -n "$root/share/zsh/site-functions/_pushdesk" || fail "zsh completion does not parse"; fi
if command -v fish >/dev/null; then fish -n "$root/share/fish/vendor_completions.d/pushdesk.fish" || fail "fish completion does not parse"; fi
if command -v groff >/dev/null; then
  out=$(groff -mandoc -Tutf8 -ww -z "$root/share/man/man1/pushdesk.1" 2>&1) || fail "man page does not render"
  [ -z "$out" ] || fail "man page renders with warnings: $out"
fi
echo "check-install: ok (${#subs[@]} subcommands: ${subs[*]}) in man page and bash/zsh/fish completions"
