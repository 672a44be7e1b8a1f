#!/bin/bash
# lev's alignment modes (global, prefix, infix) against edlib 1.2.7 on the CPU, one thread
# each, same pairs (fixed seed) in the same run (tests/bench_modes.c): reads planted with
# edits in longer references, and unrelated pairs; the distance with every end location,
# and the path. Every row is the best of REPS runs (the machine is shared); ratio is edlib's
# time over ours. Usage: jobs/bench-modes.sh [BUILD_DIR] [REPS] [SCALE]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} reps=${2:-3} scale=${3:-1}
bench=$build/tests/bench_modes
[ -x "$bench" ] || { echo "no $bench (needs edlib at configure time: libedlib-dev)" >&2; exit 1; }
printf '# CPU %s x %s cores, 1 thread, best of %s, scale %s; commit %s\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" \
	"$(nproc)" "$reps" "$scale" "${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
OMP_NUM_THREADS=1 nice "$bench" "$scale" "$reps"
