#!/bin/bash
# Every file of the bad-input corpus: exit 1, one error line naming the file (and the
# record where there is one), and no output file left behind.
set -u
cli=$1 dir=$2 tmp=$3
mkdir -p "$tmp"; rm -f "$tmp"/*
fail=0 n=0
for f in "$dir"/*; do
	n=$((n + 1))
	b=$(basename "$f")
	"$cli" "$f" -k 1 -t 1 -tau 1 -o "$tmp/out.tsv" --candidates "$tmp/cand.tsv" -q 2> "$tmp/err"
	rc=$?
	msg=$(cat "$tmp/err")
	lines=$(grep -c . "$tmp/err")
	ok=1
	[ $rc -eq 1 ] || { echo "FAIL $b: exit $rc (want 1)"; ok=0; }
	[ "$lines" -eq 1 ] || { echo "FAIL $b: $lines stderr lines (want 1): $msg"; ok=0; }
	case "$msg" in *"$b"*) ;; *) echo "FAIL $b: message does not name the file: $msg"; ok=0 ;; esac
	case $b in
	empty.fa|binary.bin|blank_lines.fa|no_header.txt|truncated.fa.gz|gzip_of_binary.gz|one_read.fa) ;;
	*) case "$msg" in *"record "*) ;; *) echo "FAIL $b: message does not name the record: $msg"; ok=0 ;; esac ;;
	esac
	left=$(ls "$tmp" | grep -v '^err$')
	[ -z "$left" ] || { echo "FAIL $b: output left behind: $left"; ok=0; }
	[ $ok -eq 1 ] && echo "ok   $b: $msg" || fail=$((fail + 1))
done
[ $n -ge 15 ] || { echo "FAIL: corpus has only $n files"; fail=$((fail + 1)); }
echo "$((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
