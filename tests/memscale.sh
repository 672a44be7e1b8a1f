#!/bin/bash
# Peak memory of lev and lcs where the docs promise a bound (issue 27): the peak RSS
# (/usr/bin/time) against a few bytes per base plus the tool's own fixed cost, measured here
# on a pair of 10 bp. (Not for sanitizer builds: their shadow memory is most of the RSS.)
#  --path, a short sequence against a long one, both orders: 10 bp x N Mb within 4 bytes a
#  base of the long one (before the fix: 34 bytes a base for lev, 19 for lcs, with A short).
#  lev --all with 239 MB of output (1500 reads of 16 bp with names of 100 characters), one
#  rank and two: every rank within the fixed cost + 40 MB (before: each rank held all of its
#  rows, 243 MB at one rank), the same bytes at both.
# Usage: memscale.sh RKTLCS MPIEXEC TMPDIR [MB]   (MB: the long sequence, default 20)
set -u
cli=$1 mpiexec=$2 tmp=$3 mb=${4:-20}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$tmp"; mkdir -p "$tmp"
cd "$tmp" || exit 1
[ -x /usr/bin/time ] || { echo "SKIPPED: no /usr/bin/time (Debian: the time package)"; exit 77; }
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# peak RSS in kB of a run (its exit status kept in rc)
peak() { /usr/bin/time -f %M -o rss "$@"; rc=$?; kb=$(tail -1 rss); }
n=$((mb * 1000000))
printf '>s10\nACGTTGCAAC\n' > short.fa
{ printf '>long\n'; head -c $n /dev/urandom | tr '\000-\377' "$(printf 'ACGT%.0s' {1..64})"; printf '\n'; } > long.fa
peak "$cli" lev --path short.fa short.fa -q -o f.out
fixed=$kb
echo "fixed cost: $fixed kB (10 bp x 10 bp)"
for mode in lev lcs; do
	for order in "short.fa long.fa" "long.fa short.fa"; do
		peak "$cli" $mode --path $order --threads 2 -q -o p.out
		lim=$((fixed + 4 * n / 1000))
		# the path must consume both sequences: its lengths add up to 10 and n on the two sides
		span=$(awk -F'\t' '!/^#/ && NR > 2 { s = $NF; a = 0; b = 0
			while (match(s, /^[0-9]+[=XIDM]/)) { l = substr(s, 1, RLENGTH - 1) + 0; o = substr(s, RLENGTH, 1)
				if (o != "D") a += l; if (o != "I") b += l; s = substr(s, RLENGTH + 1) } print a, b }' p.out)
		want="10 $n"; [ "$order" = "long.fa short.fa" ] && want="$n 10"
		if [ $rc -ne 0 ] || [ "$span" != "$want" ]; then bad "$mode --path $order: exit $rc, path spans '$span', want '$want'"
		elif [ $kb -gt $lim ]; then bad "$mode --path $order: peak $kb kB, over $lim kB ($fixed + 4 bytes x $n bases)"
		else ok "$mode --path $order: peak $kb kB <= $lim kB ($(awk -v k=$((kb - fixed)) -v n=$n 'BEGIN { printf "%.2f", k * 1000 / n }') bytes a base over the fixed cost)"; fi
	done
done
# lev --all: rows of about 160 bytes, nearly no compute
awk 'BEGIN { srand(27); x = sprintf("%090d", 0); for (i = 0; i < 1500; i++) { s = ""
	for (k = 0; k < 16; k++) s = s substr("ACGT", int(rand() * 4) + 1, 1); printf ">read%06d_%s\n%s\n", i, x, s } }' > many.fa
peak "$cli" lev --all many.fa --threads 2 -q -o all1.out
size=$(wc -c < all1.out)
if [ $rc -ne 0 ] || [ $size -lt 200000000 ]; then bad "lev --all: exit $rc, $size bytes of output"
elif [ $kb -gt $((fixed + 40000)) ]; then bad "lev --all, one rank: peak $kb kB for $size bytes of output, over $((fixed + 40000)) kB"
else ok "lev --all, one rank: peak $kb kB for $size bytes of output (<= $((fixed + 40000)) kB)"; fi
# two ranks, each measured; MPI's own share measured alike on a tiny run
ranks() { rm -f rss.*; timeout 300 "$mpiexec" --oversubscribe -np 2 bash -c \
	'/usr/bin/time -f %M -o rss.${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}} "$0" "$@"' "$cli" "$@"; rc=$?; kb=$(cat rss.* | sort -n | tail -1); }
ranks lev --path short.fa short.fa --threads 1 -q -o f2.out
fixed2=$kb
ranks lev --all many.fa --threads 1 -q -o all2.out
if [ $rc -ne 0 ] || ! cmp -s all1.out all2.out; then bad "lev --all, two ranks: exit $rc, or not the bytes of one rank"
elif [ $kb -gt $((fixed2 + 40000)) ]; then bad "lev --all, two ranks: a rank peaks at $kb kB, over $((fixed2 + 40000)) kB"
else ok "lev --all, two ranks: the same bytes, ranks peak at $(cat rss.* | tr '\n' ' ')kB (<= $((fixed2 + 40000)))"; fi
echo "memscale: $pass passed, $fail failed"
[ $fail -eq 0 ]
