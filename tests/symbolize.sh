#!/bin/bash
# Names for the frames of a sanitizer report written without symbols (the sanitizer build's
# MPI ranks do not symbolize: src/main.c): each "(/path/module+0xOFFSET)" frame gets its
# function and file:line from addr2line.
# Usage: bash tests/symbolize.sh < LOG
while IFS= read -r l; do
	if [[ $l =~ \((/[^+]+)\+(0x[0-9a-fA-F]+)\) ]]; then
		n=$(addr2line -f -C -e "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" 2> /dev/null | paste -sd ' ')
		[ -n "$n" ] && l="$l  $n"
	fi
	printf '%s\n' "$l"
done
