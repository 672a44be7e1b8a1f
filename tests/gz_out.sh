#!/bin/bash
# Compressed outputs (issue 61; README, Usage): an output named *.gz (or *.bgz), or any output
# under --compress (stdout too), is BGZF, as bgzip writes it: its first block has BGZF's extra field, zcat gives the
# plain output byte for byte (every mode, -o, --candidates, --stats; one rank and np 2), bgzip -t
# accepts it and `bgzip -c` of the plain output is the same bytes where bgzip is installed; and the outputs' rules hold: a bad input or a size limit
# leaves no file and no temporary, and a failed job leaves an earlier file as it was.
# Usage: gz_out.sh RKTLCS MPIEXEC GENREADS GENPAIRS TMPDIR
set -u
cli=$1 mpiexec=$2 genreads=$3 genpairs=$4 tmp=$5
. "$(dirname "$0")/lib.sh"
t_begin "$tmp"
"$genreads" 400 51 2 > r.fa
"$genpairs" 500 150 5 3 pa.fa pb.fa > /dev/null
# BGZF: gzip's magic, FLG.FEXTRA, and the extra subfield "BC" at bytes 12-13
is_bgzf() { [ "$(od -An -tx1 -N12 "$1" | tr -d ' \n')" = "1f8b08040000000000ff0600" ] || return 1; [ "$(dd if="$1" bs=1 skip=12 count=2 2> /dev/null)" = BC ]; }
check() {  # label, plain, compressed
	if [ ! -s "$3" ]; then bad "$1: no $3"
	elif ! is_bgzf "$3"; then bad "$1: $3 is not BGZF: $(od -An -tx1 -N16 "$3")"
	elif ! zcat "$3" | cmp -s - "$2"; then bad "$1: zcat $3 differs from $2"
	elif command -v bgzip > /dev/null && ! bgzip -t "$3" 2> /dev/null; then bad "$1: bgzip -t rejects $3"
	elif command -v bgzip > /dev/null && ! bgzip -c "$2" | cmp -s - "$3"; then bad "$1: $3 is not bgzip's bytes for $2"
	else ok "$1: $3 is BGZF, zcat gives $2$(command -v bgzip > /dev/null && echo ', bgzip -c gives the same bytes')"; fi
}
for args in "r.fa -k 3 -t 10 -tau 12" "hamming r.fa" "lev pa.fa pb.fa --path" "lcs pa.fa pb.fa --seq" "lev --all r.fa --format json"; do
	# shellcheck disable=SC2086  # each job is a list of words
	"$cli" $args -q -o plain.tsv || { bad "$args: plain run failed"; continue; }
	"$cli" $args -q -o out.tsv.gz --threads 2 || { bad "$args: .gz run failed"; continue; }
	check "$args" plain.tsv out.tsv.gz
	rm -f out.tsv.gz
	timeout 300 "$mpiexec" --oversubscribe -np 2 "$cli" $args -q -o out.bgz || { bad "$args np 2: failed"; continue; }
	check "$args, np 2, .bgz" plain.tsv out.bgz
	rm -f out.bgz
done
"$cli" r.fa -k 3 -t 10 -tau 12 -q -o res.tsv --candidates c.tsv --stats s.json
"$cli" r.fa -k 3 -t 10 -tau 12 -q -o res.tsv.gz --candidates c.tsv.gz --stats s.json.gz
check "--candidates" c.tsv c.tsv.gz
is_bgzf s.json.gz && zcat s.json.gz | grep -q '"wall"' && ok "--stats s.json.gz: BGZF JSON" || bad "--stats s.json.gz"
# --compress: stdout, and a name without .gz, BGZF too
"$cli" lev pa.fa pb.fa --path -q -o plain.tsv
"$cli" lev pa.fa pb.fa --path -q --compress > stdout.gz && check "--compress to stdout" plain.tsv stdout.gz
"$cli" lev pa.fa pb.fa --path -q --compress -o named.tsv && check "--compress -o named.tsv" plain.tsv named.tsv
# a bad input: exit 1, no output and no temporary
printf '>a\nACGT\x01T\n' > bad.fa
"$cli" lev --all bad.fa -q -o badout.tsv.gz 2> err; rc=$?
left=$(ls -A | grep -c 'rktlcs-\|badout')
[ $rc -eq 1 ] && [ "$left" = 0 ] && ok "bad input: exit 1, nothing left" || bad "bad input: exit $rc, left: $(ls -A | grep 'rktlcs-\|badout')"
# an earlier output stays as it was when the job fails
echo keep | gzip > old.tsv.gz
cp old.tsv.gz old.ref
"$cli" lev --all bad.fa -q -o old.tsv.gz 2> /dev/null
cmp -s old.tsv.gz old.ref && ok "a failed job leaves the earlier .gz as it was" || bad "the earlier .gz changed"
# a size limit: exit 2 with a message, nothing left
"$genpairs" 20000 150 5 4 big_a.fa big_b.fa > /dev/null
bash -c 'ulimit -f 64; exec "$0" lev big_a.fa big_b.fa --path -q -o lim.tsv.gz' "$cli" 2> err; rc=$?
left=$(ls -A | grep -c 'rktlcs-\|lim.tsv')
[ $rc -eq 2 ] && [ "$left" = 0 ] && grep -q error err && ok "size limit: exit 2, '$(head -c 80 err)', nothing left" \
	|| bad "size limit: exit $rc, left $left: $(head -c 200 err)"
# a full disk: exit 2 with the write's errno, nothing left (also under the sanitizers: the
# stream is freed when its last write fails)
mkdir -p tiny
if mount -t tmpfs -o size=64k tmpfs tiny 2> /dev/null; then
	"$cli" lev big_a.fa big_b.fa --path -q -o tiny/x.tsv.gz 2> err; rc=$?
	left=$(ls -A tiny | wc -l)
	umount tiny
	[ $rc -eq 2 ] && [ "$left" = 0 ] && grep -q 'No space' err && ok "full disk: exit 2, '$(head -c 90 err)', nothing left" \
		|| bad "full disk: exit $rc, $left left: $(head -c 200 err)"
else echo "SKIP full disk: no tmpfs can be mounted here (not root, or a container)"; fi
echo "gz_out: $pass passed, $fail failed"
[ $fail -eq 0 ]
