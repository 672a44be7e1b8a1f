#!/bin/bash
# The 1-2-4 GPU study of every mode (issues 29-32) on one node of 4 GPUs, in parts that each fit
# one device call (10 min): one rank per GPU, and 2 ranks per GPU at 4 GPUs (np 8). Every
# series runs its own baseline (1 GPU) in the same job and checks that every output equals the
# baseline's. Built on jobs/scale.sh (CSV rows in OUTDIR/scale/scale.csv), jobs/bench-split.sh and
# jobs/bench-start.sh / jobs/bench-auto.sh; a table of each part is printed last.
# Usage: jobs/study4.sh BUILD_DIR PART...   (OUT: where results go [/tmp/out]; DATA: inputs [/tmp/study])
# Parts:
#   start    bench-start.sh: a GPU rank's start-up at np 1 and one rank per GPU
#   split    a 10 Mb random pair, lev / lcs with and without --path, np 1 2 4 8; then a 100 Mb
#            pair 1% apart, lev --path and lcs --seq --path, np 1 2 4 (each under SPLIT100_T s;
#            SPLIT100=0: not run)
#   ham      hamming 100,000 x 30,000 --max-dist 50 strong (np 1 2 4 8); weak, 100,000 x sqrt(GPUs)
#   rkt      Rkt-LCS 1,000,000 x 51 bp, k=3 t=1000 tau=15, strong (np 1 2 4 8); generates the
#            hambig inputs on one core meanwhile
#   rktweak  Rkt-LCS weak: 250,000 reads x sqrt(GPUs) and 250,000 per GPU; 200,000 reads at
#            k=10 (the user's settings) on 1 and 4 GPUs
#   hambig   hamming 1,000,000 x 30,000 --max-dist 20 on 4 GPUs; 3,745 x 4,988,504 (2% variable)
#            full matrix on 1 and 4 GPUs and on the CPU backend with every core
#   rktsqrt  the first of rktweak's series alone
#   auto     bench-auto.sh: auto against gpu and cpu, one process on this node
set -uo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:?BUILD_DIR}" && pwd); shift
OUT=${OUT:-/tmp/out} DATA=${DATA:-/tmp/study}
cli=$build/rktlcs T=$build/tests
mkdir -p "$OUT/scale" "$DATA"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
commit=${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}
printf '# %s x %s; %s host cores, %s GB; commit %s\n' "$ngpu" "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" \
	"$(nproc)" "$(awk '/MemTotal/ { printf "%d", $2 / 1048576 }' /proc/meminfo)" "$commit" | tee -a "$OUT/study.txt"
MPI="mpirun --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
scale() {  # NAME VAR=VALUE...: one scale.sh series into $OUT/scale, its own working dir
	local name=$1; shift
	env "$@" RKTLCS="$cli" GPUS=$G MPIRUN="$MPI" OUTDIR="$OUT/scale/$name" bash jobs/scale.sh > "$OUT/scale/$name.log" 2>&1
	local r=$?
	tail -n +2 "$OUT/scale/$name/scale.csv" 2> /dev/null >> "$OUT/scale/all.csv"
	[ $r -eq 0 ] || echo "FAILED: $name: $(tail -3 "$OUT/scale/$name.log")" | tee -a "$OUT/study.txt"
	[ -n "${KEEP:-}" ] || rm -f "$OUT/scale/$name"/out_*.tsv
}
# a dry run of the script's logic on a machine without GPUs: STUDY_BACKEND=cpu SCALE_DOWN=1000
B=${STUDY_BACKEND:-gpu} G=1; [ "$B" = gpu ] || G=0
z() { echo $(( $1 / ${SCALE_DOWN:-1} )); }
[ -s "$OUT/scale/all.csv" ] || echo "mode,input,kind,ranks,gpus,threads,wall_s,compute_s,efficiency,mpirun_s,items,max_rss_mb" > "$OUT/scale/all.csv"
gen() {  # FILE COMMAND...: made once
	[ -s "$1" ] || { local f=$1; shift; "$@" > "$f.tmp" && mv "$f.tmp" "$f"; }
}
for part in "$@"; do
	s0=$(date +%s)
	echo "=== $part" | tee -a "$OUT/study.txt"
	case $part in
	start) REPS=3 bash jobs/bench-start.sh "$build" "${SHARED_DATA:-.deps/data}" 2>&1 | tee "$OUT/start.txt" | tail -20 ;;
	split)
		bash jobs/bench-split.sh "$build" "$(z 10000000)" "$B" "2 4 8" "$DATA/split10" > "$OUT/split10.txt" 2>&1
		cp "$DATA/split10"/*.csv "$OUT/" 2> /dev/null
		for f in split.csv split_ranks.csv; do mv "$OUT/$f" "$OUT/split10_$f" 2> /dev/null; done
		grep -E 'np=|FAIL' "$OUT/split10.txt"
		if [ "${SPLIT100:-1}" = 1 ]; then
			DIV=1 PATHS=1 timeout "${SPLIT100_T:-300}" bash jobs/bench-split.sh "$build" "$(z 100000000)" "$B" "2 4" "$DATA/split100" > "$OUT/split100.txt" 2>&1 \
				|| echo "split100: exit $? (timeout ${SPLIT100_T:-300} s?)"
			cp "$DATA/split100/split.csv" "$OUT/split100_split.csv" 2> /dev/null
			cp "$DATA/split100/split_ranks.csv" "$OUT/split100_split_ranks.csv" 2> /dev/null
			grep -E 'np=|FAIL' "$OUT/split100.txt"
		fi
		grep -h 'split:' "$DATA"/split100/err_*.log "$DATA"/split10/err_*.log 2> /dev/null | head -20 > "$OUT/split_plans.txt" ;;
	ham)
		gen "$DATA/h100k.fa" "$T/rkt_genaln" "$(z 100000)" 30000 1 1
		scale ham100k MODE=hamming INPUT="$DATA/h100k.fa" ARGS="--max-dist 50" RANKS="1 2 4 8" LABEL=100kx30k
		scale hamweak MODE=hamming KIND=weak WEAK_SCALE=sqrt WEAK_UNIT="$(z 100000)" WEAK_DIR="$DATA" \
			WEAK_GEN="$T/rkt_genaln {n} 30000 1 1" ARGS="--max-dist 50" RANKS="1 2 4" LABEL=100kxsqrtG-x30k ;;
	rkt)
		# the hambig inputs on one core meanwhile (Rkt-LCS keeps the GPUs busy; said in the log)
		( gen "$DATA/h1m.fa" "$T/rkt_genaln" "$(z 1000000)" 30000 1 1; gen "$DATA/h3745.fa" "$T/rkt_genaln" 3745 "$(z 4988504)" 2 1 ) &
		gpid=$!
		gen "$DATA/r1m.fa" "$T/rkt_genreads" "$(z 1000000)" 51 1
		scale rkt1m MODE=rkt INPUT="$DATA/r1m.fa" ARGS="-k 3 -t 1000 -tau 15" RANKS="1 2 4 8" LABEL=1Mx51-k3
		echo "generator running alongside: $(kill -0 $gpid 2> /dev/null && echo yes || echo finished)" | tee -a "$OUT/study.txt"
		wait $gpid ;;
	rktsqrt)  # the sqrt weak series alone
		scale rktweaksqrt MODE=rkt KIND=weak WEAK_SCALE=sqrt WEAK_UNIT="$(z 250000)" WEAK_DIR="$DATA" \
			WEAK_GEN="$T/rkt_genreads {n} 51 3" ARGS="-k 3 -t 1000 -tau 15" RANKS="1 2 4" LABEL=250kxsqrtG ;;
	rktweak)
		scale rktweaksqrt MODE=rkt KIND=weak WEAK_SCALE=sqrt WEAK_UNIT="$(z 250000)" WEAK_DIR="$DATA" \
			WEAK_GEN="$T/rkt_genreads {n} 51 3" ARGS="-k 3 -t 1000 -tau 15" RANKS="1 2 4" LABEL=250kxsqrtG
		scale rktweaklin MODE=rkt KIND=weak WEAK_UNIT="$(z 250000)" WEAK_DIR="$DATA" \
			WEAK_GEN="$T/rkt_genreads {n} 51 3" ARGS="-k 3 -t 1000 -tau 15" RANKS="1 2 4" LABEL=250k-per-GPU
		gen "$DATA/r200k.fa" "$T/rkt_genreads" "$(z 200000)" 51 1
		scale rkt200k MODE=rkt INPUT="$DATA/r200k.fa" ARGS="-k 10 -t 1000 -tau 15" RANKS="1 4" LABEL=200kx51-k10 ;;
	hambig)
		gen "$DATA/h1m.fa" "$T/rkt_genaln" "$(z 1000000)" 30000 1 1
		gen "$DATA/h3745.fa" "$T/rkt_genaln" 3745 "$(z 4988504)" 2 1
		scale ham1m MODE=hamming INPUT="$DATA/h1m.fa" ARGS="--max-dist 20" RANKS="4" LABEL=1Mx30k-d20
		# the CPU backend with every core, in the same job, and its output against the GPUs'
		s=$(date +%s.%N)
		"$cli" hamming "$DATA/h3745.fa" --backend cpu --threads "$(nproc)" -q --stats "$OUT/scale/ham3745_cpu.json" -o "$DATA/h3745_cpu.tsv"
		echo "hamming 3745x5M-2pc cpu, $(nproc) threads: wall $(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s, in-process $(grep -o '"wall":[0-9.]*' "$OUT/scale/ham3745_cpu.json" | cut -d: -f2) s" | tee -a "$OUT/study.txt"
		KEEP=1 scale ham3745 MODE=hamming INPUT="$DATA/h3745.fa" ARGS="" RANKS="1 4" LABEL=3745x5M-2pc
		cmp -s "$DATA/h3745_cpu.tsv" "$OUT/scale/ham3745/out_1.tsv" && echo "3745x5M: the CPU's output = the GPUs'" | tee -a "$OUT/study.txt" \
			|| echo "3745x5M: THE CPU'S OUTPUT DIFFERS" | tee -a "$OUT/study.txt"
		rm -f "$OUT/scale/ham3745"/out_*.tsv "$DATA/h3745_cpu.tsv" ;;
	auto) bash jobs/bench-auto.sh "$build" "${SHARED_DATA:-.deps/data}" 2>&1 | tee "$OUT/auto.txt" | tail -32 ;;
	*) echo "unknown part $part" ;;
	esac
	echo "($part: $(( $(date +%s) - s0 )) s)" | tee -a "$OUT/study.txt"
done
echo "--- scale rows (in-process wall_s, whole mpirun_s, efficiency)"
{ column -t -s, "$OUT/scale/all.csv" 2> /dev/null || cat "$OUT/scale/all.csv"; } | tail -n 40
