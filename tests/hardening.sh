#!/bin/bash
# The smaller items of issue 9, each through the CLI: endless or gigantic input lines, a
# BGZF file without its end-of-file block, option values that are options, NaN sizes,
# thread counts, control bytes and newlines in names and paths, non-UTF-8 names in JSON,
# a short FASTQ quality line before the next record, --max-dist keeping no pair, and a
# library (libgomp) ending the run. Every failure: the right exit status, one line in the
# tool's format, no output file.
# Usage: hardening.sh RKTLCS TMPDIR
set -u
cli=$1 tmp=$2
rm -rf "$tmp"; mkdir -p "$tmp"
cd "$tmp" || exit 1
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# expect STATUS NEEDLE LABEL -- command...: exit status, one stderr line holding NEEDLE, no out.tsv
expect() {
	local want=$1 needle=$2 lab=$3; shift 4
	rm -f out.tsv
	"$@" > stdout.txt 2> err; local rc=$?
	if [ $rc -eq "$want" ] && grep -q -- "$needle" err && [ "$(grep -c . err)" -eq 1 ] && [ ! -e out.tsv ]; then ok "$lab: exit $rc: $(cat err)"
	else bad "$lab: exit $rc (want $want): $(head -c 400 err)"; fi
}
printf '>a\nACGTACGTAC\n>b\nACGTACGTAC\n' > ok.fa
# /dev/zero: no newline ever; the first byte decides at once
expect 1 'first byte 0x00' "/dev/zero as input" -- timeout 20 "$cli" /dev/zero -k 1 -t 1 -tau 2 -o out.tsv
# a header line without end
(printf '>'; head -c 3000000 /dev/zero | tr '\0' x) > longhead.fa
expect 1 'header line longer' "endless header line" -- timeout 20 "$cli" longhead.fa -k 1 -t 1 -tau 2 -o out.tsv
# a gzip that inflates to one 160 MB line, under a 120 MB address-space limit: exit 2
# (address-space limits are skipped in sanitizer builds, which reserve terabytes of it)
nolimit=${RKTLCS_TEST_SANITIZE:-}
if [ -z "$nolimit" ]; then
	(printf '>x\n'; head -c 160000000 /dev/zero | tr '\0' A; printf '\n>y\nACGT\n') | gzip -1 > bomb.fa.gz
	expect 2 'out of memory' "160 MB line under ulimit -v 120 MB" -- bash -c 'ulimit -v 120000; exec "$0" bomb.fa.gz -k 1 -t 1 -tau 2 -o out.tsv' "$cli"
else echo "SKIP gigantic line under ulimit -v (sanitizer build)"; fi
# BGZF without its end-of-file block: a file cut at a block boundary, an error (issue 55; it was a
# warning, like samtools, until a cut file was read as a shorter one)
if command -v bgzip > /dev/null; then
	bgzip -c ok.fa > full.fa.gz
	head -c $(( $(wc -c < full.fa.gz) - 28 )) full.fa.gz > noeof.fa.gz
	rm -f out.tsv
	"$cli" noeof.fa.gz -k 1 -t 1 -tau 2 -o out.tsv 2> err; rc=$?
	[ $rc -eq 1 ] && grep -q "noeof.fa.gz: record .*: truncated BGZF file: it ends without BGZF's end-of-file block" err && [ ! -e out.tsv ] \
		&& ok "BGZF without EOF block: exit 1, the record named, no output" || bad "BGZF without EOF block: exit $rc, $(cat err)"
else echo "SKIP BGZF without EOF block (no bgzip)"; fi
# option values that are options; sizes that are not numbers
expect 1 "needs a value" "--candidates -q" -- "$cli" ok.fa -k 1 -t 1 -tau 2 --candidates -q -o out.tsv
[ ! -e ./-q ] && ok "no file named -q" || bad "a file named -q was written"
expect 1 "bad size 'nan'" "--device-memory nan" -- "$cli" ok.fa -k 1 -t 1 -tau 2 --device-memory nan -o out.tsv
expect 1 "bad size 'inf'" "--device-memory inf" -- "$cli" ok.fa -k 1 -t 1 -tau 2 --device-memory inf -o out.tsv
# thousands of threads: clamped to the CPUs, with a warning, and the run works
"$cli" ok.fa -k 1 -t 1 -tau 2 --threads 4000 -o out.tsv 2> err; rc=$?
[ $rc -eq 0 ] && grep -q 'warning: --threads 4000' err && ok "--threads 4000: clamped: $(grep warning err)" || bad "--threads 4000: exit $rc, $(cat err)"
# a library ending the run (libgomp cannot create threads): exit 2 in the tool's format
if [ -z "$nolimit" ]; then
	# the largest address-space limit under which the run fails: below what libgomp needs for
	# its threads (the exact figure depends on the build), above what the loader needs
	rc=0
	for v in 40000 36000 32000 28000 24000 20000 16000 12000; do
		rm -f out.tsv; bash -c 'ulimit -v '$v'; exec "$0" ok.fa -k 1 -t 1 -tau 2 --threads 2 -o out.tsv' "$cli" 2> err; rc=$?
		[ $rc -eq 0 ] || break
	done
	if [ $rc -eq 127 ] || [ $rc -eq 0 ]; then echo "SKIP libgomp failure: no limit between the loader's and libgomp's needs (exit $rc)"
	else [ $rc -eq 2 ] && grep -q '^\[rktlcs\] error: ' err && [ ! -e out.tsv ] && ok "libgomp failure at ulimit -v $v: exit 2: $(grep rktlcs err)" || bad "libgomp failure at ulimit -v $v: exit $rc, $(cat err)"; fi
else echo "SKIP libgomp failure under ulimit -v (sanitizer build)"; fi
# control bytes in a name never reach the terminal raw
printf '>r\033[31mred\nACGT\n' > esc.fa
"$cli" esc.fa -k 1 -t 1 -tau 2 -o out.tsv 2> err
! grep -q $'\033' err && grep -q 'x1b' err && ok "ESC in a name is escaped in the message" || bad "ESC reached stderr raw: $(cat -v err)"
# a newline in the input path keeps the comment on one line
d=$'new\nline'; mkdir -p "$d"; cp ok.fa "$d/in.fa"
"$cli" "$d/in.fa" -k 1 -t 1 -tau 2 -o out.tsv -q
[ "$(grep -c '^#' out.tsv)" -eq 1 ] && [ "$(grep -vc '^#' out.tsv)" -eq 2 ] && ok "newline in the input path: one comment line" || bad "newline in the input path: $(head -3 out.tsv | cat -A)"
# non-UTF-8 bytes in names: the JSON still parses
printf '>r\351\3771\nACGTACGT\n>ok\303\251\nACGTACGT\n' > latin.fa
"$cli" latin.fa -k 0 -t 1 -tau 3 --format json -q --candidates cand.json -o out.json
if command -v python3 > /dev/null; then
	python3 -c 'import json,sys; [json.load(open(f, encoding="utf-8")) for f in sys.argv[1:]]' out.json cand.json 2> err && ok "non-UTF-8 names: valid JSON" || bad "non-UTF-8 names: invalid JSON: $(tail -1 err)"
else grep -q '\\u00e9\\u00ff' cand.json && ok "non-UTF-8 names escaped" || bad "non-UTF-8 names not escaped"; fi
# a short quality line followed by the next record: the message counts the short line only
printf '@a\nACGT\n+\nIII\n@b\nACGT\n+\nIIII\n' > shortq.fq
expect 1 'quality length 3 differs from sequence length 4' "short quality before a record" -- "$cli" shortq.fq -k 1 -t 1 -tau 2 -o out.tsv
# --max-dist that keeps no pair (qsort of nothing), sparse and JSON
printf '>a\nAAAA\n>b\nCCCC\n>c\nGGGG\n' > far.aln
"$cli" hamming --max-dist 0 far.aln -o out.tsv 2> err; rc=$?
[ $rc -eq 0 ] && [ ! -s out.tsv ] && ok "--max-dist keeping no pair: exit 0, empty" || bad "--max-dist keeping no pair: exit $rc, $(cat err)"
echo "hardening: $pass passed, $fail failed"
[ $fail -eq 0 ]
