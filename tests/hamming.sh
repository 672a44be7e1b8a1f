#!/bin/bash
# hamming from the command line: exact output samples (cases.tst), the real alignments
# against the naive implementation, JSON, stdin, MPI np 1-4 byte-identical, and the errors
# (unequal lengths, empty name: exit 1, the record named, no output file).
# PART base: all but the real alignments (MPI on a synthetic one); real: the real alignments
# of ../shared/data alone (ctest ham_real), exit 77 (skipped) without them.
set -u
cli=$1 naive=$2 mpiexec=$3 shared=$4 tmp=$5 data=$6 part=${7:-base}
mkdir -p "$tmp"; rm -f "$tmp"/*
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# ranks: byte-identical output for np 1..4 (matrix, long, sparse, JSON)
ranks() {
	local args np same
	for args in "" "-m -a" "--max-dist 60" "--format json -L"; do
		for np in 1 2 3 4; do
			timeout 300 "$mpiexec" --oversubscribe -np $np "$cli" hamming $args -q -o "$tmp/np$np" "$1" || bad "np=$np $args: exit $?"
		done
		same=1; for np in 2 3 4; do cmp -s "$tmp/np1" "$tmp/np$np" || same=0; done
		[ $same = 1 ] && ok "mpirun -np 1..4 $args ($(basename "$1")): identical" || bad "mpirun $args ($(basename "$1")): outputs differ"
	done
}
# real alignments against the naive implementation (16S: the first 600 sequences)
if [ "$part" = real ]; then
if [ ! -r "$shared/mers46_parsnp_core.fasta" ]; then
	echo "SKIPPED: the real alignments (MERS-CoV, influenza HA, 16S against the naive implementation, under mpirun): ../shared/data not found ($shared)"
	exit 77
fi
zcat "$shared/rRNA16S.gold.NAST_ALIGNED.fasta.gz" | awk '/^>/{n++} n<=600' > "$tmp/16s600.fa"
for c in "mers46_parsnp_core.fasta|" "mers46_parsnp_core.fasta|-a" "mers46_parsnp_core.fasta|--max-dist 53" \
         "mothur_HA_H1N1pdm.fasta.gz|" "mothur_HA_H1N1pdm.fasta.gz|-a -k" "mothur_HA_H1N1pdm.fasta.gz|-m -x 5" \
         "@16s600.fa|" "@16s600.fa|-a" "@16s600.fa|-k" "@16s600.fa|-a -k -L" "@16s600.fa|-c --max-dist 100"; do
	IFS='|' read -r f args <<< "$c"
	[ "${f:0:1}" = @ ] && p="$tmp/${f:1}" || p="$shared/$f"
	"$cli" hamming $args -q -o "$tmp/got" "$p"
	"$naive" naive $args "$p" > "$tmp/want"
	if cmp -s "$tmp/got" "$tmp/want"; then ok "$f $args ($(wc -l < "$tmp/got") lines)"; else bad "$f $args differs from the naive implementation"; fi
done
# the MERS core alignment: distances 0..177, median 53 (the facts in data/README.md)
"$cli" hamming -m -q "$shared/mers46_parsnp_core.fasta" | awk -F'\t' '$1 < $2' | cut -f3 | sort -n > "$tmp/d"
r="$(head -1 "$tmp/d")..$(tail -1 "$tmp/d") median $(awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}' "$tmp/d")"
[ "$r" = "0..177 median 53" ] && ok "mers46: $r" || bad "mers46: $r, want 0..177 median 53"
# stdin and gzip on stdin give the same matrix
zcat "$shared/mothur_HA_H1N1pdm.fasta.gz" | "$cli" hamming -q - > "$tmp/stdin"
"$cli" hamming -q "$shared/mothur_HA_H1N1pdm.fasta.gz" > "$tmp/file"
cmp -s "$tmp/stdin" "$tmp/file" && ok "stdin = file" || bad "stdin differs"
ranks "$tmp/16s600.fa"
echo "ham_real: $pass passed, $fail failed"
[ $fail -eq 0 ]; exit
fi
while IFS=$'\t' read -r in args want; do
	case $in in '#'*|'') continue ;; esac
	[ "$args" = - ] && args=
	"$cli" hamming $args -q "$data/$in" > "$tmp/got" 2> "$tmp/err"
	if cmp -s "$tmp/got" "$data/$want"; then ok "sample $in $args"; else bad "sample $in $args: $(cat "$tmp/err")"; diff "$tmp/got" "$data/$want" | head -5; fi
done < "$data/cases.tst"
# a synthetic alignment for the rank checks
awk 'BEGIN { srand(9); for (i = 0; i < 300; i++) { s = ""; for (p = 0; p < 400; p++) s = s substr("ACGTN-", int(rand() * (p % 7 ? 4 : 6)) + 1, 1); print ">s" i; print s } }' > "$tmp/syn.fa"
# JSON parses and holds the same distances
"$cli" hamming -q --format json "$data/good.aln" > "$tmp/j"
"$cli" hamming -q --format json --max-dist 3 "$data/good.aln" > "$tmp/jp"
if command -v python3 > /dev/null; then
	python3 -c "import json,sys; m=json.load(open('$tmp/j')); p=json.load(open('$tmp/jp')); assert m['matrix'][3]==[3,4,4,0] and m['names'][0]=='seq1'; assert p['pairs'][-1]==['seq2','seq3',3]" \
		&& ok "json matrix and pairs" || bad "json"
else grep -q '"matrix":\[' "$tmp/j" && ok "json (no python3 to parse it)" || bad "json"; fi
ranks "$tmp/syn.fa"
# errors: exit 1, the record named, no output file
"$cli" hamming -q -o "$tmp/u.tsv" "$data/unequal.aln" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'unequal.aln: record 2 (b): length 3' "$tmp/err" && [ ! -e "$tmp/u.tsv" ] && ok "unequal lengths: $(cat "$tmp/err")" || bad "unequal lengths: exit $rc $(cat "$tmp/err")"
"$cli" hamming -q -o "$tmp/n.tsv" "$data/noname.aln" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'noname.aln: record 2.*empty' "$tmp/err" && [ ! -e "$tmp/n.tsv" ] && ok "empty name: $(cat "$tmp/err")" || bad "empty name: exit $rc $(cat "$tmp/err")"
timeout 300 "$mpiexec" --oversubscribe -np 3 "$cli" hamming -q -o "$tmp/u3.tsv" "$data/unequal.aln" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && [ ! -e "$tmp/u3.tsv" ] && ok "unequal lengths under np=3: exit 1" || bad "np=3 unequal: exit $rc"
"$cli" hamming -m --max-dist 3 "$data/good.aln" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && ok "-m with --max-dist: usage error" || bad "-m with --max-dist: exit $rc"
"$cli" hamming --help | grep -q -- '--max-dist' && ok "hamming --help" || bad "hamming --help"
echo "ham_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
