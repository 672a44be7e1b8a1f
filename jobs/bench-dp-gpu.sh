#!/bin/bash
# lev and lcs end to end on the GPU (the CLI, reading and writing included), with the CPU
# backend on the same host as the baseline in the same job. Prints one table.
#   a random 1 Mb pair (lev distance, lcs length), 1,000,000 pairs of 150 bp at 5% (lev, lcs),
#   and lev --all --max-dist 10 on N_ALL reads of 150 bp, unrelated and half of them 5% copies of the
#   other half (with --path), GPU and CPU; and on N_ALL_CPU reads
# Usage: jobs/bench-dp-gpu.sh [BUILD_DIR] [N_ALL=100000] [N_ALL_CPU=10000]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} nall=${2:-100000} ncpu=${3:-10000}
tmp=${TMPDIR:-/tmp}/rkdg.$$
mkdir -p "$tmp"
cli=$build/rktlcs gen=$build/tests/rkt_genpairs
"$gen" 1 1000000 -1 7 "$tmp/m1a.fa" "$tmp/m1b.fa"
"$gen" 1000000 150 5 3 "$tmp/sa.fa" "$tmp/sb.fa"
"$gen" $nall 150 5 5 "$tmp/all.fa" "$tmp/unused.fa"
"$gen" $((nall / 2)) 150 5 6 "$tmp/na.fa" "$tmp/nb.fa" && cat "$tmp/na.fa" "$tmp/nb.fa" > "$tmp/near.fa"  # half the reads a 5% copy of another
head -$((2 * ncpu)) "$tmp/all.fa" > "$tmp/allc.fa"
printf '# GPU %s; CPU %s cores; commit %s\n' "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" "$(nproc)" \
	"${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
printf '%-34s %-4s %9s %9s %9s %10s\n' job be wall_s read_s compute_s rows_out
run() {  # label backend args...
	local lab=$1 be=$2; shift 2
	rm -f "$tmp/st.json"; local s e; s=$(date +%s.%N)
	"$cli" "$@" --backend $be -o "$tmp/out" --stats "$tmp/st.json" 2> "$tmp/err" || { echo "$lab $be: failed: $(tail -1 "$tmp/err")"; return; }
	e=$(date +%s.%N)
	local rd co; rd=$(grep -soE '"read":[0-9.]+' "$tmp/st.json" | cut -d: -f2) co=$(grep -soE '"compute":[0-9.]+' "$tmp/st.json" | cut -d: -f2)
	printf '%-34s %-4s %9.2f %9.2f %9.2f %10s\n' "$lab" $be "$(awk -v s=$s -v e=$e 'BEGIN { print e - s }')" "${rd:-0}" "${co:-0}" "$(grep -vc '^#' "$tmp/out")"
	[ $be = gpu ] && cp "$tmp/out" "$tmp/out.gpu" || { cmp -s "$tmp/out" "$tmp/out.gpu" && echo "    (cpu output = gpu output)" || echo "    CPU AND GPU OUTPUTS DIFFER"; }
}
for m in lev lcs; do
	for be in gpu cpu; do run "$m 1 Mb random pair" $be $m "$tmp/m1a.fa" "$tmp/m1b.fa"; done
	for be in gpu cpu; do run "$m 1,000,000 x 150 bp, 5%" $be $m "$tmp/sa.fa" "$tmp/sb.fa"; done
done
for be in gpu cpu; do run "lev --all $ncpu x 150 --max-dist 10" $be lev --all --max-dist 10 "$tmp/allc.fa"; done
# the baseline: every pair computed (RKTLCS_ALL_NOFILTER=1), GPU then CPU (outputs compared as above)
for be in gpu cpu; do RKTLCS_ALL_NOFILTER=1 run "lev --all $ncpu x 150 -M 10, no filter" $be lev --all --max-dist 10 "$tmp/allc.fa"; done
for be in gpu cpu; do run "lev --all $nall x 150 --max-dist 10" $be lev --all --max-dist 10 "$tmp/all.fa"; done
for be in gpu cpu; do run "lev --all $nall x 150 (5% copies) -M 10" $be lev --all --max-dist 10 --path "$tmp/near.fa"; done
rm -rf "$tmp"
