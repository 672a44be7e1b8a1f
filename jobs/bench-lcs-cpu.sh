#!/bin/bash
# lcs CPU benchmark: a random 40 kb pair against the naive O(nm) DP (two rows), a random 1 Mb
# pair, in the same run (tests/bench_dp.c, fixed seed). Rows are the best of REPS runs (the
# naive DP runs once); ratios are baseline / ours.
# Usage: jobs/bench-lcs-cpu.sh [BUILD_DIR] [THREADS] [REPS]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} th=${2:-2} reps=${3:-3}
bench=$build/tests/bench_dp
[ -x "$bench" ] || { echo "no $bench (needs edlib and WFA2 at configure time)" >&2; exit 1; }
printf '# CPU %s x %s cores, %s threads, best of %s; commit %s\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" \
	"$(nproc)" "$th" "$reps" "${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
nice "$bench" lcs "$th" 1 "$reps"
