#!/bin/bash
# lev and lcs through the command line: 1 rank against 2-4 ranks (byte-identical output,
# every pairing shape, --all, paths, JSON), the bad-input cases (exit 1, one line, no output
# file), and real data against what an alignment proves: for two sequences of the MERS-CoV
# core alignment or of the 16S alignment with the gaps removed, the edit distance is at most
# the number of differing columns of the alignment, and the LCS at least the number of equal
# base columns; identical sequences give 0 and their length.
# Usage: pairs.sh RKTLCS MPIEXEC SHARED_DATA TMPDIR TESTDATA [PART]
# PART base (default): all but the real data; real: the real data alone (ctest pair_mpi_real),
# exit 77 (skipped) without ../shared/data.
set -u
cli=$1 mpiexec=$2 shared=$3 tmp=$4 data=$5 part=${6:-base}
. "$(dirname "$0")/lib.sh"
t_begin "$tmp"
mpi() { timeout 300 "$mpiexec" --oversubscribe -np "$@"; }
if [ "$part" != real ]; then
# inputs: 40 mixed reads (A), the same reads mutated (B), one long record
awk '/^>/ { n++ } n <= 40' "$data/mixed.fa" > A.fa
awk '/^>/ { print; next } { s = ""; for (i = 1; i <= length($0); i++) { c = substr($0, i, 1); if (i % 17 == 0) c = "A"; if (i % 29 != 0) s = s c } print s }' A.fa > B.fa
head -2 A.fa > one.fa
# enough rows for several rounds of the gather at any rank count (45k pairs of --all, 12k one
# against many): the first round is 4096 pairs a rank, the next ones up to 4 times as many
awk 'BEGIN { srand(11); for (i = 0; i < 12000; i++) { n = 60 + int(rand() * 80); s = ""
	for (k = 0; k < n; k++) s = s substr("ACGT", int(rand() * 4) + 1, 1); printf ">m%d\n%s\n", i, s } }' > many.fa
head -600 many.fa > some.fa
# rows of 2.5 kB (names of 1200 characters, 2 kb reads, blocks of 512 pairs): a rank's share
# of the first round passes 4 MB after a block, and goes to rank 0 before the round ends
awk 'BEGIN { srand(5); x = sprintf("%01200d", 0); for (i = 0; i < 150; i++) { s = ""
	for (k = 0; k < 2000; k++) s = s substr("ACGT", int(rand() * 4) + 1, 1); printf ">w%d_%s\n%s\n", i, x, s } }' > wide.fa
# np 1..4 give the same bytes
for c in "lev|A.fa B.fa --path" "lev|one.fa B.fa -k 5 --path" "lev|--all A.fa --max-dist 40 --path" "lev|--all A.fa --format json" \
         "lcs|A.fa B.fa --seq --path" "lcs|B.fa one.fa --path --format json" "lev|--all some.fa --path" \
         "lev|--all some.fa --format json -k 60" "lcs|one.fa many.fa --seq --format json" "lev|many.fa one.fa --path" \
         "lev|--all -k 0 wide.fa"; do
	IFS='|' read -r mode args <<< "$c"
	"$cli" $mode $args -q -o ref.out || { bad "$mode $args: exit $?"; continue; }
	same=1
	for np in 2 3 4; do
		mpi $np "$cli" $mode $args --threads 1 -q -o np$np.out || { same=0; break; }
		cmp -s ref.out np$np.out || same=0
	done
	[ $same -eq 1 ] && ok "$mode $args: np 1-4 identical ($(grep -vc '^#' ref.out) lines)" || bad "$mode $args: np 2-4 differ from np 1"
	if [[ $args == *wide.fa ]]; then
		"$cli" $mode $args -v -o /dev/null 2>&1 >/dev/null | grep -q 'rank 0 sends .* before the end of the round' \
			&& ok "$mode $args: rows sent before the end of a round" || bad "$mode $args: no rows sent before the end of a round"
	fi
	# the rounds: every row once, in order (np 1 against the pairs themselves)
	if [[ $args == "--all some.fa --path" || $args == "many.fa one.fa --path" ]]; then
		all=0; [[ $args == --all* ]] && all=1
		rounds=$(mpi 2 "$cli" $mode $args --threads 1 -v -o /dev/null 2>&1 >/dev/null | grep -c 'a round of items')
		awk -F'\t' -v all=$all 'NR <= 2 { next } { if (all) { if (++j >= n) { i++; j = i + 1 } want = "m" i "\tm" j }
			else want = "m" (NR - 3) "\tm0"; if ($1 "\t" $2 != want) { print "row " NR - 2 ": " $1 " " $2 ", want " want; exit 1 } }
			END { if (NR - 2 != (all ? n * (n - 1) / 2 : 12000)) { print NR - 2 " rows"; exit 1 } }' n=300 i=0 j=0 ref.out > order.err \
			&& [ "$rounds" -ge 2 ] && ok "$mode $args: $rounds rounds, every row once in order" || bad "$mode $args: $rounds rounds, $(cat order.err)"
	fi
done
# bad input: exit 1, one line, no output
expect1() {
	local lab=$1; shift
	rm -f bad.out
	"$@" -o bad.out 2> err; local rc=$?
	[ $rc -eq 1 ] && [ "$(grep -c . err)" -eq 1 ] && [ ! -e bad.out ] && ok "$lab: exit 1: $(cat err)" || bad "$lab: exit $rc: $(cat err)"
}
head -6 A.fa > three.fa
head -4 B.fa > two.fa
expect1 "lev unequal record counts" "$cli" lev three.fa two.fa
expect1 "lcs unequal record counts" "$cli" lcs three.fa two.fa
: > empty.fa
expect1 "lev empty file" "$cli" lev empty.fa B.fa
expect1 "lcs empty file" "$cli" lcs A.fa empty.fa
expect1 "lev -k negative" "$cli" lev A.fa B.fa -k -1
expect1 "lev --max-dist without --all" "$cli" lev A.fa B.fa --max-dist 3
expect1 "lev one file without --all" "$cli" lev A.fa
expect1 "lev --all with two files" "$cli" lev --all A.fa B.fa
expect1 "lcs one file" "$cli" lcs A.fa
expect1 "lev bad symbol" "$cli" lev "$data/bad/stray_digit.fa" B.fa
# two ranks: rank 1 reads the second file while rank 0 reads the first (rmpi_read_two): the
# message once (mpirun adds its banner; a rank it stops may say so, as tests/mpi.sh allows), the
# first file's alone when both are bad
expect1mpi() {  # label message not-message args...
	local lab=$1 want=$2 not=$3; shift 3
	rm -f bad.out
	mpi 2 "$cli" "$@" -q -o bad.out 2> err; local rc=$?
	local n; n=$(grep -c "$want" err)
	[ $rc -eq 1 ] && [ "$n" -eq 1 ] && ! grep -q "$not" err && [ ! -e bad.out ] \
		&& ok "$lab: exit 1: $(grep "$want" err)" || bad "$lab: exit $rc, $n time(s): $(grep '^\[rktlcs\]' err)"
}
cp "$data/bad/stray_digit.fa" bad2.fa
expect1mpi "lev np 2, bad second file" "bad2.fa: record 2" "stray_digit.fa:" lev B.fa bad2.fa
expect1mpi "lcs np 2, both files bad" "stray_digit.fa: record 2" "bad2.fa:" lcs "$data/bad/stray_digit.fa" bad2.fa
expect1mpi "lev np 2, bad first file" "stray_digit.fa: record 2" "bad2.fa:" lev "$data/bad/stray_digit.fa" B.fa
# --all --max-dist computes only the pairs its pigeonhole filter lets through: its rows must be
# exactly the rows within D of the full enumeration (-k D, every pair), on reads with copies at
# ~5% divergence (many pairs near D = 10), on 1 and 3 ranks
gen=$(dirname "$cli")/tests/rkt_genpairs
if [ -x "$gen" ]; then
	"$gen" 150 150 5 11 na.fa nb.fa && cat na.fa nb.fa > near.fa
	"$cli" lev --all near.fa -k 10 --path -q -o full.tsv
	awk -F'\t' '/^#/ { next } !h { h = 1; next } $5 != "*" && $5 <= 10' full.tsv > want.rows
	for np in 1 3; do
		mpi $np "$cli" lev --all near.fa --max-dist 10 --path --threads 1 -o md$np.tsv 2> md$np.err
		awk -F'\t' '/^#/ { next } !h { h = 1; next } 1' md$np.tsv > got$np.rows
		if [ -s want.rows ] && cmp -s want.rows got$np.rows; then ok "--all --max-dist 10 (np $np) = the full enumeration's rows within 10 ($(wc -l < want.rows) of 44850 pairs; $(grep -o '[0-9]* of [0-9]* pairs passed' md$np.err))"
		else bad "--all --max-dist 10 (np $np): $(wc -l < got$np.rows) rows, want $(wc -l < want.rows)"; fi
	done
	# long pairs (9 kb, 1-15% apart): a block of two a thread or more goes through the batch, a
	# thread a pair (the wavefronts, a guess first, the sweep after); fewer go alone with every
	# thread (the threaded sweep): the same bytes either way and at np 3
	for d in 1 5 15; do "$gen" 4 9000 $d $d la$d.fa lb$d.fa > /dev/null; done
	cat la1.fa la5.fa la15.fa | awk '/^>/ { $0 = ">x" ++n } 1' > la.fa
	cat lb1.fa lb5.fa lb15.fa | awk '/^>/ { $0 = ">y" ++n } 1' > lb.fa
	for mode in lev lcs; do
		"$cli" $mode la.fa lb.fa --path --threads 1 -q -o l1.tsv
		"$cli" $mode la.fa lb.fa --path --threads 8 -q -o l8.tsv
		mpi 3 "$cli" $mode la.fa lb.fa --path --threads 1 -q -o l3.tsv
		# each pair over the split's size: 12 such pairs on 2 CPU ranks go whole, a rank each
		RKTLCS_SPLIT_CELLS=5e7 mpi 2 "$cli" $mode la.fa lb.fa --path --threads 1 -q -o l2.tsv
		[ "$(grep -vc '^#' l1.tsv)" -eq 13 ] && cmp -s l1.tsv l8.tsv && cmp -s l1.tsv l3.tsv && cmp -s l1.tsv l2.tsv \
			&& ok "$mode, 12 pairs of 9 kb --path: a thread a pair = every thread a pair = np 3 = np 2 with each pair over the split's size" \
			|| bad "$mode long pairs: $(md5sum l1.tsv l8.tsv l3.tsv l2.tsv | cut -c1-8)"
	done
fi
fi
# real data: bounds from the alignments
realcheck() {  # label aligned.fa
	local lab=$1 aln=$2
	# ungapped copies ('-' and '.' removed, upper case) and, per pair (1, i), the alignment's counts
	awk '/^>/ { print; next } { gsub(/[-.]/, ""); print toupper($0) }' "$aln" > ungapped.fa
	awk '/^>/ { if (s != "") seq[n++] = s; s = ""; next } { s = s toupper($0) } END { seq[n++] = s;
		for (i = 1; i < n; i++) { d = 0; e = 0; L = length(seq[0]);
			for (p = 1; p <= L; p++) { a = substr(seq[0], p, 1); b = substr(seq[i], p, 1);
				ga = a == "-" || a == "."; gb = b == "-" || b == ".";
				if (ga && gb) continue; if (a != b) d++; else if (!ga) e++ }
			print d, e } }' "$aln" > bounds.txt
	awk '/^>/ { n++ } n == 1' ungapped.fa > first.fa
	awk '/^>/ { n++ } n > 1' ungapped.fa > rest.fa
	"$cli" lev first.fa rest.fa -q -o lev.tsv && "$cli" lcs first.fa rest.fa -q -o lcs.tsv || { bad "$lab: runs failed"; return; }
	paste <(grep -v '^#' lev.tsv | tail -n +2 | cut -f5) <(grep -v '^#' lcs.tsv | tail -n +2 | cut -f5) bounds.txt |
		awk -v lab="$lab" '{ n++; if ($1 > $3 || $2 < $4) { bad++; if (bad < 3) print "  pair " n ": lev " $1 " > " $3 " or lcs " $2 " < " $4 } }
			END { if (bad || n == 0) { print "FAIL " lab ": " bad " of " n " pairs break the bounds"; exit 1 }
			      print "ok   " lab ": " n " pairs, lev <= differing columns, lcs >= equal columns" }' && pass=$((pass + 1)) || fail=$((fail + 1))
}
if [ "$part" = real ]; then
	if [ ! -r "$shared/mers46_parsnp_core.fasta" ]; then
		echo "SKIPPED: lev and lcs on the real alignments (MERS-CoV, 16S) against their bounds: ../shared/data not found ($shared)"
		exit 77
	fi
	realcheck "MERS-CoV 47 x 29.7 kb" "$shared/mers46_parsnp_core.fasta"
	# the reference is in the file twice: distance 0, LCS = its length
	"$cli" lev --all "$shared/mers46_parsnp_core.fasta" --max-dist 0 -q -o zero.tsv
	[ "$(grep -v '^#' zero.tsv | tail -n +2 | wc -l)" -ge 1 ] && ok "MERS-CoV: --max-dist 0 finds the duplicated genome" || bad "MERS-CoV: no pair at distance 0"
	zcat "$shared/rRNA16S.gold.NAST_ALIGNED.fasta.gz" | awk '/^>/ { n++ } n <= 60' > 16s.fa
	realcheck "16S (60 x ~1.5 kb, gaps removed)" 16s.fa
fi
echo "pairs: $pass passed, $fail failed"
[ $fail -eq 0 ]
