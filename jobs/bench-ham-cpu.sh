#!/bin/bash
# hamming CPU benchmark: the issue's two workloads (2,000 x 30,000 synthetic alignment, ~1%
# variable; the 16S alignment, 5,181 x 7,682), end to end (reading and writing the matrix),
# with the naive implementation (tests/test_ham.c, char by char) in the same job for a ratio.
# Usage: jobs/bench-ham-cpu.sh [BUILD_DIR] [THREADS]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} th=${2:-$(nproc)}
data=${SHARED_DATA:-../shared/data}
tmp=${TMPDIR:-/tmp}/rkham.$$
mkdir -p "$tmp"
cli=$build/rktlcs naive=$build/tests/test_ham
"$build/tests/rkt_genaln" 2000 30000 1 1 > "$tmp/syn.fa"
zcat "$data/rRNA16S.gold.NAST_ALIGNED.fasta.gz" > "$tmp/16s.fa"
printf '# CPU %s x %s cores, %s threads; commit %s\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$(nproc)" $th \
	"${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
printf '%-22s %-14s %9s %9s %7s %s\n' input options rktlcs_s naive_s ratio same
for c in "syn2000x30000|syn.fa|" "syn2000x30000|syn.fa|--max-dist 50" "16S 5181x7682|16s.fa|" "16S 5181x7682|16s.fa|-a"; do
	IFS='|' read -r lab f args <<< "$c"
	s=$(date +%s.%N); "$cli" hamming $args --threads $th -q -o "$tmp/out" "$tmp/$f"; e=$(date +%s.%N)
	us=$(awk -v s=$s -v e=$e 'BEGIN { printf "%.3f", e - s }')
	ns=- ratio=- same=-
	if [ -z "${NO_NAIVE:-}" ]; then
		s=$(date +%s.%N); timeout 900 "$naive" naive $args "$tmp/$f" > "$tmp/want"; e=$(date +%s.%N)
		ns=$(awk -v s=$s -v e=$e 'BEGIN { printf "%.1f", e - s }')
		ratio=$(awk -v a=$ns -v b=$us 'BEGIN { printf "%.0fx", a / b }')
		cmp -s "$tmp/out" "$tmp/want" && same=yes || same=NO
	fi
	printf '%-22s %-14s %9s %9s %7s %s\n' "$lab" "${args:--}" $us $ns $ratio $same
done
rm -rf "$tmp"
