#!/bin/bash
# The command as users type it (issue 57): every mode at np 1, 2, 4, 8, 16, 32 on one node,
# whatever its GPU count, with the default backend (auto) and with --backend gpu. Each run's
# output must equal np 1's; the table gives mpirun's wall (the whole job, launcher included),
# the in-process wall and compute stage (--stats), and the ratio to np 1. The first rows are
# the launcher's floor: a job of two 10 bp sequences on the CPU, so that what the ranks cost
# rktlcs can be told from what they cost mpirun.
# Usage: jobs/bench-ranks.sh BUILD [JOBS] [RANKS="1 2 4 8 16 32"] [OUTDIR=/tmp/ranks]
#   JOBS: names from: rkt rkt200k ham20k ham100k levlong levbatch levall lcsbatch [all of them]
# Writes OUTDIR/ranks.csv (docs/scaling/*.csv's columns) and prints the table last.
set -uo pipefail
build=$1 jobs=${2:-rkt ham20k ham100k levlong levbatch levall lcsbatch} ranks=${3:-1 2 4 8 16 32} out=${4:-/tmp/ranks}
cli=$PWD/$build/rktlcs T=$PWD/$build/tests
[ -x "$cli" ] || { echo "no $cli" >&2; exit 1; }
mkdir -p "$out"
commit=$(git rev-parse --short HEAD 2> /dev/null || echo ?)
ngpu=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU')
MPIRUN=${MPIRUN:-mpirun --oversubscribe --bind-to none}
csv=$out/ranks.csv table=$out/table.txt
echo "mode,input,kind,ranks,gpus,threads,wall_s,compute_s,efficiency,mpirun_s,items,max_rss_mb,commit" > "$csv"
printf '%-34s %-5s %4s %9s %9s %9s %7s %s\n' job backend np mpirun_s wall_s compute_s vs_np1 output > "$table"
# run LABEL MODE BACKEND ARGS...: every rank count, outputs against np 1's
run() {
	local label=$1 mode=$2 be=$3; shift 3
	local t1="" ref="" p s0 mp wall comp rss same q
	for p in $ranks; do
		# at np VNP (16) -v: the split and the contexts, kept in OUTDIR/v_N.txt (N: the run's number)
		q=-q; [ "$p" = "${VNP:-16}" ] && q=-v
		rm -f "$out/o_$p.tsv"   # replacing an old output would free it inside the timed run
		s0=$(date +%s.%N)
		# shellcheck disable=SC2086  # MPIRUN is a list of words
		timeout 300 $MPIRUN -np "$p" "$cli" "$@" --backend "$be" $q --stats "$out/s.json" -o "$out/o_$p.tsv" 2> "$out/err_$p.txt"
		local rc=$?
		nrun=$((${nrun:-0} + 1))
		[ $q = -v ] && { echo "$label $be np $p" > "$out/v_$nrun.txt"; grep -E "ranks|contexts|auto on rank 0|split" "$out/err_$p.txt" | head -12 >> "$out/v_$nrun.txt"; }
		mp=$(awk -v a="$s0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
		wall=$(grep -o '"wall":[0-9.e+-]*' "$out/s.json" 2> /dev/null | cut -d: -f2)
		comp=$(grep -o '"compute":[0-9.e+-]*' "$out/s.json" 2> /dev/null | cut -d: -f2)
		rss=$(grep -o '"rank_peak_rss_mb":\[[^]]*' "$out/s.json" 2> /dev/null | sed 's/.*\[//' | tr ',' '\n' | sort -g | tail -1)
		rm -f "$out/s.json"
		if [ $rc -ne 0 ]; then same="FAILED (exit $rc): $(head -c 200 "$out/err_$p.txt")"
		elif [ -z "$ref" ]; then ref=$out/o_$p.tsv same=reference
		elif cmp -s "$ref" "$out/o_$p.tsv"; then same=identical; rm -f "$out/o_$p.tsv"
		else same=DIFFERS; fi
		[ -n "$t1" ] || t1=$mp
		printf '%-34s %-5s %4s %9s %9s %9s %7s %s\n' "$label" "$be" "$p" "$mp" "${wall:-?}" "${comp:-?}" \
			"$(awk -v a="$mp" -v b="$t1" 'BEGIN { printf "%.2f", a / b }')" "$same" | tee -a "$table"
		echo "$mode,${label//,/;},ranks-$be,$p,$ngpu,default,${wall:-},${comp:-},$(awk -v a="$mp" -v b="$t1" 'BEGIN { printf "%.3f", b / a }'),$mp,,${rss:-},$commit" >> "$csv"
	done
	rm -f "$out"/o_*.tsv
}
d=$out/data
mkdir -p "$d"
printf '>a\nACGTACGTAC\n>b\nACGTTCGTAC\n' > "$d/tiny.fa"
run "launcher floor (2 x 10 bp)" lev cpu lev "$d/tiny.fa" "$d/tiny.fa"
for j in $jobs; do
	case $j in
	rkt) [ -s "$d/r100k.fa" ] || "$T/rkt_genreads" 100000 51 1 > "$d/r100k.fa"
		for be in auto gpu; do run "rkt 100k x 51, k10 t1000 tau15" rkt $be "$d/r100k.fa" -k 10 -t 1000 -tau 15; done ;;
	rkt200k) [ -s "$d/r200k.fa" ] || "$T/rkt_genreads" 200000 51 1 > "$d/r200k.fa"
		for be in auto gpu; do run "rkt 200k x 51, k10 t1000 tau15" rkt $be "$d/r200k.fa" -k 10 -t 1000 -tau 15; done ;;
	ham20k) [ -s "$d/h20k.fa" ] || "$T/rkt_genaln" 20000 30000 1 1 > "$d/h20k.fa"
		for be in auto gpu; do run "hamming 20k x 30k, --max-dist 50" hamming $be hamming "$d/h20k.fa" --max-dist 50; done ;;
	ham100k) [ -s "$d/h100k.fa" ] || "$T/rkt_genaln" 100000 30000 1 1 > "$d/h100k.fa"
		for be in auto gpu; do run "hamming 100k x 30k, --max-dist 50" hamming $be hamming "$d/h100k.fa" --max-dist 50; done ;;
	levlong) [ -s "$d/l3a.fa" ] || "$T/rkt_genpairs" 1 3000000 -1 6 "$d/l3a.fa" "$d/l3b.fa" > /dev/null
		for be in auto gpu; do run "lev, one 3 Mb unrelated pair" lev $be lev "$d/l3a.fa" "$d/l3b.fa"; done ;;
	levbatch) [ -s "$d/p1a.fa" ] || "$T/rkt_genpairs" 1000000 150 5 1 "$d/p1a.fa" "$d/p1b.fa" > /dev/null
		for be in auto gpu; do run "lev 1M x 150 bp 5%, --path" lev $be lev "$d/p1a.fa" "$d/p1b.fa" --path; done ;;
	levall) [ -s "$d/a1.fa" ] || "$T/rkt_genpairs" 5000 150 -1 8 "$d/a1.fa" "$d/a1b.fa" > /dev/null
		for be in auto gpu; do run "lev --all 5k x 150 bp" lev $be lev --all "$d/a1.fa"; done ;;
	lcsbatch) [ -s "$d/p2a.fa" ] || "$T/rkt_genpairs" 100000 1000 5 2 "$d/p2a.fa" "$d/p2b.fa" > /dev/null
		for be in auto gpu; do run "lcs 100k x 1 kb 5%" lcs $be lcs "$d/p2a.fa" "$d/p2b.fa"; done ;;
	*) echo "bench-ranks: unknown job $j" >&2 ;;
	esac
done
echo
echo "=== $(nproc) CPUs, $ngpu GPU(s), commit $commit"
cat "$table"
