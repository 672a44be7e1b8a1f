#!/bin/bash
# lev and lcs --format paf, read back by an independent reader (paf_check.py: replays cg:Z:
# on the sequences, recounts the columns and checks the optimum with its own DP): lev
# global, prefix and infix, with -k, --all and one record against many; lcs; the same bytes
# under mpirun -np 2; the GPU backend's bytes against the CPU's where a device is usable.
# The refusals: paf without --path, hamming and rkt with paf, --mode with --max-dist, a bad
# --mode (exit 1, one message).
# Usage: paf.sh RKTLCS PYTHON3 MPIEXEC TMPDIR TESTDATA
set -u
cli=$1 py=$2 mpiexec=$3 tmp=$4 data=$5 here=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/lib.sh"
t_begin "$tmp"
# reads (A), each planted with edits in a longer random reference (B); some of 1-3 bp
awk 'BEGIN { srand(7); for (i = 0; i < 30; i++) { n = i % 10 == 0 ? 1 + int(rand() * 3) : 20 + int(rand() * 120); s = ""
	for (k = 0; k < n; k++) s = s substr("ACGT", int(rand() * 4) + 1, 1); printf ">r%d\n%s\n", i, s } }' > A.fa
awk 'BEGIN { srand(8) } /^>/ { print ">t" substr($0, 3); next } { s = ""; for (k = int(rand() * 60); k > 0; k--) s = s substr("ACGT", int(rand() * 4) + 1, 1)
	for (p = 1; p <= length($0); p++) { r = rand(); c = substr($0, p, 1)
		if (r < 0.03) c = "G"; else if (r < 0.05) c = ""; else if (r < 0.07) c = c "T"; s = s c }
	for (k = int(rand() * 60); k > 0; k--) s = s substr("ACGT", int(rand() * 4) + 1, 1); print s }' A.fa > B.fa
awk '/^>/ { n++ } n <= 12' A.fa > few.fa
head -2 A.fa | sed -n 1,2p > one.fa
sed -n 4p A.fa | sed 's/^/>q\n/' > q.fa
run() {   # run KIND K ARGS...: rktlcs ... --path --format paf, then paf_check.py KIND on its inputs
	local kind=$1 k=$2; shift 2
	local fa fb
	if [[ " $* " == *" --all "* ]]; then fa=${@: -1} fb=-; else fa=${@: -2:1} fb=${@: -1}; fi
	if ! "$cli" "$@" --path --format paf -q -o out.paf; then bad "$*: exit $?"; return; fi
	if PAF_K=$k "$py" "$here/paf_check.py" "$kind" "$fa" "$fb" out.paf > check.txt; then ok "$* ($(tail -1 check.txt))"
	else bad "$*"; cat check.txt; fi
}
for m in global prefix infix; do
	run lev-$m "" lev --mode $m A.fa B.fa
	run lev-$m 6 lev --mode $m -k 6 A.fa B.fa
	run lev-$m "" lev --mode $m q.fa B.fa
	run lev-$m "" lev --mode $m B.fa q.fa
	run lev-$m "" lev --mode $m --all few.fa
done
run lcs "" lcs A.fa B.fa
run lcs "" lcs one.fa B.fa
# runs of 10,000 and more (the CIGAR writer's long numbers): one substitution in 30 kb has one
# optimal alignment, 12345=1X17654=, in the TSV and in cg:Z:
awk 'BEGIN { srand(3); s = ""; for (k = 0; k < 30000; k++) s = s substr("ACGT", int(rand() * 4) + 1, 1)
	c = substr(s, 12346, 1); d = c == "A" ? "C" : "A"
	print ">a\n" s > "long_a.fa"; print ">b\n" substr(s, 1, 12345) d substr(s, 12347) > "long_b.fa" }'
"$cli" lev long_a.fa long_b.fa --path -q -o long.tsv && "$cli" lev long_a.fa long_b.fa --path --format paf -q -o long.paf
[ "$(tail -1 long.tsv | cut -f5,6)" = "$(printf '1\t12345=1X17654=')" ] && grep -q 'cg:Z:12345=1X17654=$' long.paf \
	&& ok "a 30 kb pair, one substitution: 12345=1X17654= (TSV and PAF)" || bad "long runs: $(tail -1 long.tsv | cut -f5,6) / $(grep -o 'cg:Z:.*' long.paf)"
# the same bytes from two ranks
for c in "lev --mode infix A.fa B.fa" "lev --all few.fa" "lcs A.fa B.fa"; do
	"$cli" $c --path --format paf -q -o np1.paf
	if timeout 300 "$mpiexec" --oversubscribe -np 2 "$cli" $c --path --format paf --threads 1 -q -o np2.paf && cmp -s np1.paf np2.paf; then
		ok "$c: np 2 = np 1"
	else bad "$c: np 2 differs from np 1"; fi
done
# the GPU backend gives the same bytes (skipped, and said so, without a usable device)
if "$cli" --version | grep -q '^gpu: CUDA, [0-9]* device'; then
	for c in "lev --mode infix --path A.fa B.fa" "lev --mode prefix --path --format json A.fa B.fa" "lev --mode infix -k 6 --path --format paf A.fa B.fa" \
	         "lev --mode infix --path --format paf q.fa B.fa" "lev --mode infix --all few.fa"; do
		"$cli" $c --backend cpu -q -o cpu.out; "$cli" $c --backend gpu -q -o gpu.out
		cmp -s cpu.out gpu.out && ok "$c: gpu = cpu" || bad "$c: gpu differs from cpu"
	done
else echo "SKIPPED (no usable CUDA device): --backend gpu against cpu"; fi
# refusals: exit 1 with one message, no output file
refuse() {   # refuse WORD ARGS...: exit 1, the message names WORD, no out.x
	local word=$1; shift
	rm -f out.x
	"$cli" "$@" -o out.x > /dev/null 2> err.txt
	local rc=$?
	if [ $rc = 1 ] && grep -q -- "$word" err.txt && [ ! -e out.x ] && [ "$(wc -l < err.txt)" = 1 ]; then ok "refused: $*"
	else bad "$* should fail with exit 1 naming '$word' (exit $rc: $(cat err.txt))"; fi
}
refuse "needs --path" lev --format paf A.fa B.fa
refuse "needs --path" lcs --seq --format paf A.fa B.fa
refuse "paf" hamming --format paf A.fa
refuse "paf" rkt -k 1 -t 2 --format paf A.fa
refuse "max-dist" lev --all --mode infix --max-dist 3 A.fa
refuse "'semi'" lev --mode semi A.fa B.fa
echo "paf.sh: $pass passed, $fail failed"
[ $fail = 0 ]
