#!/bin/bash
# The include graph against the layer order of docs/DEVELOPING.md ("Layers"): a file under
# src/L/ may include "X/..." only where X is L or a layer below it, so that every arrow points
# down (issue 56). A back arrow, or a layer the order does not name, fails with the file and line.
# A layer split into rooms (src/L/R/) has a second order, "Inside L, lowest first: ...": a file
# under src/L/R/ may include "L/S/..." only where S is R or a room below it; every sub-folder of
# src/L/ must be a room of that order, and no source file may sit directly in src/L/.
# Usage: layers.sh SOURCE_DIR
set -u
src=$1
order=$(sed -n 's/^Layer order, lowest first: *//p' "$src/docs/DEVELOPING.md" | head -1)
[ -n "$order" ] || { echo "FAIL docs/DEVELOPING.md has no line 'Layer order, lowest first: ...'"; exit 1; }
declare -A rank room inner nin
i=0
for l in $order; do rank[$l]=$i; i=$((i + 1)); done
# the orders inside layers: room["L/R"] = R's place in L ("Inside mpi, lowest first: transport plan ...")
while read -r l rooms; do
	inner[$l]=$rooms
	i=0
	for r in $rooms; do room[$l/$r]=$i; i=$((i + 1)); done
done < <(sed -n 's/^Inside \([a-z_]*\), lowest first: */\1 /p' "$src/docs/DEVELOPING.md")
fail=0 n=0
for dir in "$src"/src/*/; do
	l=$(basename "$dir")
	[ -n "${rank[$l]+x}" ] || { echo "FAIL src/$l/ is no layer of the order ($order)"; fail=$((fail + 1)); continue; }
	# a layer with rooms: every sub-folder named, none of its sources outside a room
	for sub in "$dir"*/; do
		[ -d "$sub" ] || continue
		r=$(basename "$sub")
		if [ -z "${inner[$l]+x}" ]; then
			echo "FAIL src/$l/$r/: src/$l/ has sub-folders but docs/DEVELOPING.md no line 'Inside $l, lowest first: ...'"
			fail=$((fail + 1))
		elif [ -z "${room[$l/$r]+x}" ]; then
			echo "FAIL src/$l/$r/ is no room of the order inside $l (${inner[$l]})"
			fail=$((fail + 1))
		fi
	done
	if [ -n "${inner[$l]+x}" ]; then
		for r in ${inner[$l]}; do
			[ -d "$dir$r" ] || { echo "FAIL the order inside $l names $r, but src/$l/$r/ does not exist"; fail=$((fail + 1)); }
		done
		for f in "$dir"*.[ch] "$dir"*.cu "$dir"*.cuh; do
			[ -e "$f" ] || continue
			echo "FAIL ${f#$src/} sits directly in src/$l/, outside its rooms (${inner[$l]})"
			fail=$((fail + 1))
		done
	fi
	while IFS=: read -r file line inc; do
		x=${inc#*\"}; x=${x%%/*}
		n=$((n + 1))
		[ -n "${rank[$x]+x}" ] || continue   # "rktlcs.h" and the like: the top of src/, core's
		if [ "${rank[$x]}" -gt "${rank[$l]}" ]; then
			echo "FAIL ${file#$src/}:$line: $l includes $x, a layer above it (order: $order)"
			fail=$((fail + 1))
		fi
		# inside a layer with rooms: the room of the file against the room it includes
		[ "$x" = "$l" ] && [ -n "${inner[$l]+x}" ] || continue
		rel=${file#"$dir"}
		[ "$rel" != "${rel#*/}" ] || continue   # a file outside the rooms: said above
		r=${rel%%/*}
		s=${inc#*\"$l/}; s=${s%\"*}
		nin[$l]=$((${nin[$l]:-0} + 1))
		if [ "$s" = "${s#*/}" ]; then
			echo "FAIL ${file#$src/}:$line: includes $l/$s, outside the rooms of $l (${inner[$l]})"
			fail=$((fail + 1))
			continue
		fi
		s=${s%%/*}
		[ -n "${room[$l/$r]+x}" ] || continue   # a room the order does not name: said above
		if [ -z "${room[$l/$s]+x}" ]; then
			echo "FAIL ${file#$src/}:$line: includes $l/$s/, no room of the order inside $l (${inner[$l]})"
			fail=$((fail + 1))
		elif [ "${room[$l/$s]}" -gt "${room[$l/$r]}" ]; then
			echo "FAIL ${file#$src/}:$line: $l/$r includes $l/$s, a room above it (inside $l: ${inner[$l]})"
			fail=$((fail + 1))
		fi
	done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[a-z_]+/' "$dir" --include='*.[ch]' --include='*.cu' --include='*.cuh' | sed -E 's/^([^:]+):([0-9]+):.*(#[[:space:]]*include[[:space:]]+"[^"]+").*/\1:\2:\3/')
done
# src/rktlcs.h sits with core: it includes no layer
if grep -nE '#[[:space:]]*include[[:space:]]+"[a-z_]+/' "$src/src/rktlcs.h"; then echo "FAIL src/rktlcs.h includes a layer"; fail=$((fail + 1)); fi
[ $n -gt 100 ] || { echo "FAIL only $n includes read: the scan is broken"; fail=$((fail + 1)); }
for l in "${!inner[@]}"; do
	[ "${nin[$l]:-0}" -gt 20 ] || { echo "FAIL only ${nin[$l]:-0} includes inside $l read: the scan is broken"; fail=$((fail + 1)); }
	echo "layers: ${nin[$l]:-0} includes inside $l checked against its rooms' order '${inner[$l]}'"
done
echo "layers: $n includes of src/ checked against '$order'; $fail back arrows"
echo "$(( fail == 0 ? 1 : 0 )) passed, $(( fail == 0 ? 0 : 1 )) failed"
[ $fail -eq 0 ]
