#!/bin/bash
# Rkt-LCS GPU benchmark. Prints one table: wall time (process start included), kernel time,
# cell updates per second (m(m-1)/2 * l^2 cells over kernel time) and the winner's length;
# for the paper's 5k reads the CPU backend runs in the same job (all cores) for a ratio,
# next to the paper's own MPI+CUDA figures (np=4 on one H100, from the issue).
# Usage: jobs/bench-rkt-gpu.sh [BUILD_DIR] [SECTIONS]   sections: paper scale mplex big (1M reads),
#   once (each pair walked once against the walk-twice baseline, RKTLCS_RKT_GPU_TWICE=1, in the
#   same job: paper 5k k=10, 200k synthetic, multiplex; outputs compared), once-big (the same, 1M)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} sections=${2:-paper scale mplex}
data=${SHARED_DATA:-../shared/data}
cli=$build/rktlcs gen=$build/tests/rkt_genreads
tmp=${TMPDIR:-/tmp}/rkbench.$$
mkdir -p "$tmp"
[ -x "$cli" ] && [ -x "$gen" ] || { echo "build first" >&2; exit 1; }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
printf '# GPU %s; CPU %s x %s cores; commit %s\n' "${gpu:-none}" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" \
	"$(nproc)" "${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo none)}"
rows=()
run() {  # label m l k t tau file [extra args]; sets wall kern len
	local lab=$1 m=$2 l=$3 k=$4 t=$5 tau=$6 f=$7; shift 7
	/usr/bin/time -f '%e' -o "$tmp/time" "$cli" "$f" -k $k -t $t -tau $tau -o "$tmp/out.tsv" "$@" 2> "$tmp/err"
	wall=$(tail -1 "$tmp/time")
	kern=$(grep -oE 'kernels [0-9.]+ s' "$tmp/err" | grep -oE '[0-9.]+' || echo -)
	len=$(grep -v '^#' "$tmp/out.tsv" | sed -n 2p | cut -f4)
	local cps=-
	[ "$kern" != - ] && cps=$(awk -v m=$m -v l=$l -v s=$kern 'BEGIN { printf "%.3g", m * (m - 1) / 2 * l * l / s }')
	rows+=("$(printf '%-16s %8s %4s %3s %5s %4s %9s %9s %10s %5s' "$lab" $m $l $k $t $tau "$wall" "$kern" "$cps" "${len:--}")")
	echo "${rows[-1]}   $*" >&2
}
hdr=$(printf '%-16s %8s %4s %3s %5s %4s %9s %9s %10s %5s' input reads len k t tau wall_s kernel_s cells/s win)
paper_ref=("1 1000 15 4.5" "3 1000 15 4.5" "10 1000 15 122.6" "1 100 30 4.3" "3 100 30 4.5" "10 100 30 4.7")
cmp_rows=()
for s in $sections; do case $s in
paper)
	for p in "${paper_ref[@]}"; do
		set -- $p
		run "paper-5k" 5000 51 $1 $2 $3 "$data/paper-reads/5k.fasta" --backend gpu
		g=$wall
		run "paper-5k-cpu" 5000 51 $1 $2 $3 "$data/paper-reads/5k.fasta" --backend cpu
		cmp_rows+=("$(awk -v k=$1 -v t=$2 -v tau=$3 -v g=$g -v c=$wall -v p=$4 -v n=$(nproc) 'BEGIN { printf "5k k=%-2s t=%-4s tau=%-2s  gpu %6.2f s  cpu(%s cores) %6.2f s  cpu/gpu %5.1fx  paper MPI+CUDA %6.1f s  paper/gpu %6.0fx", k, t, tau, g, n, c, c / g, p, p / g }')")
	done
	for n in 10k 20k 25k; do
		m=$(grep -c '>' "$data/paper-reads/$n.fasta")
		run "paper-$n" $m 51 1 1000 15 "$data/paper-reads/$n.fasta" --backend gpu
		run "paper-$n" $m 51 3 1000 15 "$data/paper-reads/$n.fasta" --backend gpu
	done ;;
scale)
	for n in 100000 200000; do
		"$gen" $n 51 1 > "$tmp/syn.fa"
		run "synthetic" $n 51 3 1000 15 "$tmp/syn.fa" --backend gpu
	done ;;
big)
	"$gen" 1000000 51 1 > "$tmp/syn.fa"
	run "synthetic" 1000000 51 3 1000 15 "$tmp/syn.fa" --backend gpu ;;
"once"|"once-big")
	if [ $s = once ]; then "$gen" 200000 51 1 > "$tmp/syn.fa"; sets=("paper-5k 5000 51 10 1000 15 $data/paper-reads/5k.fasta"
		"synthetic 200000 51 3 1000 15 $tmp/syn.fa" "multiplex 100000 100 3 1000 15 $data/multiplex_bad_contam_1.fq.gz")
	else "$gen" 1000000 51 1 > "$tmp/syn.fa"; sets=("synthetic 1000000 51 3 1000 15 $tmp/syn.fa"); fi
	for x in "${sets[@]}"; do
		set -- $x
		export RKTLCS_RKT_GPU_TWICE=1
		run "$1-twice" $2 $3 $4 $5 $6 $7 --backend gpu
		unset RKTLCS_RKT_GPU_TWICE
		w2=$wall k2=$kern; cp "$tmp/out.tsv" "$tmp/twice.tsv"
		run "$1-once" $2 $3 $4 $5 $6 $7 --backend gpu
		cmp -s "$tmp/out.tsv" "$tmp/twice.tsv" && same="outputs identical" || same="OUTPUTS DIFFER"
		cmp_rows+=("$(awk -v n="$1 $2 x $3 k=$4 t=$5 tau=$6" -v a=$w2 -v b=$wall -v c=$k2 -v d=$kern -v s="$same" 'BEGIN { printf "%-36s twice %8.2f s (kernel %8.2f)  once %8.2f s (kernel %8.2f)  kernel ratio %.2fx  %s", n, a, c, b, d, c / d, s }')")
	done ;;
mplex)
	run "multiplex" 100000 100 3 100 15 "$data/multiplex_bad_contam_1.fq.gz" --backend gpu
	run "multiplex" 100000 100 3 1000 15 "$data/multiplex_bad_contam_1.fq.gz" --backend gpu ;;
esac; done
echo "$hdr"
printf '%s\n' "${rows[@]}"
[ ${#cmp_rows[@]} -gt 0 ] && printf '%s\n' "${cmp_rows[@]}"
rm -rf "$tmp"
