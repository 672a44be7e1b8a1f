#!/bin/bash
# BGZF output against plain output (issue 61): the same job written to OUT.tsv and OUT.tsv.gz,
# wall and user CPU of each (best of REPS), sizes, and the ratio; both outputs' rows compared
# (zcat). Jobs: lev --all on 3,000 unrelated 150 bp reads (4.5M rows), hamming --max-dist 50 on
# a 100,000 x 2,000 synthetic alignment (GZ_HAM_N; auto: the GPU where there is one). A table last.
# Usage: jobs/bench-gz.sh BUILD_DIR [THREADS=all] [REPS=2] [TMP=/tmp/bench-gz]
set -uo pipefail
b=$1 th=${2:-$(nproc)} reps=${3:-2} tmp=${4:-/tmp/bench-gz}
mkdir -p "$tmp"
"$b/tests/rkt_genpairs" 3000 150 -1 8 "$tmp/a.fa" "$tmp/b.fa" > /dev/null
"$b/tests/rkt_genaln" "${GZ_HAM_N:-100000}" 2000 1 1 > "$tmp/aln.fa"
best() {  # command... -> "wall user" of the fastest of $reps runs
	local w u bw=999999 bu=0
	for _ in $(seq "$reps"); do
		/usr/bin/time -f "%e %U" -o "$tmp/t" "$@" || { echo "FAILED: $*" >&2; echo "nan nan"; return; }
		read -r w u < "$tmp/t"
		if [ "$(echo "$w < $bw" | bc)" = 1 ]; then bw=$w bu=$u; fi
	done
	echo "$bw $bu"
}
rows=()
for job in "lev --all|lev --all $tmp/a.fa --backend cpu" "hamming ${GZ_HAM_N:-100000} --max-dist 50|hamming --max-dist 50 $tmp/aln.fa"; do
	name=${job%%|*} args=${job#*|}
	read -r pw pu <<< "$(best "$b/rktlcs" $args --threads "$th" -q -o "$tmp/o.tsv")"
	read -r gw gu <<< "$(best "$b/rktlcs" $args --threads "$th" -q -o "$tmp/o.tsv.gz")"
	same=yes; cmp -s <(grep -v '^#' "$tmp/o.tsv") <(zcat "$tmp/o.tsv.gz" | grep -v '^#') || same=NO
	ps=$(stat -c %s "$tmp/o.tsv") gs=$(stat -c %s "$tmp/o.tsv.gz")
	rows+=("$(printf '| %s | %d | %.1f MB | %.1f MB (%.1fx) | %.2f s | %.2f s (%.2fx) | %.2f s | %.2f s | %s |' "$name" \
		"$(grep -vc '^#' "$tmp/o.tsv")" "$(echo "$ps / 1000000" | bc -l)" "$(echo "$gs / 1000000" | bc -l)" "$(echo "$ps / $gs" | bc -l)" \
		"$pw" "$gw" "$(echo "$gw / $pw" | bc -l)" "$pu" "$gu" "$same")")
done
echo "bench-gz: $(nproc) CPUs, --threads $th, best of $reps, $("$b/rktlcs" --version | head -1)"
echo "| job | rows | plain | BGZF | plain wall | BGZF wall | plain user | BGZF user | same rows |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
