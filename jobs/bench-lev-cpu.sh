#!/bin/bash
# lev CPU benchmark: a random 40 kb pair and a 1 Mb pair at 1% divergence (distance and path),
# 100,000 pairs of 150 bp at 5% (distance and paths), with edlib 1.2.7 and WFA2 (edit
# distance, exact) on the same inputs in the same run (tests/bench_dp.c, fixed seed).
# Every row is the best of REPS runs (the machine is shared); ratios are baseline / ours.
# Usage: jobs/bench-lev-cpu.sh [BUILD_DIR] [THREADS] [REPS]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} th=${2:-2} reps=${3:-3}
bench=$build/tests/bench_dp
[ -x "$bench" ] || { echo "no $bench (needs edlib and WFA2 at configure time)" >&2; exit 1; }
printf '# CPU %s x %s cores, %s threads, best of %s; commit %s\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" \
	"$(nproc)" "$th" "$reps" "${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
nice "$bench" lev "$th" 1 "$reps"
