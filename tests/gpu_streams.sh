#!/bin/bash
# Stream discipline of the CUDA sources (issue 8): every device operation of a call goes to
# the call's own stream. The drivers use cudaStreamNonBlocking streams, which are NOT
# ordered with the legacy default stream, so one cudaMemset/cudaMemcpy or one launch
# without a stream argument can run before or after the work it was meant to precede; two
# ranks sharing a GPU made that visible as a lost candidate about 1% of the time.
# Fails on: synchronous cudaMemset/cudaMemcpy*/cudaDeviceSynchronize, and kernel launches
# with fewer than four <<<...>>> arguments. Runs without a GPU (CI).
set -u
src=${1:-$(dirname "$0")/../src/gpu}
fail=0
shopt -s nullglob
files=("$src"/*.cu "$src"/*.cuh)
[ ${#files[@]} -gt 0 ] || { echo "no CUDA sources under $src"; exit 1; }
for f in "${files[@]}"; do
	# comments are not code: drop // and /* */ text before matching
	code=$(sed -e 's://.*$::' "$f" | perl -0pe 's{/\*.*?\*/}{(my $x = $&) =~ s/[^\n]//g; $x}gse')
	while IFS= read -r hit; do
		[ -n "$hit" ] || continue
		echo "FAIL $f: legacy-stream call: $hit"; fail=$((fail + 1))
	done < <(grep -noE '\bcuda(Memset|Memcpy|Memcpy2D|Memcpy3D|MemcpyToSymbol|MemcpyFromSymbol|DeviceSynchronize)[[:space:]]*\(' <<< "$code")
	# launches: the text between <<< and >>> must hold 3 top-level commas (grid, block, smem, stream)
	while IFS= read -r l; do
		[ -n "$l" ] || continue
		args=${l#*<<<}; args=${args%%>>>*}
		depth=0 commas=0
		for ((q = 0; q < ${#args}; q++)); do
			c=${args:q:1}
			case $c in '('|'[') depth=$((depth + 1)) ;; ')'|']') depth=$((depth - 1)) ;; ',') [ $depth -eq 0 ] && commas=$((commas + 1)) ;; esac
		done
		if [ $commas -ne 3 ]; then echo "FAIL $f: launch without a stream argument: <<<$args>>>"; fail=$((fail + 1)); fi
	done < <(grep -oP '<<<.*?>>>' <<< "$code")
done
n=$(cat "${files[@]}" | grep -cE '<<<')
if [ $fail -eq 0 ]; then echo "ok: ${#files[@]} CUDA files, $n launches, every device operation on an explicit stream"; exit 0; fi
echo "$fail stream-discipline violation(s)"; exit 1
