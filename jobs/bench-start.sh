#!/bin/bash
# Where a GPU rank's start-up goes (issue 29), three ways in the same job: "old", every GPU of
# the node visible to each rank and the CUDA runtime torn down at exit (RKTLCS_GPU_VISIBLE=all
# RKTLCS_EXIT_TEARDOWN=1, as before); "own+td", each rank seeing only its own GPU; "own", that and
# no teardown (the default). Rows: whole-process wall of `--version` (the driver starts every device), a 20 kb lev
# pair and Rkt-LCS on the paper's 5k reads (k=3 t=1000 tau=15) at np 1 and at one rank per GPU;
# and the -v stages of rank 0: process to main, MPI start, the driver and the context on the
# context thread. Median of REPS runs (default 3).
# Usage: jobs/bench-start.sh [BUILD_DIR] [DATA_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} data=${2:-${SHARED_DATA:-../shared/data}} reps=${REPS:-3}
cli=$build/rktlcs tmp=${TMPDIR:-/tmp}/rkst.$$
mkdir -p "$tmp"
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
"$build/tests/rkt_genpairs" 1 20000 -1 3 "$tmp/a.fa" "$tmp/b.fa"
printf '# %s x %s; %s host cores; commit %s\n' "$ngpu" "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" \
	"$(nproc)" "${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
one() {  # way np args...: prints wall and rank 0's -v stage figures
	local way=$1 np=$2; shift 2
	local pre=() vis=own td=0
	case $way in old) vis=all td=1 ;; own+td) td=1 ;; esac  # held: own, beside gpu_hold
	[ "$np" -gt 0 ] && pre=(mpirun --oversubscribe -np "$np" -x RKTLCS_GPU_VISIBLE -x RKTLCS_EXIT_TEARDOWN -x LD_LIBRARY_PATH)
	local s e; s=$(date +%s.%N)
	RKTLCS_GPU_VISIBLE=$vis RKTLCS_EXIT_TEARDOWN=$td "${pre[@]}" "$cli" "$@" > /dev/null 2> "$tmp/err"
	e=$(date +%s.%N)
	local main mpi drv ctx
	main=$(sed -n 's/.*process to main \([0-9.-]*\) s.*/\1/p' "$tmp/err" | head -1)
	mpi=$(sed -n 's/.*MPI start \([0-9.]*\) s.*/\1/p' "$tmp/err" | head -1)
	drv=$(sed -n 's/.*driver \([0-9.]*\) s, context.*/\1/p' "$tmp/err" | head -1)
	ctx=$(sed -n 's/.*driver [0-9.]* s, context \([0-9.]*\) s.*/\1/p' "$tmp/err" | head -1)
	echo "$(awk -v s=$s -v e=$e 'BEGIN { printf "%.3f", e - s }') ${main:--} ${mpi:--} ${drv:--} ${ctx:--}"
}
# HOLD=PATH of jobs/gpu_hold (built): a "held" row too, each GPU's driver state kept open by
# that process meanwhile, as persistence mode does (this machine's mode is printed)
held=
if [ -n "${HOLD:-}" ] && [ -x "$HOLD" ]; then
	echo "# persistence mode: $(nvidia-smi --query-gpu=persistence_mode --format=csv,noheader | sort | uniq -c | tr -s ' \n' ' ')"
fi
printf '%-28s %-6s %3s %8s %8s %8s %8s %8s\n' job way np wall_s main_s mpi_s driver_s ctx_s
[ -n "${HOLD:-}" ] && [ -x "$HOLD" ] && held=held
hold() {  # on|off: the holder beside the "held" way's runs only (the others start cold)
	if [ "$1" = on ]; then "$HOLD" 600 > "$tmp/hold" 2>&1 & hpid=$!
		for i in $(seq 100); do grep -q held "$tmp/hold" && break; sleep 0.1; done
	else kill "$hpid" 2> /dev/null; wait "$hpid" 2> /dev/null; sleep 1; fi
}
row() {  # label np args...
	local lab=$1 np=$2; shift 2
	for way in old own+td own $held; do
		[ $way = held ] && hold on
		for r in $(seq $reps); do one $way $np "$@"; done > "$tmp/runs"
		[ $way = held ] && hold off
		local w; w=$(cut -d' ' -f1 "$tmp/runs" | med)
		# the other columns from the median run
		set -- $(awk -v w=$w '$1 == w { print; exit }' "$tmp/runs") "$@"
		printf '%-28s %-6s %3s %8s %8s %8s %8s %8s\n' "$lab" $way $np $1 $2 $3 $4 $5
		shift 5
	done
}
row "--version" 0 --version
row "lev 20 kb pair" 0 lev "$tmp/a.fa" "$tmp/b.fa" --backend gpu -v
row "lev 20 kb pair" 1 lev "$tmp/a.fa" "$tmp/b.fa" --backend gpu -v
[ "$ngpu" -gt 1 ] && row "lev 20 kb pair" "$ngpu" lev "$tmp/a.fa" "$tmp/b.fa" --backend gpu -v
row "rkt 5k k=3 t=1000 tau=15" 0 "$data/paper-reads/5k.fasta" -k 3 -t 1000 -tau 15 --backend gpu -v
row "rkt 5k k=3 t=1000 tau=15" 1 "$data/paper-reads/5k.fasta" -k 3 -t 1000 -tau 15 --backend gpu -v
[ "$ngpu" -gt 1 ] && row "rkt 5k k=3 t=1000 tau=15" "$ngpu" "$data/paper-reads/5k.fasta" -k 3 -t 1000 -tau 15 --backend gpu -v
[ "$ngpu" -gt 1 ] && row "rkt 5k (2 ranks per GPU)" $((2 * ngpu)) "$data/paper-reads/5k.fasta" -k 3 -t 1000 -tau 15 --backend gpu -v
rm -rf "$tmp"
