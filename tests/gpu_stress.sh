#!/bin/bash
# GPU stress (issue 8): many small random sets, each run with --backend gpu at np 1, 2, 3
# and 4 with every rank on the same GPU (every rank computing at np 2 and 3, RKTLCS_GPU_RANKS=all;
# at np 4 as the job's size says, rank 0 alone for these), several jobs at once (so that contexts contend),
# compared byte for byte with --backend cpu at np 1. Cases (tests/gen_stress.c): random,
# one read per rank, ties, reads shorter than tau, --device-memory forcing i- and j-chunks;
# every fifth set also runs with two ranks of which one is hidden from the GPU
# (CUDA_VISIBLE_DEVICES=) so that the ranks' backends differ. hamming: matrix and
# --max-dist at np 1-4 on the GPU against the CPU at np 1 (np 4 as the job's size says, like rkt).
# Usage: gpu_stress.sh RKTLCS MPIEXEC GENSTRESS TMPDIR [N_RKT=520] [N_HAM=64] [JOBS=nproc, at most 16] [SEED=1]
# STRESS_SECONDS=S stops starting new sets after S seconds (the counts say how many ran).
# Exit 77 (skipped) without a usable CUDA device.
set -u
# JOBS: at most 16 by default: on a 64-core node 64 jobs of up to 4 ranks each (over 200 ranks
# oversubscribing the cores, every rank's context on one of the GPUs) did not end one set in
# 100 s, with this build and with d7230fe's alike (docs/bench/rounds-2026-11-27.md, Round 8)
cli=$1 mpiexec=$2 gen=$3 tmp=$4 nr=${5:-520} nh=${6:-64} jobs=${7:-$(( $(nproc) > 16 ? 16 : $(nproc) ))} seed=${8:-1}
if ! "$cli" --version | grep -q '^gpu: CUDA, [0-9]* device'; then
	echo "SKIPPED: no usable CUDA device ($("$cli" --version | grep '^gpu'))"; exit 77
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$tmp"; mkdir -p "$tmp/res"
"$gen" "$tmp" "$nr" "$nh" "$seed" > "$tmp/sets" || { echo "generator failed"; exit 1; }

# one set: the CPU reference at np 1, then the GPU at np 1-4 (and a mixed-backend pair)
one() {
	local line=$1 f args case id d
	[ "$(date +%s)" -lt "$deadline" ] || return 0
	IFS='|' read -r f args case <<< "$line"
	id=${f%.fa}; d=$tmp/w$id; mkdir -p "$d"
	local res=$tmp/res/$id
	: > "$res"
	if [ "$case" = ham ]; then
		local lay
		for lay in matrix "--max-dist $(( (RANDOM % 40) ))"; do
			[ "$lay" = matrix ] && lay=""
			"$cli" hamming $args $lay --backend cpu -q -o "$d/ref" "$tmp/$f" 2> "$d/err" || { echo "FAIL ham $f cpu run: $(head -1 "$d/err")" >> "$res"; continue; }
			for np in 1 2 3 4; do
				if [ $np -eq 1 ]; then "$cli" hamming $args $lay --backend gpu -q -o "$d/g" "$tmp/$f" 2> "$d/err"
				else timeout 120 "$mpiexec" -np $np -x LD_LIBRARY_PATH -x RKTLCS_GPU_RANKS=$([ $np -lt 4 ] && echo all || echo size) "$cli" hamming $args $lay --backend gpu -q -o "$d/g" "$tmp/$f" 2> "$d/err"; fi
				if [ $? -eq 0 ] && cmp -s "$d/ref" "$d/g"; then echo "ok ham np$np" >> "$res"
				else echo "FAIL ham np$np $f [$args $lay] $(head -1 "$d/err")" >> "$res"; fi
			done
		done
		rm -rf "$d"; return
	fi
	"$cli" "$tmp/$f" $args --backend cpu -q -o "$d/ref" --candidates "$d/ref_c" --occurrences 2> "$d/err" \
		|| { echo "FAIL rkt $f cpu run: $(head -1 "$d/err")" >> "$res"; return; }
	for np in 1 2 3 4; do
		if [ $np -eq 1 ]; then "$cli" "$tmp/$f" $args --backend gpu -o "$d/g" --candidates "$d/g_c" --occurrences 2> "$d/err"
		else timeout 120 "$mpiexec" -np $np -x LD_LIBRARY_PATH -x RKTLCS_GPU_RANKS=$([ $np -lt 4 ] && echo all || echo size) "$cli" "$tmp/$f" $args --backend gpu -q -o "$d/g" --candidates "$d/g_c" --occurrences 2> "$d/err"; fi
		if [ $? -eq 0 ] && cmp -s "$d/ref" "$d/g" && cmp -s "$d/ref_c" "$d/g_c"; then echo "ok rkt np$np $case" >> "$res"
		else echo "FAIL rkt np$np $case $f [$args] $(grep -v '^#' "$d/ref" | sed -n 2p | cut -f1,3-5) vs $(grep -v '^#' "$d/g" 2>/dev/null | sed -n 2p | cut -f1,3-5) $(grep -m1 error "$d/err")" >> "$res"; fi
		# the chunk case must really run in chunks (the summary of the np=1 run says how many)
		if [ $np -eq 1 ] && [ "$case" = chunks ]; then
			grep -qE ' ([2-9]|[1-9][0-9]+) i-chunks' "$d/err" && echo "ok chunked" >> "$res" || echo "NOCHUNK $f $(grep -o '[0-9]* i-chunks*, [0-9]* j-chunks*' "$d/err")" >> "$res"
		fi
	done
	if [ $((${id#r} % 5)) -eq 0 ]; then  # two ranks, one of them without a GPU
		timeout 120 "$mpiexec" -np 1 -x LD_LIBRARY_PATH -x RKTLCS_GPU_RANKS=all env CUDA_VISIBLE_DEVICES= "$cli" "$tmp/$f" $args -q -o "$d/g" --candidates "$d/g_c" --occurrences \
			: -np 1 -x LD_LIBRARY_PATH -x RKTLCS_GPU_RANKS=all "$cli" "$tmp/$f" $args -q -o "$d/g" --candidates "$d/g_c" --occurrences 2> "$d/err"
		if [ $? -eq 0 ] && cmp -s "$d/ref" "$d/g" && cmp -s "$d/ref_c" "$d/g_c"; then echo "ok rkt mixed $case" >> "$res"
		else echo "FAIL rkt mixed-backend $case $f [$args] $(grep -m1 error "$d/err")" >> "$res"; fi
	fi
	# a failure keeps its run's stderr (a rank's signal report, say) beside the results: kept
	# under TMPDIR/failed after the run
	grep -q '^FAIL' "$res" && cp "$d/err" "$tmp/res/$id.err" 2> /dev/null
	rm -rf "$d"
}
export -f one
t0=$(date +%s)
deadline=$((t0 + ${STRESS_SECONDS:-1000000}))
export cli mpiexec tmp deadline
# hamming sets interleaved with the rkt sets, so that a deadline cuts both alike
awk -F'|' '$3 == "ham" { h[nh++] = $0; next } { r[nr++] = $0 }
	END { j = 0; for (i = 0; i < nr; i++) { print r[i]; if (nh && i % int(nr / nh + 1) == 0 && j < nh) print h[j++] } while (j < nh) print h[j++] }' \
	"$tmp/sets" | tr '\n' '\0' | xargs -0 -P "$jobs" -I{} bash -c 'one "$1"' _ {}
dt=$(( $(date +%s) - t0 ))
mkdir -p "$tmp/failed"; mv "$tmp"/res/*.err "$tmp/failed/" 2> /dev/null
cat "$tmp"/res/* > "$tmp/all"
gi=$(grep -cE '^(ok|FAIL) (rkt|ham) (np|mixed)' "$tmp/all")
fails=$(grep -c '^FAIL' "$tmp/all")
nochunk=$(grep -c '^NOCHUNK' "$tmp/all")
chunked=$(grep -c '^ok chunked' "$tmp/all")
grep '^FAIL' "$tmp/all" | head -20
for e in "$tmp"/failed/*.err; do [ -e "$e" ] && { echo "== stderr of $(basename "$e" .err)'s failed run:"; head -25 "$e"; }; done
printf 'rkt: %d gpu invocations (np1 %d, np2 %d, np3 %d, np4 %d, mixed-backend %d); hamming: %d\n' \
	"$(grep -cE '^(ok|FAIL) rkt' "$tmp/all")" "$(grep -cE '^(ok|FAIL) rkt np1' "$tmp/all")" "$(grep -cE '^(ok|FAIL) rkt np2' "$tmp/all")" \
	"$(grep -cE '^(ok|FAIL) rkt np3' "$tmp/all")" "$(grep -cE '^(ok|FAIL) rkt np4' "$tmp/all")" "$(grep -cE '^(ok|FAIL) rkt mixed' "$tmp/all")" \
	"$(grep -cE '^(ok|FAIL) ham' "$tmp/all")"
printf 'gpu_stress: %d of %d sets, %d gpu invocations in %d s with %d jobs; %d differ from the cpu; chunk case ran chunked %d times (%d not)\n' \
	"$(ls "$tmp/res" | wc -l)" "$((nr + nh))" "$gi" "$dt" "$jobs" "$fails" "$chunked" "$nochunk"
[ "$fails" -eq 0 ] && [ "$nochunk" -eq 0 ] && [ "$gi" -gt 0 ]
