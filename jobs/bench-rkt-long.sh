#!/bin/bash
# Rkt-LCS on long reads (issue 27): per cell, the scalar, 16-bit and 32-bit-lane sweeps on the
# same pair of 60 kb reads (the 16-bit sweep's limit is 65,000 bp, so the 32-bit lanes are
# forced there with RKTLCS_RKT_LANES32=1), one thread, AVX-512 and AVX2; then the 300 kb x
# 199 kb pair of tests/rkt_long.sh with the default threads. Wall and user CPU seconds (on a
# shared machine the CPU time is the steadier one); cells = la x lb, best of REPS runs.
# Usage: jobs/bench-rkt-long.sh [BUILD_DIR] [REPS]   (prints a table on stdout)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} reps=${2:-3}
cli=$build/rktlcs gen=$build/tests/rkt_genreads
[ -x "$cli" ] && [ -x "$gen" ] || { echo "build first: scripts/setup.sh $build" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pair() {  # LA LB GENOME FILE: two reads of one random genome (overlapping, 0.5% substitutions)
	{ "$gen" 1 "$1" 7 "$3" | sed 's/^>.*/>a/'; "$gen" 1 "$2" 7 "$3" | sed 's/^>.*/>b/'; } > "$4"
}
run() {  # LABEL CELLS FILE THREADS [ENV...]: the best of REPS runs
	local lab=$1 cells=$2 f=$3 th=$4 best="" bu=""; shift 4
	for _ in $(seq "$reps"); do
		/usr/bin/time -f '%e %U' -o "$tmp/t" env "$@" "$cli" "$f" -k 0 -t 1 -tau 5 --backend cpu --threads "$th" -q -o "$tmp/out"
		read -r w u < "$tmp/t"
		if [ -z "$best" ] || [ "$(echo "$u < $bu" | bc)" = 1 ]; then best=$w bu=$u; fi
	done
	printf '%-40s %8s s wall %8s s user %10.3g cells/s (user)\n' "$lab" "$best" "$bu" "$(echo "$cells / $bu" | bc -l)"
}
printf '# machine: %s, %s cores; commit %s; best of %s\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" \
	"$(nproc)" "$(git rev-parse --short HEAD 2>/dev/null || echo none)" "$reps"
pair 60000 60000 90000 "$tmp/p60.fa"
c60=$((60000 * 60000))
run "60 kb x 60 kb, 16-bit lanes, AVX-512" $c60 "$tmp/p60.fa" 1 RKTLCS_NOTHING=1
run "60 kb x 60 kb, 32-bit lanes, AVX-512" $c60 "$tmp/p60.fa" 1 RKTLCS_RKT_LANES32=1
run "60 kb x 60 kb, 16-bit lanes, AVX2" $c60 "$tmp/p60.fa" 1 RKTLCS_SIMD=2
run "60 kb x 60 kb, 32-bit lanes, AVX2" $c60 "$tmp/p60.fa" 1 RKTLCS_SIMD=2 RKTLCS_RKT_LANES32=1
reps=1 run "60 kb x 60 kb, scalar" $c60 "$tmp/p60.fa" 1 RKTLCS_SIMD=0
pair 300000 199000 400000 "$tmp/long.fa"  # the reads of tests/rkt_long.sh
run "300 kb x 199 kb, 32-bit lanes, default" $((300000 * 199000)) "$tmp/long.fa" "$(nproc)" RKTLCS_NOTHING=1
