#!/bin/bash
# lev --all --max-dist D, D = 0 .. 15, on short reads: the filter the cost model picks (exact
# segments, approximate pieces or every pair; docs/lev.md "--all"), its wall and CPU time, the
# rows found and the candidates it let through. With REF=1, every pair is also computed once at
# D 15 (RKTLCS_ALL_NOFILTER=1, ~30 s on 2 cores for 20,000 x 72 bp) and each D's rows are
# compared with its rows at distance <= D. Then mpirun -np 1 against -np 2, one thread a rank,
# REPS (5) times each in turn at each D of MPI_D (9 10 12 15).
# With BIG=N, also N reads of 72 bp sampled from a random 5 Mb genome (tests/gen_reads.c: 0.5%
# substitutions, N's, 2% adapter read-through), at D 10 with every core (the issue-29 target:
# 100,000 reads in 10 s on 16 cores).
# ONLY_BIG=1 skips the table and mpirun.
# Usage: [REF=1 or REF=saved-D15-output] [BIG=100000] [ONLY_BIG=1] jobs/bench-near.sh [BUILD_DIR] [READS (default ERR127302)]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} reads=${2:-../shared/data/ERR127302_1_subset.fastq.gz}
tmp=${TMPDIR:-/tmp}/rkbn.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
cli=$build/rktlcs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rows() { grep -v '^#' "$1" | tail -n +2; }
printf '# %s; %s cores; load average %s; commit %s; reads %s\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
	"$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}" "$reads"
if [ -f "${REF:-}" ]; then cp "$REF" "$tmp/ref"   # a saved every-pair run at D 15
elif [ "${REF:-0}" = 1 ]; then
	s=$(date +%s.%N)
	RKTLCS_ALL_NOFILTER=1 "$cli" lev --all --max-dist 15 -q -o "$tmp/ref" "$reads"
	printf '# every pair at D 15 (RKTLCS_ALL_NOFILTER=1): %.2f s wall, %s rows\n' "$(awk -v s=$s -v e=$(date +%s.%N) 'BEGIN { print e - s }')" "$(rows "$tmp/ref" | wc -l)"
fi
# one run: prints wall s, cpu s, rows, candidates, plan
one() {  # D "lev options" command...
	local D=$1 opt=$2; shift 2
	/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" lev --all --max-dist $D $opt -v -o "$tmp/out" "$reads" 2> "$tmp/err"
	local w u sy; read -r w u sy < "$tmp/time"
	local cand plan
	cand=$(grep -m1 -oE '[0-9]+ of [0-9]+ pairs passed' "$tmp/err" | cut -d' ' -f1)
	plan=$(grep -m1 -oE 'approximate pieces [0-9.e+inf]+ s: [a-z ]+\((-?[0-9]+)\)' "$tmp/err" | sed -E 's/.*: ([a-z ]+) \((-?[0-9]+)\)/\1 \2/; s/approximate pieces/k =/; s/ -[12]$//')
	printf '%6.2f %6.2f %8s %12s  %s' "$w" "$(awk -v u=$u -v y=$sy 'BEGIN { print u + y }')" "$(rows "$tmp/out" | wc -l)" "${cand:-all}" "${plan:-?}"
}
[ "${ONLY_BIG:-0}" = 1 ] || {
printf '%3s %6s %6s %8s %12s  %-18s %s\n' D wall_s cpu_s rows candidates plan "= every pair"
for D in $(seq 0 15); do
	printf '%3d ' $D; one $D "" "$cli"
	if [ -s "${tmp}/ref" ]; then
		rows "$tmp/ref" | awk -F'\t' -v D=$D '$5 <= D' | cmp -s - <(rows "$tmp/out") && printf '  yes' || printf '  NO'
	fi
	echo
done
if command -v mpirun > /dev/null; then
	# np 1 and np 2 in turn, REPS times (the host's speed drifts: the ratio is taken pair by
	# pair), whole-process wall of mpirun, the medians printed
	echo "# mpirun, one thread a rank (--threads 1): wall s, median of ${REPS:-5} runs in turn; np1/np2 the median of the pairs' ratios"
	printf '%3s %8s %8s %8s\n' D np1_s np2_s np1/np2
	for D in ${MPI_D:-9 10 12 15}; do
		: > "$tmp/pairs"
		for r in $(seq "${REPS:-5}"); do
			for np in 1 2; do
				/usr/bin/time -f '%e' -o "$tmp/t$np" mpirun -np $np "$cli" lev --all --max-dist $D --threads 1 -q -o "$tmp/o$np" "$reads"
			done
			cmp -s "$tmp/o1" "$tmp/o2" || echo "D $D: np 2's rows differ from np 1's" >&2
			echo "$(cat "$tmp/t1") $(cat "$tmp/t2")" >> "$tmp/pairs"
		done
		med() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
		printf '%3d %8.2f %8.2f %8.2f\n' $D "$(cut -d' ' -f1 "$tmp/pairs" | med)" "$(cut -d' ' -f2 "$tmp/pairs" | med)" \
			"$(awk '{ print $1 / $2 }' "$tmp/pairs" | med)"
	done
fi
}
if [ -n "${BIG:-}" ]; then
	"$build/tests/rkt_genreads" "$BIG" 72 11 5000000 > "$tmp/big.fa"
	reads=$tmp/big.fa
	printf '# %s reads of 72 bp from a random 5 Mb genome, D 10, %s cores: ' "$BIG" "$(nproc)"
	one 10 "" "$cli"; echo
fi
