#!/bin/bash
# The driver's release at a CUDA process's exit (docs/bench/rounds-2026-11-27.md, Round 8; src/core/exit.c):
# whole-process wall and the time from the last CUDA call to the process's end, seen by its
# parent, for each way of ending (jobs/exit-cost.cu), three rounds in turn. Needs nvcc and a GPU.
# Usage: jobs/bench-exit.sh [ARCH=sm_90]
set -u
cd "$(dirname "$0")/.."
arch=${1:-sm_90} tmp=${TMPDIR:-/tmp}/rkex.$$
mkdir -p "$tmp"
nvcc -O2 -arch="$arch" -o "$tmp/exit-cost" jobs/exit-cost.cu || exit 1
t() {
	local s0 s1 end
	s0=$(date +%s.%N); "$tmp/exit-cost" "$@" 2> "$tmp/err"; s1=$(date +%s.%N)
	end=$(grep -o 'end_at [0-9.]*' "$tmp/err" | cut -d' ' -f2)
	awk -v a=$s0 -v b=$s1 -v e=$end -v n="$*" 'BEGIN { printf "%-16s whole %.3f  after the last call %.3f\n", n, b - a, b - e }'
}
for rep in 1 2 3; do
	for v in "nocuda" "exit" "return" "reset" "fork" "exit 2000 0" "fork 2000 0" "exit 0 256" "fork 0 256" "return 2000 256"; do t $v; done
done | sort -s -k1,1
rm -rf "$tmp"
