#!/bin/bash
# Rkt-LCS CPU benchmark: the paper's Table 3 settings on its 1k and 5k reads, and the
# brute force on 1k (one setting) in the same run for a ratio.
# Usage: jobs/bench-rkt-cpu.sh [BUILD_DIR] [THREADS]   (prints a table on stdout); the last rows:
# long reads (500 x 1,000 bp, k=3 t=5 tau=50) per cell against short reads and the scalar sweep
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} th=${2:-2}
data=${SHARED_DATA:-../shared/data}/paper-reads
cli=$build/rktlcs brute=$build/tests/rkt_brute
[ -x "$cli" ] && [ -x "$brute" ] || { echo "build first: scripts/setup.sh $build" >&2; exit 1; }
printf '# machine: %s, %s cores; commit %s; threads %s\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" \
	"$(nproc)" "$(git rev-parse --short HEAD 2>/dev/null || echo none)" "$th"
printf '%-6s %-3s %-5s %-4s %9s %9s %5s %s\n' reads k t tau seconds peak_MB len simd
for f in 1k 5k; do
	for p in "1 1000 15" "3 1000 15" "10 1000 15" "1 100 30" "3 100 30" "10 100 30"; do
		set -- $p
		/usr/bin/time -f '%e %M' -o /tmp/bench.$$ "$cli" "$data/$f.fasta" -k $1 -t $2 -tau $3 --threads $th -o /tmp/bench.out.$$ 2> /tmp/bench.err.$$
		read -r sec kb < /tmp/bench.$$
		len=$(grep -v '^#' /tmp/bench.out.$$ | sed -n 2p | cut -f4)
		simd=$(grep -o 'backend cpu ([a-z0-9]*)' /tmp/bench.err.$$ | tr -d '()' | cut -d' ' -f3)
		printf '%-6s %-3s %-5s %-4s %9s %9.1f %5s %s\n' $f $1 $2 $3 $sec "$(echo "$kb / 1024" | bc -l)" "${len:--}" "$simd"
	done
done
# baseline in the same job: the brute force (direct definition, OpenMP) on 1k, k=1 t=1000 tau=15
/usr/bin/time -f '%e' -o /tmp/bench.$$ env OMP_NUM_THREADS=$th "$brute" "$data/1k.fasta" -k 1 -t 1000 -tau 15 > /dev/null
bf=$(cat /tmp/bench.$$)
/usr/bin/time -f '%e' -o /tmp/bench.$$ "$cli" "$data/1k.fasta" -k 1 -t 1000 -tau 15 --threads $th -q > /dev/null
us=$(cat /tmp/bench.$$)
printf 'baseline 1k k=1 t=1000 tau=15: brute force %s s, rktlcs %s s, ratio %.0fx\n' "$bf" "$us" "$(echo "$bf / $us" | bc -l)"
rm -f /tmp/bench.$$ /tmp/bench.out.$$ /tmp/bench.err.$$
# long reads (issue 15): per cell, the 16-bit sweep of reads over 255 bp against the byte
# sweep of short reads and the scalar sweep, in the same run; cells = pairs x len^2
gen=$build/tests/rkt_genreads
if [ -x "$gen" ]; then
	"$gen" 500 1000 3 > /tmp/bench.long.$$
	"$gen" 5000 100 3 > /tmp/bench.short.$$
	"$gen" 120 1000 3 > /tmp/bench.scal.$$
	run() {  # label file reads len [env]
		local lab=$1 f=$2 n=$3 l=$4; shift 4
		/usr/bin/time -f '%e' -o /tmp/bench.$$ env "$@" "$cli" "$f" -k 3 -t 5 -tau 50 --threads $th -q -o /dev/null
		local s; s=$(cat /tmp/bench.$$)
		printf '%-34s %6s reads x %5s bp: %7s s, %.3g cells/s\n' "$lab" $n $l $s "$(echo "$n * ($n - 1) / 2 * $l * $l / $s" | bc -l)"
	}
	run "long reads, 16-bit SIMD sweep" /tmp/bench.long.$$ 500 1000 RKTLCS_NOTHING=1
	run "short reads, byte SIMD sweep" /tmp/bench.short.$$ 5000 100 RKTLCS_NOTHING=1
	run "long reads, scalar sweep (baseline)" /tmp/bench.scal.$$ 120 1000 RKTLCS_SIMD=0
	rm -f /tmp/bench.long.$$ /tmp/bench.short.$$ /tmp/bench.scal.$$ /tmp/bench.$$
fi
