#!/bin/bash
# The include graph against the layer order of docs/DEVELOPING.md ("Layers"): a file under
# src/L/ may include "X/..." only where X is L or a layer below it, so that every arrow points
# down (issue 56). A back arrow, or a layer the order does not name, fails with the file and line.
# Usage: layers.sh SOURCE_DIR
set -u
src=$1
order=$(sed -n 's/^Layer order, lowest first: *//p' "$src/docs/DEVELOPING.md" | head -1)
[ -n "$order" ] || { echo "FAIL docs/DEVELOPING.md has no line 'Layer order, lowest first: ...'"; exit 1; }
declare -A rank
i=0
for l in $order; do rank[$l]=$i; i=$((i + 1)); done
fail=0 n=0
for dir in "$src"/src/*/; do
	l=$(basename "$dir")
	[ -n "${rank[$l]+x}" ] || { echo "FAIL src/$l/ is no layer of the order ($order)"; fail=$((fail + 1)); continue; }
	while IFS=: read -r file line inc; do
		x=${inc#*\"}; x=${x%%/*}
		n=$((n + 1))
		[ -n "${rank[$x]+x}" ] || continue   # "rktlcs.h" and the like: the top of src/, core's
		if [ "${rank[$x]}" -gt "${rank[$l]}" ]; then
			echo "FAIL ${file#$src/}:$line: $l includes $x, a layer above it (order: $order)"
			fail=$((fail + 1))
		fi
	done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[a-z_]+/' "$dir" --include='*.[ch]' --include='*.cu' --include='*.cuh' | sed -E 's/^([^:]+):([0-9]+):.*(#[[:space:]]*include[[:space:]]+"[^"]+").*/\1:\2:\3/')
done
# src/rktlcs.h sits with core: it includes no layer
if grep -nE '#[[:space:]]*include[[:space:]]+"[a-z_]+/' "$src/src/rktlcs.h"; then echo "FAIL src/rktlcs.h includes a layer"; fail=$((fail + 1)); fi
[ $n -gt 100 ] || { echo "FAIL only $n includes read: the scan is broken"; fail=$((fail + 1)); }
echo "layers: $n includes of src/ checked against '$order'; $fail back arrows"
echo "$(( fail == 0 ? 1 : 0 )) passed, $(( fail == 0 ? 0 : 1 )) failed"
[ $fail -eq 0 ]
