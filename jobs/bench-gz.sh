#!/bin/bash
# BGZF output against plain output (issue 61): the same job written to OUT.tsv and OUT.tsv.gz,
# wall and user CPU of each (best of REPS), sizes, and the ratio; both outputs' rows compared
# (zcat). Jobs: lev --all on 3,000 unrelated 150 bp reads (4.5M rows), hamming --max-dist 50 on
# a 100,000 x 5,000 synthetic alignment (10% variable) (GZ_HAM_N; auto: the GPU where there is one). A table last.
# Usage: jobs/bench-gz.sh BUILD_DIR [THREADS=all] [REPS=2] [TMP=/tmp/bench-gz]
set -uo pipefail
b=$1 th=${2:-$(nproc)} reps=${3:-2} tmp=${4:-/tmp/bench-gz}
mkdir -p "$tmp"
"$b/tests/rkt_genpairs" 3000 150 -1 8 "$tmp/a.fa" "$tmp/b.fa" > /dev/null
"$b/tests/rkt_genaln" "${GZ_HAM_N:-100000}" 5000 10 1 > "$tmp/aln.fa"   # clusters: pairs inside one within 50
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }   # (no bc on the device machine)
best() {  # command... -> "wall user" of the fastest of $reps runs (each under 300 s)
	local w u bw=999999 bu=0
	for _ in $(seq "$reps"); do
		/usr/bin/time -f "%e %U" -o "$tmp/t" timeout 300 "$@" || { echo "FAILED: $*" >&2; echo "nan nan"; return; }
		read -r w u < "$tmp/t"
		echo "  $w s wall, $u s user: ${*: -1}" >&2
		if [ "$(calc "$w < $bw")" != 0.0000 ]; then bw=$w bu=$u; fi
	done
	echo "$bw $bu"
}
rows=()
echo "inputs made" >&2
for job in "lev --all|lev --all $tmp/a.fa --backend cpu" "hamming ${GZ_HAM_N:-100000} --max-dist 50|hamming --max-dist 50 $tmp/aln.fa"; do
	name=${job%%|*} args=${job#*|}
	read -r pw pu <<< "$(best "$b/rktlcs" $args --threads "$th" -q -o "$tmp/o.tsv")"
	read -r gw gu <<< "$(best "$b/rktlcs" $args --threads "$th" -q -o "$tmp/o.tsv.gz")"
	same=yes; cmp -s <(grep -v '^#' "$tmp/o.tsv") <(zcat "$tmp/o.tsv.gz" | grep -v '^#') || same=NO
	ps=$(stat -c %s "$tmp/o.tsv") gs=$(stat -c %s "$tmp/o.tsv.gz")
	rows+=("$(printf '| %s | %d | %.1f MB | %.1f MB (%.1fx) | %.2f s | %.2f s (%.2fx) | %.2f s | %.2f s | %s |' "$name" \
		"$(grep -vc '^#' "$tmp/o.tsv")" "$(calc "$ps / 1000000")" "$(calc "$gs / 1000000")" "$(calc "$ps / $gs")" \
		"$pw" "$gw" "$(calc "$gw / $pw")" "$pu" "$gu" "$same")")
done
echo "bench-gz: $(nproc) CPUs, --threads $th, best of $reps, $("$b/rktlcs" --version | head -1)"
echo "| job | rows | plain | BGZF | plain wall | BGZF wall | plain user | BGZF user | same rows |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
