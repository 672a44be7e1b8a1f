#!/bin/bash
# hamming on the GPU: the 16S alignment (matrix and --max-dist) on GPU and CPU in the same
# job, and a 100,000 x 30,000 synthetic alignment (~1% variable) with --max-dist 50, end to
# end (reading 3 GB of FASTA included). Prints one table.
# Usage: jobs/bench-ham-gpu.sh [BUILD_DIR] [N=100000]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} n=${2:-100000}
data=${SHARED_DATA:-../shared/data}
tmp=${TMPDIR:-/tmp}/rkhg.$$
mkdir -p "$tmp"
cli=$build/rktlcs
zcat "$data/rRNA16S.gold.NAST_ALIGNED.fasta.gz" > "$tmp/16s.fa"
"$build/tests/rkt_genaln" $n 30000 1 1 > "$tmp/big.fa"
printf '# GPU %s; CPU %s cores; commit %s\n' "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" "$(nproc)" \
	"${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
printf '%-20s %-16s %-4s %9s %9s %9s %9s %12s %s\n' input options be wall_s read_s compute_s kernel_s pairs_out informative_cols
for c in "16s.fa|16S 5181x7682|" "16s.fa|16S 5181x7682|--max-dist 100" "big.fa|syn ${n}x30000|--max-dist 50"; do
	IFS='|' read -r f lab args <<< "$c"
	for be in gpu cpu; do
		[ $f = big.fa ] && [ $be = cpu ] && [ -z "${BIG_CPU:-}" ] && continue
		rm -f "$tmp/st.json"; s=$(date +%s.%N); "$cli" hamming $args --backend $be -o "$tmp/out" --stats "$tmp/st.json" "$tmp/$f" 2> "$tmp/err"; e=$(date +%s.%N)
		rd=$(grep -soE '"read":[0-9.]+' "$tmp/st.json" | cut -d: -f2) co=$(grep -soE '"compute":[0-9.]+' "$tmp/st.json" | cut -d: -f2)
		[ -n "$rd" ] || rd=nan; [ -n "$co" ] || co=nan
		k=$(grep -oE 'kernels [0-9.]+' "$tmp/err" | grep -oE '[0-9.]+' || echo -)
		cols=$(grep -oE '\([0-9]+ informative' "$tmp/err" | grep -oE '[0-9]+')
		printf '%-20s %-16s %-4s %9s %9.2f %9.2f %9s %12s %s\n' "$lab" "${args:--}" $be "$(awk -v s=$s -v e=$e 'BEGIN { printf "%.2f", e - s }')" "$rd" "$co" $k \
			"$(wc -l < "$tmp/out")" "$cols"
	done
done
rm -rf "$tmp"
