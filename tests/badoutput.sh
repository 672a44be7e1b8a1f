#!/bin/bash
# Outputs never destroy anything (issue 9), for every mode: a device (/dev/null, /dev/full,
# /dev/stdout) is written in place and stays a device; a FIFO gets the output; a symlink
# keeps being a link and its target gets the output; the input itself (directly or through
# a link), two outputs on one file, or a missing directory is exit 1 before any work; a
# full disk is exit 2; a symlink planted at the old predictable temporary name is never
# followed; no temporary is ever left behind.
# Usage: badoutput.sh RKTLCS TMPDIR DATADIR [nodev]   (nodev: skip the /dev cases)
set -u
cli=$1 tmp=$2 data=$3 nodev=${4:-}
rm -rf "$tmp"; mkdir -p "$tmp"
cd "$tmp" || exit 1
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
cp "$data/mixed.fa" reads.fa
cp "$data/ham/good.aln" aln.fa
head -2 reads.fa > one.fa
# a larger alignment, so that its matrix does not fit a 16 kB file system
awk 'BEGIN { srand(3); for (i = 0; i < 60; i++) { s = ""; for (p = 0; p < 200; p++) s = s substr("ACGT", int(rand() * 4) + 1, 1); print ">s" i; print s } }' > big.aln
awk 'BEGIN { srand(5); for (i = 0; i < 400; i++) { s = ""; for (p = 0; p < 60; p++) s = s substr("ACGT", int(rand() * 4) + 1, 1); print ">read_number_" i; print s } }' > many.fa
leftovers() { ls -A "$1" | grep -E '\.rktlcs-|\.tmp\.' ; }
for mode in rkt hamming lev lcs; do
	case $mode in
	rkt) in=reads.fa; run() { "$cli" reads.fa -k 1 -t 2 -tau 5 -q "$@"; } ;;
	hamming) in=aln.fa; run() { "$cli" hamming aln.fa -q "$@"; } ;;
	lev) in=reads.fa; run() { "$cli" lev --all reads.fa --path -q "$@"; } ;;
	lcs) in=reads.fa; run() { "$cli" lcs one.fa reads.fa --seq -q "$@"; } ;;
	esac
	run -o want.tsv || { bad "$mode: plain run failed"; continue; }
	sum=$(md5sum < "$in")
	# devices
	if [ -z "$nodev" ]; then
		run -o /dev/null && [ -c /dev/null ] && ok "$mode -o /dev/null: exit 0, still a device" || bad "$mode -o /dev/null"
		run -o /dev/full 2> err; rc=$?
		[ $rc -eq 2 ] && [ -c /dev/full ] && grep -q '/dev/full.*No space left' err && [ "$(grep -c . err)" -eq 1 ] \
			&& ok "$mode -o /dev/full: exit 2: $(cat err)" || bad "$mode -o /dev/full: exit $rc, $(cat err)"
		run -o /dev/stdout > viastdout.tsv; rc=$?
		[ $rc -eq 0 ] && cmp -s want.tsv viastdout.tsv && [ -e /dev/stdout ] && [ ! -f /dev/stdout ] \
			&& ok "$mode -o /dev/stdout: written in place" || bad "$mode -o /dev/stdout: exit $rc"
	fi
	# a FIFO with a reader
	rm -f fifo; mkfifo fifo
	timeout 30 cat fifo > fromfifo.tsv & reader=$!
	run -o fifo; rc=$?
	wait $reader
	[ $rc -eq 0 ] && [ -p fifo ] && cmp -s want.tsv fromfifo.tsv && ok "$mode -o FIFO: the reader got the output" || bad "$mode -o FIFO: exit $rc"
	# a symlink to a regular file: the link stays, the target is replaced
	echo old > target.tsv; rm -f link.tsv; ln -s target.tsv link.tsv
	run -o link.tsv; rc=$?
	[ $rc -eq 0 ] && [ -L link.tsv ] && cmp -s want.tsv target.tsv && ok "$mode -o symlink: link kept, target written" || bad "$mode -o symlink: exit $rc"
	# a dangling symlink: its target is created
	rm -f dang.tsv newtarget.tsv; ln -s newtarget.tsv dang.tsv
	run -o dang.tsv; rc=$?
	[ $rc -eq 0 ] && [ -L dang.tsv ] && cmp -s want.tsv newtarget.tsv && ok "$mode -o dangling symlink: target created" || bad "$mode -o dangling symlink: exit $rc"
	# the input itself, directly and through a link
	rm -f inlink; ln -s "$in" inlink
	for o in "$in" inlink; do
		run -o "$o" 2> err; rc=$?
		[ $rc -eq 1 ] && [ "$(md5sum < "$in")" = "$sum" ] && grep -q 'input' err && ok "$mode -o $o (the input): exit 1: $(cat err)" \
			|| bad "$mode -o $o (the input): exit $rc, input $( [ "$(md5sum < "$in")" = "$sum" ] && echo intact || echo DAMAGED)"
	done
	# a missing directory: exit 1 before any work, nothing left
	for extra in "" "--max-dist 3"; do
		[ $mode = hamming ] || [ -z "$extra" ] || continue
		run $extra -o nodir/out.tsv 2> err; rc=$?
		[ $rc -eq 1 ] && [ "$(grep -c . err)" -eq 1 ] && grep -q 'nodir' err && ok "$mode $extra -o missing dir: exit 1: $(cat err)" \
			|| bad "$mode $extra -o missing dir: exit $rc $(cat err)"
	done
	# a planted symlink at the old predictable temporary name is never followed
	echo victim > victim.txt
	case $mode in
	rkt) bash -c 'ln -sf victim.txt planted.tsv.tmp.$$; exec "$0" reads.fa -k 1 -t 2 -tau 5 -q -o planted.tsv' "$cli" ;;
	hamming) bash -c 'ln -sf victim.txt planted.tsv.tmp.$$; exec "$0" hamming aln.fa -q -o planted.tsv' "$cli" ;;
	lev) bash -c 'ln -sf victim.txt planted.tsv.tmp.$$; exec "$0" lev --all reads.fa --path -q -o planted.tsv' "$cli" ;;
	lcs) bash -c 'ln -sf victim.txt planted.tsv.tmp.$$; exec "$0" lcs one.fa reads.fa --seq -q -o planted.tsv' "$cli" ;;
	esac
	rc=$?
	[ $rc -eq 0 ] && [ "$(cat victim.txt)" = victim ] && cmp -s want.tsv planted.tsv && ok "$mode: planted temporary symlink not followed" \
		|| bad "$mode: planted temporary symlink: exit $rc, victim: $(head -c 40 victim.txt)"
	rm -f planted.tsv.tmp.*
	# a full disk (a 16 kB tmpfs; skipped where mounting is not allowed)
	mkdir -p small
	if mount -t tmpfs -o size=16k tmpfs small 2> /dev/null; then
		case $mode in
		rkt) "$cli" many.fa -k 1 -t 1 -tau 1 -q -o small/out.tsv --candidates small/c.tsv 2> err ;;
		hamming) "$cli" hamming big.aln -m -q -o small/out.tsv 2> err ;;
		lev) "$cli" lev --all big.aln --path -q -o small/out.tsv 2> err ;;
		lcs) "$cli" lcs many.fa many.fa --seq --path -q -o small/out.tsv 2> err ;;
		esac
		rc=$?
		left=$(ls -A small)
		[ $rc -eq 2 ] && [ -z "$left" ] && grep -q 'No space left' err && ok "$mode: full disk: exit 2, nothing left: $(cat err)" \
			|| bad "$mode: full disk: exit $rc, left: $left, $(cat err)"
		umount small
	else echo "SKIP $mode: full disk (cannot mount a tmpfs here)"; fi
	l=$(leftovers .)
	[ -z "$l" ] && ok "$mode: no temporary left behind" || bad "$mode: temporaries left: $l"
done
# rkt: --candidates on the input, the same file twice
"$cli" reads.fa -k 1 -t 2 -tau 5 -q --candidates reads.fa 2> err; rc=$?
[ $rc -eq 1 ] && cmp -s reads.fa "$data/mixed.fa" && ok "rkt --candidates = input: exit 1" || bad "rkt --candidates = input: exit $rc"
"$cli" reads.fa -k 1 -t 2 -tau 5 -q -o same.tsv --candidates same.tsv 2> err; rc=$?
[ $rc -eq 1 ] && [ ! -e same.tsv ] && ok "rkt -o = --candidates: exit 1: $(cat err)" || bad "rkt -o = --candidates: exit $rc"
# all or none: a failing -o leaves no --candidates behind
"$cli" reads.fa -k 1 -t 2 -tau 5 -q -o nodir/x.tsv --candidates cands.tsv 2> err; rc=$?
[ $rc -eq 1 ] && [ ! -e cands.tsv ] && ok "rkt: failing -o, no --candidates written" || bad "rkt: failing -o: exit $rc, candidates $( [ -e cands.tsv ] && echo written)"
echo "badoutput: $pass passed, $fail failed"
[ $fail -eq 0 ]
