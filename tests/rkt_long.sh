#!/bin/bash
# Rkt-LCS on reads over 65,000 bp (issue 27): a 300 kb read against a 199 kb read (two reads
# of one 400 kb random genome, rkt_genreads: 0.5% substitutions, a few N) must finish within
# BOUND seconds (default 90; the 32-bit-lane sweep takes 8-10 s on the 2-core development VM,
# the scalar sweep it replaced 1,479 s), with the exact answer: with k=0 and t=1 the
# Rkt-LCS of two reads is their longest common substring without unknown symbols, at its
# first start in read 1, which python3 checks by hashing every window. Also: the 32-bit lanes
# forced on short reads (RKTLCS_RKT_LANES32=1) give byte-identical output.
# Usage: rkt_long.sh RKTLCS GENREADS TMPDIR [BOUND]
set -u
cli=$1 gen=$2 tmp=$3 bound=${4:-${RKTLCS_LONG_BOUND:-90}}
rm -rf "$tmp"; mkdir -p "$tmp"
cd "$tmp" || exit 1
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

{ "$gen" 1 300000 7 400000 | sed 's/^>.*/>a/'; "$gen" 1 199000 7 400000 | sed 's/^>.*/>b/'; } > long.fa
t0=$(date +%s.%N)
timeout "$bound" "$cli" long.fa -k 0 -t 1 -tau 5 --backend cpu -o out.tsv 2> err; rc=$?
wall=$(echo "$(date +%s.%N) - $t0" | bc)
if [ $rc -eq 0 ]; then ok "300 kb x 199 kb, k=0: $wall s (bound $bound s): $(grep -o 'backend cpu ([a-z0-9]*)' err)"
elif [ $rc -eq 124 ]; then bad "300 kb x 199 kb, k=0: over $bound s (the scalar sweep?)"
else bad "300 kb x 199 kb, k=0: exit $rc: $(head -c 300 err)"; fi

if [ $rc -eq 0 ] && command -v python3 > /dev/null; then
	python3 - long.fa out.tsv << 'EOF' && ok "the longest common substring, first start in read 1" || bad "answer: $(grep -v '^#' out.tsv | cut -c1-120)"
import sys
seq, name = {}, None
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith('>'): name = line[1:]; seq[name] = []
    else: seq[name].append(line)
a, b = (''.join(seq[n]).encode() for n in ('a', 'b'))
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[2]) if not l.startswith('#')]
idx, name, pos, L, sup, sub = rows[1][:6]
pos, L = int(pos), int(L)
def windows(s, n):  # hashes of the windows of length n without an unknown symbol
    return {hash(s[i:i + n]) for i in range(len(s) - n + 1) if b'N' not in s[i:i + n]}
assert (idx, name, sup) == ('1', 'a', '1'), rows[1][:5]
assert sub.encode() == a[pos:pos + L] and b'N' not in a[pos:pos + L] and a[pos:pos + L] in b, 'not a common substring'
longer = windows(b, L + 1)
assert not any(hash(a[i:i + L + 1]) in longer and a[i:i + L + 1] in b
               for i in range(len(a) - L) if b'N' not in a[i:i + L + 1]), 'a longer common substring exists'
same = windows(b, L)
first = next(i for i in range(len(a) - L + 1) if b'N' not in a[i:i + L] and hash(a[i:i + L]) in same and a[i:i + L] in b)
assert first == pos, 'first start %d, reported %d' % (first, pos)
print('longest common substring: %d bp at %d' % (L, pos))
EOF
fi

# the 32-bit lanes forced on reads of 1-400 bp: the same output as the byte / 16-bit lanes
"$gen" 120 400 5 20000 > short.fa
"$gen" 150 60 9 3000 >> short.fa
for k in 0 3 12; do
	"$cli" short.fa -k $k -t 2 -tau 10 --backend cpu --candidates c0.tsv -o o0.tsv -q
	RKTLCS_RKT_LANES32=1 "$cli" short.fa -k $k -t 2 -tau 10 --backend cpu --candidates c1.tsv -o o1.tsv -q
	cmp -s c0.tsv c1.tsv && cmp -s o0.tsv o1.tsv && ok "RKTLCS_RKT_LANES32=1, k=$k: same candidates" || bad "RKTLCS_RKT_LANES32=1, k=$k: output differs"
done
echo "rkt_long: $pass passed, $fail failed"
[ $fail -eq 0 ]
