#!/bin/bash
# Multi-GPU scaling of Rkt-LCS: the same synthetic reads on 1 rank (1 GPU) and on N ranks
# (one GPU each: rank -> device by node-local rank), outputs compared byte for byte.
# Usage: jobs/scale-rkt-gpu.sh [BUILD_DIR] [READS] [RANKS...]   (default: build 200000 2)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} n=${2:-200000}; shift 2 2>/dev/null; ranks=${*:-2}
cli=$build/rktlcs tmp=${TMPDIR:-/tmp}/rkscale.$$
mkdir -p "$tmp"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$build/tests/rkt_genreads" $n 51 1 > "$tmp/reads.fa"
ngpu=$(nvidia-smi -L | wc -l)
printf '# %s x %s; commit %s; %s reads x 51 bp, k=3 t=1000 tau=15\n' "$ngpu" "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" \
	"${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}" $n
t() { local s=$(date +%s.%N); "$@"; awk -v s=$s -v e=$(date +%s.%N) 'BEGIN { printf "%.2f", e - s }' > "$tmp/t"; }
t mpirun -np 1 -x LD_LIBRARY_PATH "$cli" "$tmp/reads.fa" -k 3 -t 1000 -tau 15 --backend gpu -o "$tmp/o1.tsv" --candidates "$tmp/c1.tsv" -q
t1=$(cat "$tmp/t")
printf '%-6s %9s %8s %s\n' ranks wall_s speedup same_output
printf '%-6s %9s %8s %s\n' 1 $t1 1.00 -
for np in $ranks; do
	t mpirun -np $np -x LD_LIBRARY_PATH "$cli" "$tmp/reads.fa" -k 3 -t 1000 -tau 15 --backend gpu -o "$tmp/o$np.tsv" --candidates "$tmp/c$np.tsv" -q
	tn=$(cat "$tmp/t")
	same=no; cmp -s "$tmp/o1.tsv" "$tmp/o$np.tsv" && cmp -s "$tmp/c1.tsv" "$tmp/c$np.tsv" && same=yes
	printf '%-6s %9s %8s %s\n' $np $tn "$(awk -v a=$t1 -v b=$tn 'BEGIN { printf "%.2f", a / b }')" $same
done
rm -rf "$tmp"
