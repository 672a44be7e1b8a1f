#!/bin/bash
# lev batches (issue 58): the library's batch (wavefronts where they pay, the bit-parallel lanes
# for the rest), the lanes alone (the batch before), WFA2 2.3 and edlib 1.2.7, compute only, in
# the same run on the same pairs (tests/bench_dp.c: OpenMP over pairs, one aligner a thread);
# then whole processes on FASTA files (rkt_genpairs): wall and the compute stage of --stats,
# CPU and (where there is one) GPU.
# Usage: jobs/bench-lev-batch.sh [BUILD_DIR] [THREADS] [PAIRS] [REPS]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} th=${2:-$(nproc)} n=${3:-200000} reps=${4:-3}
bench=$build/tests/bench_dp cli=$build/rktlcs gen=$build/tests/rkt_genpairs
[ -x "$bench" ] || { echo "no $bench (needs edlib and WFA2 at configure time)" >&2; exit 1; }
printf '# CPU %s x %s cores, %s threads, best of %s; commit %s\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" \
	"$(nproc)" "$th" "$reps" "${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
[ "${LEVBATCH_ONLY:-}" = long ] || "$bench" batch "$th" "$n" 150 "$reps" 1 5 15 25
"$bench" batch 1 "$((n / 10))" 150 "$reps" 1 15
"$bench" batch "$th" "$((n / 100))" 10000 "$reps" 5 15
"$bench" batch "$th" "$((n / 1000))" 100000 "$reps" 1
# whole processes: n pairs of 150 bp from FASTA, distance and CIGAR
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
backends=cpu; "$cli" --version | grep -q '^gpu: CUDA, [1-9]' && backends="cpu gpu"
printf '\n%-28s %-4s %-6s %8s %9s\n' "whole process" "be" "path" "wall s" "compute s"
for d in 1 5 15; do
	"$gen" "$n" 150 "$d" 7 "$tmp/a.fa" "$tmp/b.fa" > /dev/null
	for be in $backends; do
		for path in "" --path; do
			best=9e9 comp=
			for r in $(seq "$reps"); do
				rm -f "$tmp/o.tsv" "$tmp/s.json"
				t0=$(date +%s.%N)
				"$cli" lev "$tmp/a.fa" "$tmp/b.fa" $path --backend "$be" --threads "$th" -q -o "$tmp/o.tsv" --stats "$tmp/s.json" || exit 1
				t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
				if awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; comp=$(grep -o '"compute": *[0-9.e+-]*' "$tmp/s.json" | head -1 | grep -o '[0-9.e+-]*$'); fi
			done
			printf '%-28s %-4s %-6s %8.3f %9s\n' "$n x 150bp $d%" "$be" "${path:-dist}" "$best" "$comp"
		done
	done
done
