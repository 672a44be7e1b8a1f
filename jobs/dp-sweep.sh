#!/bin/bash
# Tuning sweep of the long lev/lcs kernel on one device: kernel (or, with a path, total) seconds
# of test_gpu_dp one LCS LEN DIV PATH RW under TEST_GPU_DP_CWW (0: the driver's choices).
# Usage: jobs/dp-sweep.sh [BUILD_DIR] ["LCS LEN DIV PATH RW CWW" ...]
B=${1:-build-gpu}; shift
T=$B/tests/test_gpu_dp
[ $# -gt 0 ] || set -- "0 40000 0 0 0 0" "0 40000 0 0 0 2" "0 40000 0 0 0 8" "0 1000000 0 0 0 0" "0 1000000 0 0 0 8" \
	"0 10000000 0 0 0 0" "0 10000000 1 0 0 0" "0 10000000 1 0 0 8" "0 10000000 1 1 0 0" "0 10000000 1 1 0 8"
printf '| mode | length | divergent | path | rw | cww | seconds |\n|---|---|---|---|---|---|---|\n'
for c in "$@"; do
	set -- $c
	r=$(TEST_GPU_DP_CWW=$6 $T one $1 $2 $3 $4 $5 2> /dev/null | sed -n 's/^one: //p')
	printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$([ $1 = 1 ] && echo lcs || echo lev)" $2 $3 $4 $5 $6 "$r"
done
