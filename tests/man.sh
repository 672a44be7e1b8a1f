#!/bin/bash
# The manual page and the docs of an install (issue 33): cmake --install puts rktlcs.1 in
# share/man/man1 and the docs in share/doc/rktlcs; the page renders without a groff warning,
# `man` finds it, its FILES name the install's own paths, and each mode's section is that
# mode's --help exactly (escaping checked); every --help points to the page and the installed
# docs, and names no path of the source tree.
# Usage: man.sh BUILD_DIR TMPDIR
set -u
build=$1 tmp=$2
rm -rf "$tmp"; mkdir -p "$tmp"
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
inst=$tmp/inst
cmake --install "$build" --prefix "$inst" > "$tmp/install.log" || { echo "FAIL cmake --install"; cat "$tmp/install.log"; exit 1; }
page=$inst/share/man/man1/rktlcs.1
[ -s "$page" ] && ok "installed: share/man/man1/rktlcs.1 ($(wc -l < "$page") lines)" || { bad "no $page"; exit 1; }
for d in README.md rkt.md hamming.md lev.md lcs.md input.md DEVELOPING.md; do
	[ -s "$inst/share/doc/rktlcs/$d" ] || bad "no share/doc/rktlcs/$d"
done
ok "installed: share/doc/rktlcs/{README,rkt,hamming,lev,lcs,input,DEVELOPING}.md"
if ! command -v groff > /dev/null; then echo "SKIPPED: rendering the page: no groff (Debian: groff-base)"; echo "man: $pass passed, $fail failed"; [ $fail -eq 0 ] || exit 1; exit 77; fi
groff -man -Tutf8 -ww -z "$page" 2> "$tmp/warn"
[ ! -s "$tmp/warn" ] && ok "groff -man -ww: no warning" || { bad "groff warns:"; head "$tmp/warn"; }
# plain text: col(1) is in bsdextrautils, which a minimal Debian lacks (then sed takes the
# overstrikes out; grotty -cbou writes none)
plain() { if command -v col > /dev/null; then col -bx; else sed 's/.\x08//g'; fi; }
if command -v man > /dev/null; then
	MANWIDTH=100 man -l "$page" 2> "$tmp/err" | plain > "$tmp/page.txt"
	[ "$(MANPATH=$inst/share/man man -w rktlcs 2>/dev/null)" = "$page" ] && ok "man -w rktlcs finds it with MANPATH=PREFIX/share/man" || bad "man -w rktlcs: $(MANPATH=$inst/share/man man -w rktlcs 2>&1)"
else
	groff -man -Tascii -P-cbou -rLL=100n "$page" 2> "$tmp/err" | plain > "$tmp/page.txt"
fi
grep -q '^NAME' "$tmp/page.txt" && grep -q '^EXIT STATUS' "$tmp/page.txt" && ok "renders: $(grep -c . "$tmp/page.txt") lines" || bad "does not render"
grep -q "^       $inst/share/doc/rktlcs\$" "$tmp/page.txt" && grep -q "^       $inst/share/rktlcs/jobs\$" "$tmp/page.txt" \
	&& ok "FILES: the install's paths" || bad "FILES does not name $inst/share/doc/rktlcs and .../jobs"
modes=$("$inst/bin/rktlcs" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
[ -n "$modes" ] || bad "no modes in rktlcs --help"
for m in $modes; do
	"$inst/bin/rktlcs" $m --help > "$tmp/help.$m"
	# the section: from its heading to the next, less the 7 columns of indent
	awk -v h="   rktlcs $m --help" '$0 == h { on = 1; next } on && /^[^ ]/ { exit } on && /^   [^ ]/ { exit } on { sub(/^       /, ""); print }' "$tmp/page.txt" |
		sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' > "$tmp/sec.$m"
	if diff <(sed 's/ *$//' "$tmp/help.$m") <(sed 's/ *$//' "$tmp/sec.$m") > "$tmp/diff.$m"; then ok "section 'rktlcs $m --help' = its --help ($(wc -l < "$tmp/help.$m") lines)"
	else bad "section 'rktlcs $m --help' differs from its --help"; head "$tmp/diff.$m"; fi
	grep -q 'man rktlcs' "$tmp/help.$m" && ok "$m --help points to man rktlcs and share/doc/rktlcs: $(grep -A1 'man rktlcs' "$tmp/help.$m" | tr '\n' ' ')" || bad "$m --help does not name man rktlcs"
	grep -nE '(^|[ (])(docs|src|tests|jobs|scripts)/' "$tmp/help.$m" && bad "$m --help names a path of the source tree" || ok "$m --help names no source path"
done
echo "man: $pass passed, $fail failed"
[ $fail -eq 0 ]
