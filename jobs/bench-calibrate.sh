#!/bin/bash
# auto before and after `rktlcs calibrate` (issue 60): a grid of jobs of every mode, short and
# long, each forced on the CPU and on the GPU, then with auto on the built-in table and on this
# machine's calibrated rates; whole-process wall, best of REPS, and which backend auto took.
# Usage: jobs/bench-calibrate.sh BUILD DATA [REPS=2] [THREADS]
# KEEP=DIR: the rates file, calibrate's -v log and each auto run's weighing line are left there.
set -uo pipefail
build=${1:-build} data=${2:-../shared/data} reps=${3:-2} th=${4:-}
cli=$build/rktlcs gen=$build/tests/rkt_genpairs aln=$build/tests/rkt_genaln
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
keep=${KEEP:-$tmp}; mkdir -p "$keep"
thr=${th:+--threads $th}
t0=$(date +%s.%N)
"$cli" calibrate --rates "$tmp/rates.json" $thr -v 2> "$tmp/cal.err"
echo "# calibrate: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s; $(grep -c 'calibrate: .* on the' "$tmp/cal.err") probes"
grep 'the built-in table.s speed' "$tmp/cal.err" | sed 's/^\[rktlcs\] calibrate: /#   /'
cp "$tmp/cal.err" "$keep/calibrate.log" 2> /dev/null; cp "$tmp/rates.json" "$keep/rates.json" 2> /dev/null
"$gen" 1000000 150 5 1 "$tmp/p1a.fa" "$tmp/p1b.fa" > /dev/null
"$gen" 100000 150 15 2 "$tmp/p2a.fa" "$tmp/p2b.fa" > /dev/null
"$gen" 10000 1000 5 3 "$tmp/p3a.fa" "$tmp/p3b.fa" > /dev/null
"$gen" 1 200000 -1 4 "$tmp/l1a.fa" "$tmp/l1b.fa" > /dev/null
"$gen" 1 1000000 -1 5 "$tmp/l2a.fa" "$tmp/l2b.fa" > /dev/null
"$gen" 1 3000000 1 6 "$tmp/l3a.fa" "$tmp/l3b.fa" > /dev/null
"$gen" 1 20000 -1 7 "$tmp/l4a.fa" "$tmp/l4b.fa" > /dev/null
"$aln" 20000 3000 1 1 > "$tmp/h1.fa"; "$aln" 2000 30000 1 2 > "$tmp/h2.fa"; "$aln" 500 1000 1 3 > "$tmp/h3.fa"
"$gen" 3000 150 -1 8 "$tmp/a1.fa" "$tmp/a1b.fa" > /dev/null
P=$tmp
jobs=(
	"lev $P/p1a.fa $P/p1b.fa" "lev $P/p1a.fa $P/p1b.fa --path" "lcs $P/p2a.fa $P/p2b.fa" "lev $P/p2a.fa $P/p2b.fa --path"
	"lev $P/p3a.fa $P/p3b.fa" "lcs $P/p3a.fa $P/p3b.fa --seq --path"
	"lev $P/l1a.fa $P/l1b.fa" "lcs $P/l1a.fa $P/l1b.fa" "lev $P/l2a.fa $P/l2b.fa" "lcs $P/l2a.fa $P/l2b.fa --seq --path"
	"lev $P/l3a.fa $P/l3b.fa" "lev $P/l3a.fa $P/l3b.fa --path" "lev $P/l4a.fa $P/l4b.fa" "lcs $P/l4a.fa $P/l4b.fa"
	"hamming $P/h1.fa --max-dist 5" "hamming $P/h2.fa" "hamming $P/h3.fa"
	"lev --all $P/a1.fa" "lev --all $P/a1.fa --max-dist 3"
	"rkt $data/paper-reads/1k.fasta -k 3 -t 10 -tau 15" "rkt $data/paper-reads/5k.fasta -k 3 -t 10 -tau 15"
	"rkt $data/paper-reads/5k.fasta -k 1 -t 100 -tau 20" "rkt $data/paper-reads/10k.fasta -k 3 -t 10 -tau 15"
	"rkt $data/paper-reads/1k.fasta -k 2 -t 5 -tau 12"
)
best() {  # env prefix, args: best wall of reps; the pick of the last (auto's -v line)
	local b=9e9 t s
	for r in $(seq "$reps"); do
		# an output replaced is an old file freed inside the timed run (0.1 s for hamming's
		# 170 MB): every run writes a new file, as the first did
		rm -f "$tmp/o.tsv"
		# a pause first (GAP, 0.5 s): a run right after a GPU process may start its context late,
		# behind that one's teardown, and the grid's auto runs follow the forced GPU's
		sleep "${GAP:-0.5}"
		s=$(date +%s.%N)
		env $1 "$cli" $2 $thr -v -o "$tmp/o.tsv" 2> "$tmp/e" || { echo "FAIL"; return; }
		b=$(awk -v s="$s" -v e="$(date +%s.%N)" -v b="$b" 'BEGIN { t = e - s; printf "%.4f", t < b ? t : b }')
	done
	pick=$(grep -o 'auto on rank 0 ([^)]*): .*: the [A-Z]*' "$tmp/e" | grep -o '[A-Z]*$' | tail -1)
	{ echo "== $1 $2"; grep -E "auto on rank 0|auto.s rates|context ahead|stages" "$tmp/e"; } >> "$keep/auto.log"
	[ -z "$pick" ] && pick=$(grep -q 'no GPU context ahead\|using the CPU' "$tmp/e" && echo CPU || echo "?")
	printf '%.3f %s' "$b" "${pick}"
}
printf '%-62s %7s %7s %12s %12s\n' job cpu gpu "auto table" "auto calib"
for j in "${jobs[@]}"; do
	read -r c _ <<< "$(best "RKTLCS_RATES=builtin" "$j --backend cpu")"
	read -r g _ <<< "$(best "RKTLCS_RATES=builtin" "$j --backend gpu")"
	read -r a ap <<< "$(best "RKTLCS_RATES=builtin" "$j --backend auto")"
	read -r k kp <<< "$(best "RKTLCS_RATES=$tmp/rates.json" "$j --backend auto")"
	printf '%-62s %7s %7s %7s %-4s %7s %-4s\n' "${j//$P\//}" "$c" "$g" "$a" "$ap" "$k" "$kp"
done
