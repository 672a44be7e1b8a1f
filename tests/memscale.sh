#!/bin/bash
# Peak memory of lev and lcs where the docs promise a bound (issue 27): the peak RSS
# (/usr/bin/time) against a few bytes per base plus the tool's own fixed cost, measured here
# on a pair of 10 bp. (Not for sanitizer builds: their shadow memory is most of the RSS.)
#  --path, a short sequence against a long one, both orders: 10 bp x N Mb within 4 bytes a
#  base of the long one (before the fix: 34 bytes a base for lev, 19 for lcs, with A short).
# Usage: memscale.sh RKTLCS TMPDIR [MB]   (MB: the long sequence, default 20)
set -u
cli=$1 tmp=$2 mb=${3:-20}
rm -rf "$tmp"; mkdir -p "$tmp"
cd "$tmp" || exit 1
[ -x /usr/bin/time ] || { echo "no /usr/bin/time: skipped"; exit 77; }
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
echo "memscale: $pass passed, $fail failed"
[ $fail -eq 0 ]
