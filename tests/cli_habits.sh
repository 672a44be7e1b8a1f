#!/bin/bash
# The command-line habits of issue 33 (items 5-7): getopt's forms in every mode (values
# attached, flags bundled), snp-dists' options in hamming, mode typos and the words help and
# version; a closed pipe is silent; an error is said once per job under mpirun; JSON rows
# have every key of their mode; --version names each mode's CPU kernel as the run uses it;
# progress in batch logs (an ETA early, then a line per interval).
# Usage: cli_habits.sh RKTLCS MPIEXEC GENREADS TMPDIR DATADIR
set -u
cli=$1 mpiexec=$2 genreads=$3 tmp=$4 data=$5
rm -rf "$tmp"; mkdir -p "$tmp"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
same() {  # same DESC CMD1 -- CMD2: both succeed with identical stdout
	local what=$1; shift
	local a=() b=() in_b=0
	for x in "$@"; do if [ "$x" = -- ]; then in_b=1; elif [ $in_b = 1 ]; then b+=("$x"); else a+=("$x"); fi; done
	"${a[@]}" > "$tmp/s1" 2> "$tmp/e1"; local r1=$?
	"${b[@]}" > "$tmp/s2" 2> "$tmp/e2"; local r2=$?
	if [ $r1 = 0 ] && [ $r2 = 0 ] && [ -s "$tmp/s1" ] && cmp -s "$tmp/s1" "$tmp/s2"; then ok "$what"
	else bad "$what: exit $r1/$r2: $(head -c 300 "$tmp/e1") $(head -c 300 "$tmp/e2")"; fi
}
fails_with() {  # fails_with DESC PATTERN CMD...: exit 1 and PATTERN on stderr
	local what=$1 pat=$2; shift 2
	"$@" > "$tmp/o" 2> "$tmp/e"; local rc=$?
	[ $rc = 1 ] && grep -q -- "$pat" "$tmp/e" && ok "$what: $(head -1 "$tmp/e")" || bad "$what: exit $rc, $(head -3 "$tmp/e")"
}
aln=$data/ham/good.aln
printf '>a\nACGTTGCA\n>b\nAGGTTCA\n' > "$tmp/p.fa"
printf '>a\nACGTTGCA\n>b\nTTTTTTTTT\n' > "$tmp/q.fa"
"$genreads" 60 80 3 > "$tmp/r.fa"

# ---- item 5: getopt's forms, in the common parser (every mode) ----
same "hamming -x2 = -x 2" "$cli" hamming -q -x2 "$aln" -- "$cli" hamming -q -x 2 "$aln"
same "hamming -bcL = -b -c -L" "$cli" hamming -q -bcL "$aln" -- "$cli" hamming -q -b -c -L "$aln"
same "hamming -bx 2 (the last letter takes the next word)" "$cli" hamming -q -bx 2 "$aln" -- "$cli" hamming -q -b -x 2 "$aln"
same "hamming -cx2 (the rest of the word is the value)" "$cli" hamming -q -cx2 "$aln" -- "$cli" hamming -q -c -x 2 "$aln"
same "rkt -k1 -t2 -tau15 = -k 1 -t 2 -tau 15" "$cli" -q -k1 -t2 -tau15 "$tmp/r.fa" -- "$cli" -q -k 1 -t 2 -tau 15 "$tmp/r.fa"
same "rkt -qk1 -@1 (bundle, then a value; samtools' -@)" "$cli" -qk1 -t2 -tau 15 -@1 "$tmp/r.fa" -- "$cli" -q -k 1 -t 2 -tau 15 --threads 1 "$tmp/r.fa"
same "lev -k1 = -k 1" "$cli" lev -q -k1 --path "$tmp/p.fa" "$tmp/p.fa" -- "$cli" lev -q -k 1 --path "$tmp/p.fa" "$tmp/p.fa"
same "lcs --format=json = --format json" "$cli" lcs -q --format=json "$tmp/p.fa" "$tmp/p.fa" -- "$cli" lcs -q --format json "$tmp/p.fa" "$tmp/p.fa"
fails_with "an unknown letter in a bundle is named" "unknown option '-z' in '-bzL'" "$cli" hamming -bzL "$aln"
fails_with "a flag given a value (--path=1)" "option --path takes no value" "$cli" lev --path=1 "$tmp/p.fa" "$tmp/p.fa"
fails_with "-k with no value still says so" "option -k needs a value" "$cli" lev "$tmp/p.fa" "$tmp/p.fa" -k

# ---- item 5: snp-dists' options in hamming ----
same "hamming -j 2 (snp-dists: threads) = --threads 2" "$cli" hamming -q -j 2 "$aln" -- "$cli" hamming -q --threads 2 "$aln"
"$cli" hamming -q -t -m "$aln" > "$tmp/t" && [ "$(head -1 "$tmp/t")" = "$(printf 'sequence_1\tsequence_2\tdistance')" ] && [ $(wc -l < "$tmp/t") = 17 ] \
	&& ok "hamming -t -m: snp-dists' header, then 16 pairs" || bad "hamming -t -m: $(head -2 "$tmp/t")"
"$cli" hamming -q -mtc "$aln" | head -1 | grep -qx 'sequence_1,sequence_2,distance' && ok "hamming -mtc: the header comma-separated" || bad "hamming -mtc"
"$cli" hamming -q -t --max-dist 3 "$aln" | head -1 | grep -q '^sequence_1' && ok "hamming -t --max-dist: header" || bad "hamming -t --max-dist"
fails_with "hamming -t alone (no long format to head)" "-t adds a header" "$cli" hamming -t "$aln"
# -L -m: snp-dists 1.2 writes each unordered pair once, (i, j) with j >= i, diagonal included
"$cli" hamming -q -L -m "$aln" > "$tmp/lm"
want=$(printf 'seq1\tseq1\t0\nseq1\tseq2\t1\nseq1\tseq3\t2\nseq1\tseq4\t3\nseq2\tseq2\t0\nseq2\tseq3\t3\nseq2\tseq4\t4\nseq3\tseq3\t0\nseq3\tseq4\t4\nseq4\tseq4\t0')
[ "$(cat "$tmp/lm")" = "$want" ] && ok "hamming -L -m: 10 unique pairs, j >= i" || bad "hamming -L -m: $(tr '\n' ' ' < "$tmp/lm")"
"$cli" hamming --help > "$tmp/h"
grep -q "its -v (version)" "$tmp/h" && grep -q -- "-j INT" "$tmp/h" && grep -q -- "-t  " "$tmp/h" \
	&& ok "hamming --help: -j, -t and the -v clash" || bad "hamming --help lacks -j / -t / the -v clash"

# ---- item 5: modes ----
fails_with "lsc -> lcs (a swap is one edit)" "unknown mode 'lsc' (did you mean 'lcs'?)" "$cli" lsc "$tmp/p.fa" "$tmp/p.fa"
fails_with "ham -> hamming (a prefix)" "unknown mode 'ham' (did you mean 'hamming'?)" "$cli" ham "$aln"
fails_with "lve -> lev" "did you mean 'lev'" "$cli" lve "$tmp/p.fa" "$tmp/p.fa"
"$cli" help > "$tmp/h" 2> "$tmp/e"; rc=$?
[ $rc = 0 ] && grep -q '^Usage: rktlcs \[rkt\]' "$tmp/h" && [ ! -s "$tmp/e" ] && ok "rktlcs help" || bad "rktlcs help: exit $rc $(head -2 "$tmp/e")"
"$cli" help lev > "$tmp/h" 2> "$tmp/e"; rc=$?
[ $rc = 0 ] && grep -q '^Usage: rktlcs lev' "$tmp/h" && ok "rktlcs help lev" || bad "rktlcs help lev: exit $rc $(head -2 "$tmp/e")"
"$cli" version > "$tmp/h" 2> "$tmp/e"; rc=$?
[ $rc = 0 ] && head -1 "$tmp/h" | grep -q '^rktlcs [0-9]' && ok "rktlcs version" || bad "rktlcs version: exit $rc $(head -2 "$tmp/e")"

# ---- item 6: a closed pipe is silent (the default SIGPIPE, as samtools: the shell sees 141) ----
awk 'BEGIN { srand(5); for (i = 0; i < 400; i++) { s = ""; for (p = 0; p < 60; p++) s = s substr("ACGT", int(rand() * 4) + 1, 1); print ">s" i; print s } }' > "$tmp/big.aln"
"$cli" hamming -m -q "$tmp/big.aln" 2> "$tmp/e" | head -1 > "$tmp/o"; rc=${PIPESTATUS[0]}
[ $rc = 141 ] && [ ! -s "$tmp/e" ] && [ $(wc -l < "$tmp/o") = 1 ] && ok "hamming -m | head -1: silent, exit 141" || bad "closed pipe: exit $rc, stderr: $(cat "$tmp/e")"
"$cli" hamming -m "$tmp/big.aln" 2> "$tmp/e" | head -1 > /dev/null
grep -q 'error' "$tmp/e" && bad "closed pipe without -q: $(cat "$tmp/e")" || ok "closed pipe without -q: no error line"

# ---- item 6: an error once per job under mpirun ----
if [ -x "$mpiexec" ] || command -v "$mpiexec" > /dev/null; then
	timeout 120 "$mpiexec" --oversubscribe -np 4 "$cli" hamming -q -z "$aln" > /dev/null 2> "$tmp/e"; rc=$?
	n=$(grep -c '^\[rktlcs\] error' "$tmp/e")
	[ $rc != 0 ] && [ "$n" = 1 ] && ok "np 4, a usage error: said once" || bad "np 4, a usage error: exit $rc, said $n times"
	if "$cli" --version | grep -q '^gpu: CUDA, [0-9]* device'; then
		echo "SKIPPED the --backend gpu failures: this machine has a usable GPU"
	else
		timeout 120 "$mpiexec" --oversubscribe -np 4 "$cli" hamming -q --backend gpu "$aln" > /dev/null 2> "$tmp/e"; rc=$?
		n=$(grep -c '^\[rktlcs\] error' "$tmp/e")
		[ $rc = 2 ] && [ "$n" = 1 ] && ok "np 4, every rank fails (--backend gpu, no GPU): said once" || bad "np 4, every rank fails: exit $rc, said $n times"
		# rank 3 alone fails: still said, once
		timeout 120 "$mpiexec" --oversubscribe -np 3 "$cli" hamming -q "$aln" : -np 1 "$cli" hamming -q --backend gpu "$aln" > "$tmp/o" 2> "$tmp/e"; rc=$?
		n=$(grep -c '^\[rktlcs\] error' "$tmp/e")
		[ $rc = 2 ] && [ "$n" = 1 ] && [ ! -s "$tmp/o" ] && ok "np 4, rank 3 alone fails: said once ($(grep error "$tmp/e"))" \
			|| bad "np 4, rank 3 alone fails: exit $rc, said $n times"
	fi
else echo "SKIPPED the mpirun checks: no $mpiexec"; fi

# ---- item 6: JSON keys ----
if command -v python3 > /dev/null; then
	"$cli" lev -q --format json "$tmp/p.fa" "$tmp/p.fa" > "$tmp/j1" && "$cli" lev -q -k 0 --path --format json "$tmp/p.fa" "$tmp/q.fa" > "$tmp/j2" \
	&& "$cli" lcs -q --format json "$tmp/p.fa" "$tmp/p.fa" > "$tmp/j3" && python3 - "$tmp/j1" "$tmp/j2" "$tmp/j3" <<'EOF' && ok "JSON: lev cigar null without --path (and past -k), lcs subsequence/path null" || bad "JSON keys"
import json, sys
a, b, c = (json.load(open(f))["pairs"] for f in sys.argv[1:])
assert all("cigar" in p and p["cigar"] is None for p in a), a
assert b[0]["cigar"] == "8=" and b[1]["distance"] is None and b[1]["cigar"] is None, b
assert all(p["subsequence"] is None and p["path"] is None and p["lcs"] == p["len_a"] for p in c), c
EOF
else echo "SKIPPED the JSON checks: no python3"; fi

# ---- item 6: --version names the kernel each mode's run reports ----
"$cli" --version > "$tmp/v"
for m in rkt lev lcs; do
	k=$(sed -n "s/.*kernels:.* $m \([a-z0-9]*\).*/\1/p" "$tmp/v")
	case $m in rkt) "$cli" -k1 -t2 -tau15 --backend cpu "$tmp/r.fa" > /dev/null 2> "$tmp/e" ;;
	           *) "$cli" $m --backend cpu "$tmp/p.fa" "$tmp/p.fa" > /dev/null 2> "$tmp/e" ;; esac
	grep -q "backend cpu ($k)" "$tmp/e" && ok "--version: $m $k, as its run says" || bad "--version says $m '$k'; the run: $(grep backend "$tmp/e")"
done
grep -q "hamming [a-z0-9]" "$tmp/v" && ok "--version: $(grep kernels "$tmp/v")" || bad "--version lists no hamming kernel"

# ---- item 7: progress in a batch log: an ETA early, then one line per interval ----
"$genreads" 500 300 7 > "$tmp/long.fa"
RKTLCS_PROGRESS_FIRST=0.3 RKTLCS_PROGRESS_EVERY=1 "$cli" -k 2 -t 3 -tau 20 --threads 1 --backend cpu "$tmp/long.fa" > /dev/null 2> "$tmp/e"
grep 'read pairs:' "$tmp/e" | sed 's/.*%, \([0-9.]*\) s.*/\1/' > "$tmp/times"
first=$(head -1 "$tmp/times")
if [ -z "$first" ]; then bad "progress: no line ($(tail -1 "$tmp/e"))"
else
	grep 'read pairs:' "$tmp/e" | head -1 | grep -q 'ETA [0-9]' && awk -v f="$first" 'BEGIN { exit !(f < 1.5) }' \
		&& ok "progress: the first line at $first s with an ETA: $(grep 'read pairs:' "$tmp/e" | head -1)" || bad "progress: first line $(grep 'read pairs:' "$tmp/e" | head -1)"
	awk 'NR > 1 && $1 - p < 0.95 { bad = 1 } { p = $1 } END { exit bad }' "$tmp/times" \
		&& ok "progress: $(wc -l < "$tmp/times") lines, at least 1 s apart" || bad "progress: lines closer than the interval: $(tr '\n' ' ' < "$tmp/times")"
fi
# one long pair (issue 62): its own loop ends with the pair, so the ticker shows the sweep's cells
"$genreads" 2 400000 11 > "$tmp/two.fa"
awk 'NR <= 2' "$tmp/two.fa" > "$tmp/pa.fa"; awk 'NR > 2' "$tmp/two.fa" > "$tmp/pb.fa"
RKTLCS_PROGRESS_FIRST=0.2 RKTLCS_PROGRESS_EVERY=0.5 "$cli" lev "$tmp/pa.fa" "$tmp/pb.fa" --threads 1 --backend cpu -o /dev/null 2> "$tmp/e"
grep 'lev: cells:' "$tmp/e" | sed 's/.*cells: \([0-9.]*\)%.*/\1/' > "$tmp/pct"
if [ "$(wc -l < "$tmp/pct")" -ge 2 ] && awk 'NR > 1 && $1 <= p { bad = 1 } { p = $1 } END { exit bad || p <= 0 }' "$tmp/pct" \
	&& grep 'lev: cells:' "$tmp/e" | head -1 | grep -q 'ETA [0-9]'; then
	ok "progress of one long pair in a log: $(wc -l < "$tmp/pct") lines, rising, with an ETA: $(grep 'lev: cells:' "$tmp/e" | head -1)"
else bad "progress of one long pair: $(grep -c 'cells:' "$tmp/e") lines: $(head -3 "$tmp/e" | tr '\n' ' ')"; fi
# hamming too: its tiles' pairs (8000 x 2000 columns on one thread, about a second)
awk 'BEGIN { srand(5); for (i = 0; i < 8000; i++) { s = ""; for (k = 0; k < 2000; k++) s = s substr("ACGT", int(rand() * 4) + 1, 1); print ">h" i; print s } }' > "$tmp/ham.fa"
RKTLCS_PROGRESS_FIRST=0.1 RKTLCS_PROGRESS_EVERY=0.5 "$cli" hamming "$tmp/ham.fa" --max-dist 3 --threads 1 --backend cpu -o /dev/null 2> "$tmp/e"
grep -q 'hamming: pairs: [0-9.]*%, [0-9.]* s, ETA [0-9]' "$tmp/e" && ok "hamming's progress in a log: $(grep -m1 'hamming: pairs' "$tmp/e")" \
	|| bad "hamming's progress in a log: $(head -2 "$tmp/e" | tr '\n' ' ')"
# under mpirun -np 4 (issue 62): help, version and an unknown mode said once, by rank 0
"$mpiexec" --oversubscribe -np 4 "$cli" lcsx > "$tmp/o" 2> "$tmp/e"; rc=$?
[ $rc -ne 0 ] && [ "$(grep -c "unknown mode 'lcsx'" "$tmp/e")" = 1 ] && ok "np 4, unknown mode: one line" || bad "np 4, unknown mode: $(grep -c 'unknown mode' "$tmp/e") lines, exit $rc"
"$mpiexec" --oversubscribe -np 4 "$cli" --version > "$tmp/o" 2> "$tmp/e"
[ "$(grep -c '^rktlcs [0-9]' "$tmp/o")" = 1 ] && ok "np 4, --version: once" || bad "np 4, --version: $(grep -c '^rktlcs [0-9]' "$tmp/o") times"
"$mpiexec" --oversubscribe -np 4 "$cli" lev --help > "$tmp/o" 2> "$tmp/e"
[ "$(grep -c '^rktlcs lev ' "$tmp/o")" = 1 ] && ok "np 4, lev --help: once" || bad "np 4, lev --help: $(grep -c '^rktlcs lev ' "$tmp/o") times"
"$mpiexec" --oversubscribe -np 4 "$cli" help bogus > "$tmp/o" 2> "$tmp/e"
[ "$(grep -c "unknown mode 'bogus'" "$tmp/e")" = 1 ] && ok "np 4, help bogus: one line" || bad "np 4, help bogus: $(cat "$tmp/e" | head -3)"
# -q (mpirun --quiet): the one error line alone, no banner
printf '>a\nACGT\n>b\nAC7T\n' > "$tmp/bad.fa"
"$mpiexec" -q --oversubscribe -np 2 "$cli" lev --all "$tmp/bad.fa" > /dev/null 2> "$tmp/e"; rc=$?
[ $rc -eq 1 ] && [ "$(grep -c . "$tmp/e")" = 1 ] && ok "mpirun -q, bad input: exit 1, one line: $(cat "$tmp/e")" || bad "mpirun -q, bad input: exit $rc, $(grep -c . "$tmp/e") lines"
# the defaults: nothing in a run shorter than 5 s
"$cli" -k1 -t2 -tau15 "$tmp/r.fa" > /dev/null 2> "$tmp/e"
grep -q 'read pairs:' "$tmp/e" && bad "progress in a short run: $(cat "$tmp/e")" || ok "no progress line in a short run"

echo "cli_habits: $pass passed, $fail failed"
[ $fail -eq 0 ]
