#!/bin/bash
# `--backend auto` against `gpu` and `cpu` (issue 29): a grid of jobs of the four modes, from tiny
# to tens of seconds, each run with the three backends in the same job. Whole-process wall
# (process start, reading and writing included), the compute stage from --stats, what auto chose
# (its -v line: "the GPU" / "the CPU"), auto's wall over the faster backend's, and whether the
# three outputs are byte-identical. Calibrates src/mpi/plan/cost.c: the compute columns are its rates.
# Usage: jobs/bench-auto.sh [BUILD_DIR] [DATA_DIR] [SECTIONS="rkt ham lev lcs"]
# GAP=S pauses S seconds before each run; ROTATE=0..5 shifts the order of the three backends;
# REPS=N runs each backend N times in turn and gives the medians (the compute columns: the last run's).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} data=${2:-${SHARED_DATA:-../shared/data}} sections=${3:-rkt ham lev lcs}
cli=$build/rktlcs tmp=${TMPDIR:-/tmp}/rkau.$$ T=$build/tests
mkdir -p "$tmp"
printf '# %s GPU(s) visible: %s; %s host cores; commit %s\n' "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" \
	"$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)" "$(nproc)" \
	"${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
printf '%-36s %7s %7s %7s %8s %8s %4s %6s %s\n' job auto_s gpu_s cpu_s gpu_cmp cpu_cmp pick ratio same
wall() {  # backend args...: wall seconds, output in $tmp/out.$1, -v in $tmp/err.$1
	local be=$1; shift
	local s e
	# GAP=S: a pause before each run, so that each starts on a GPU that no process holds (the
	# driver's release of the run before, left to a child at exit, is over; src/core/exit.c)
	[ -n "${GAP:-}" ] && sleep "$GAP"
	s=$(date +%s.%N)
	"$cli" "$@" --backend $be -v -o "$tmp/out.$be" --stats "$tmp/st.$be" 2> "$tmp/err.$be" || { echo fail; return; }
	e=$(date +%s.%N)
	awk -v s=$s -v e=$e 'BEGIN { printf "%.3f", e - s }'
}
comp() { grep -soE '"compute":[0-9.]+' "$tmp/st.$1" | cut -d: -f2; }
med() {  # the median of the runs (of an even count, the lower middle); fail if any failed
	case " $* " in *" fail "*) echo fail; return ;; esac
	tr ' ' '\n' <<< "$*" | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "fail" }'
}
row() {  # label args...
	local lab=$1; shift
	local a="" g="" c="" k
	# the three in an order that changes run by run and row by row (ROTATE=1..5 shifts it for a
	# whole grid), through all six: a run right after another's large output can be slowed by
	# its write-back, and a GPU run that starts while the one before releases the device starts
	# in 0.02 s, not 0.2 (Round 9): rotations of one cycle alone put auto after cpu every time,
	# so the two cycles' orders alternate
	# REPS=N: N runs of each in turn, their medians (single runs of 10-300 ms jobs spread 10%)
	local orders=(gca gac agc acg cag cga) o x
	for ((k = 0; k < ${REPS:-1}; k++)); do
		o=${orders[$(( (NROW * ${REPS:-1} + k + ${ROTATE:-0}) % 6 ))]}
		for x in ${o:0:1} ${o:1:1} ${o:2:1}; do case $x in
			a) a="$a $(wall auto "$@")" ;; g) g="$g $(wall gpu "$@")" ;; c) c="$c $(wall cpu "$@")" ;;
		esac; done
	done
	a=$(med $a) g=$(med $g) c=$(med $c)
	NROW=$((NROW + 1))
	local pick; pick=$(grep -o 'auto on rank 0 ([^)]*): .*: the [A-Z]*' "$tmp/err.auto" | grep -oE '[A-Z]+$' | head -1)
	local same=yes
	for b in gpu cpu; do cmp -s <(grep -v '^#' "$tmp/out.$b") <(grep -v '^#' "$tmp/out.auto") || same=NO; done
	printf '%-36s %7s %7s %7s %8s %8s %4s %6s %s\n' "$lab" $a $g $c "$(comp gpu)" "$(comp cpu)" "${pick:--}" \
		"$(awk -v a=$a -v g=$g -v c=$c 'BEGIN { m = g < c ? g : c; if (a == "fail" || m <= 0) print "-"; else printf "%.2f", a / m }')" $same
}
G=$T/rkt_genpairs NROW=0
for s in $sections; do case $s in
rkt)
	head -2000 "$data/paper-reads/5k.fasta" > "$tmp/1k.fa"
	row "rkt 1k k=3 t=5 tau=12" "$tmp/1k.fa" -k 3 -t 5 -tau 12
	for p in "1 1000 15" "3 1000 15" "10 1000 15" "1 100 30" "3 100 30" "10 100 30"; do
		set -- $p
		row "rkt 5k k=$1 t=$2 tau=$3" "$data/paper-reads/5k.fasta" -k $1 -t $2 -tau $3
	done
	row "rkt 25k k=3 t=1000 tau=15" "$data/paper-reads/25k.fasta" -k 3 -t 1000 -tau 15 ;;
ham)
	row "hamming mers46 47 x 29.7k" hamming "$data/mers46_parsnp_core.fasta"
	row "hamming 16S 5181 x 7682 (gz)" hamming "$data/rRNA16S.gold.NAST_ALIGNED.fasta.gz"
	$T/rkt_genaln 2000 10000 1 1 > "$tmp/h2k.fa"; row "hamming 2k x 10k, 1%" hamming "$tmp/h2k.fa"
	$T/rkt_genaln 20000 30000 1 1 > "$tmp/h20k.fa"; row "hamming 20k x 30k --max-dist 50" hamming "$tmp/h20k.fa" --max-dist 50
	$T/rkt_genaln 400 500000 2 1 > "$tmp/hlong.fa"; row "hamming 400 x 500k, 2%" hamming "$tmp/hlong.fa" ;;
lev)
	$G 1 100 5 1 "$tmp/ta.fa" "$tmp/tb.fa"; row "lev 100 bp pair" lev "$tmp/ta.fa" "$tmp/tb.fa"
	$G 1 20000 -1 2 "$tmp/a20.fa" "$tmp/b20.fa"; row "lev 20 kb random pair" lev "$tmp/a20.fa" "$tmp/b20.fa"
	$G 1 100000 -1 3 "$tmp/a100.fa" "$tmp/b100.fa"; row "lev 100 kb random pair" lev "$tmp/a100.fa" "$tmp/b100.fa"
	$G 1 1000000 1 4 "$tmp/a1s.fa" "$tmp/b1s.fa"; row "lev 1 Mb pair at 1%" lev "$tmp/a1s.fa" "$tmp/b1s.fa"
	row "lev --path 1 Mb pair at 1%" lev "$tmp/a1s.fa" "$tmp/b1s.fa" --path
	$G 1 10000000 1 7 "$tmp/a10s.fa" "$tmp/b10s.fa"; row "lev 10 Mb pair at 1%" lev "$tmp/a10s.fa" "$tmp/b10s.fa"
	row "lev --path 10 Mb pair at 1%" lev "$tmp/a10s.fa" "$tmp/b10s.fa" --path
	$G 1 1000000 -1 7 "$tmp/a1r.fa" "$tmp/b1r.fa"; row "lev 1 Mb random pair" lev "$tmp/a1r.fa" "$tmp/b1r.fa"
	$G 1 3000000 -1 8 "$tmp/a3r.fa" "$tmp/b3r.fa"; row "lev 3 Mb random pair" lev "$tmp/a3r.fa" "$tmp/b3r.fa"
	$G 10000 150 5 5 "$tmp/p10a.fa" "$tmp/p10b.fa"; row "lev 10k pairs 150 bp 5%" lev "$tmp/p10a.fa" "$tmp/p10b.fa"
	$G 1000000 150 5 3 "$tmp/sa.fa" "$tmp/sb.fa"; row "lev 1M pairs 150 bp 5%" lev "$tmp/sa.fa" "$tmp/sb.fa"
	row "lev --path 1M pairs 150 bp 5%" lev "$tmp/sa.fa" "$tmp/sb.fa" --path
	row "lev --all 10k x 150 --max-dist 10" lev --all "$tmp/p10a.fa" --max-dist 10
	RKTLCS_ALL_NOFILTER=1 row "lev --all 10k x 150, every pair" lev --all "$tmp/p10a.fa" --max-dist 10
	zcat "$data/ERR127302_1_subset.fastq.gz" > "$tmp/err.fq"; row "lev --all ERR127302 --max-dist 4" lev --all "$tmp/err.fq" --max-dist 4 ;;
lcs)
	[ -e "$tmp/a100.fa" ] || $G 1 100000 -1 3 "$tmp/a100.fa" "$tmp/b100.fa"
	[ -e "$tmp/a1r.fa" ] || $G 1 1000000 -1 7 "$tmp/a1r.fa" "$tmp/b1r.fa"
	[ -e "$tmp/sa.fa" ] || $G 1000000 150 5 3 "$tmp/sa.fa" "$tmp/sb.fa"
	[ -e "$tmp/a10s.fa" ] || $G 1 10000000 1 7 "$tmp/a10s.fa" "$tmp/b10s.fa"
	row "lcs 10 Mb pair at 1%" lcs "$tmp/a10s.fa" "$tmp/b10s.fa"
	row "lcs --path --seq 10 Mb pair at 1%" lcs "$tmp/a10s.fa" "$tmp/b10s.fa" --path --seq
	row "lcs 100 kb random pair" lcs "$tmp/a100.fa" "$tmp/b100.fa"
	row "lcs 1 Mb random pair" lcs "$tmp/a1r.fa" "$tmp/b1r.fa"
	row "lcs --path --seq 1 Mb random pair" lcs "$tmp/a1r.fa" "$tmp/b1r.fa" --path --seq
	row "lcs 1M pairs 150 bp 5%" lcs "$tmp/sa.fa" "$tmp/sb.fa"
	row "lcs --path 1M pairs 150 bp 5%" lcs "$tmp/sa.fa" "$tmp/sb.fa" --path ;;
esac; done
rm -rf "$tmp"
