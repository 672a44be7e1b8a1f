#!/bin/bash
# librktlcs and its Python module (issue 61, docs/library.md): the library (tests/test_lib.c,
# through the public header only) gives the command's numbers, CIGARs, subsequences, matrices
# and Rkt-LCS on the same files: lev global, prefix and infix, with and without -k, lcs --seq
# --path, hamming, Rkt-LCS; then the Python module against a naive DP on random and
# adversarial pairs (empty, one symbol, lower case, U, N) and against the command.
# Usage: lib_api.sh RKTLCS TEST_LIB LIBRKTLCS_SO GENPAIRS GENALN TMPDIR
set -u
cli=$1 tl=$2 so=$3 gen=$4 genaln=$5 tmp=$6
src=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"
t_begin "$tmp"
"$gen" 300 150 5 3 a.fa b.fa > /dev/null
"$gen" 40 3000 25 4 la.fa lb.fa > /dev/null
"$genaln" 200 500 5 2 > h.fa
r=$src/data/sample/paper_1k_head.fa
rows() { grep -v '^#' "$1" | tail -n +2; }
# the command's sequence names as 1-based indexes (hamming --max-dist writes names)
names() { grep '^>' "$1" | sed 's/^>//; s/[[:space:]].*//' | awk '{ print $0 "\t" NR }'; }
# every library call against the command on the same files; $1 names the backend
lib_checks() {
	local on=$1
	for f in "a.fa b.fa" "la.fa lb.fa"; do
		set -- $f
		"$cli" lev $1 $2 --path -q -o c.tsv; "$tl" lev $1 $2 global -1 > l.tsv
		cmp -s <(rows c.tsv | awk -F'\t' '{ print $5 "\t0\t" $6 }') l.tsv && ok "$on lev $1: distances and CIGARs" || bad "$on lev $1: $(diff <(rows c.tsv | cut -f5,6) l.tsv | head -3)"
		for m in prefix infix; do
			"$cli" lev $1 $2 --mode $m --path -q -o c.tsv; "$tl" lev $1 $2 $m -1 > l.tsv
			cmp -s <(rows c.tsv | awk -F'\t' '{ print $5 "\t" $7 "\t" $8 }') l.tsv && ok "$on lev --mode $m $1: distance, start, CIGAR" \
				|| bad "$on lev --mode $m $1: $(diff <(rows c.tsv | cut -f5,7,8) l.tsv | head -3)"
		done
		"$cli" lev $1 $2 -k 20 -q -o c.tsv; "$tl" lev $1 $2 global 20 > l.tsv
		# (the command writes '*' where the library gives -1: over k)
		cmp -s <(rows c.tsv | cut -f5) <(cut -f1 l.tsv | sed 's/^-1$/*/') && ok "$on lev -k 20 $1: distances ($(grep -c '^-1' l.tsv) over k)" || bad "$on lev -k 20 $1"
		"$cli" lcs $1 $2 --seq --path -q -o c.tsv; "$tl" lcs $1 $2 > l.tsv
		cmp -s <(rows c.tsv | cut -f5-7) l.tsv && ok "$on lcs --seq --path $1" || bad "$on lcs $1: $(diff <(rows c.tsv | cut -f5-7) l.tsv | head -3)"
	done
	"$cli" hamming h.fa -q -o c.tsv; "$tl" hamming h.fa > l.tsv
	cmp -s <(rows c.tsv | cut -f2-) l.tsv && ok "$on hamming 200 x 500: the matrix" || bad "$on hamming: $(diff <(rows c.tsv | cut -f2-) l.tsv | head -2)"
	"$cli" hamming h.fa --max-dist 12 -q -o c.tsv; "$tl" hampairs h.fa 12 > l.tsv
	awk -F'\t' 'NR == FNR { ix[$1] = $2; next } { print ix[$1] "\t" ix[$2] "\t" $3 }' <(names h.fa) c.tsv > cn.tsv
	[ -s l.tsv ] && cmp -s cn.tsv l.tsv && ok "$on hamming --max-dist 12: $(wc -l < l.tsv) pairs" || bad "$on hamming pairs: $(diff cn.tsv l.tsv | head -2)"
	"$cli" "$r" -k 3 -t 20 -tau 10 -q -o c.tsv --occurrences --candidates cc.tsv; "$tl" rkt "$r" 3 20 10 > l.tsv
	cmp -s <(rows c.tsv | head -1 | cut -f1,3-5) l.tsv && ok "$on Rkt-LCS of the paper's first reads: $(cat l.tsv)" || bad "$on rkt: $(rows c.tsv | head -1) / $(cat l.tsv)"
	"$tl" cands "$r" 3 20 10 > l.tsv
	cmp -s <(rows cc.tsv | cut -f1,3-5) l.tsv && ok "$on Rkt-LCS candidates: $(wc -l < l.tsv) reads" || bad "$on candidates: $(diff <(rows cc.tsv | cut -f1,3-5) l.tsv | head -2)"
	"$tl" occ "$r" 3 20 10 > l.tsv
	sed -n '/^#occurrences/,$p' c.tsv | tail -n +3 | cut -f1,3,4 > co.tsv
	[ -s l.tsv ] && cmp -s co.tsv l.tsv && ok "$on Rkt-LCS occurrences: $(wc -l < l.tsv)" || bad "$on occurrences: $(diff co.tsv l.tsv | head -2)"
}
lib_checks cpu
ngpu=$("$tl" gpus x)
if [ "${ngpu:-0}" -gt 0 ]; then
	TL_GPU=0 lib_checks gpu
else
	# a GPU asked of a library without one: RKL_EDEVICE (test_lib's exit 3) and the reason
	TL_GPU=0 "$tl" lev a.fa b.fa global -1 > /dev/null 2> e.txt; rc=$?
	[ $rc -eq 3 ] && grep -q "CUDA" e.txt && ok "no GPU: RKL_EDEVICE, '$(cat e.txt)'" || bad "no GPU: exit $rc, $(cat e.txt)"
	TL_GPU=0 "$tl" hamming h.fa > /dev/null 2>&1; rc=$?
	[ $rc -eq 3 ] && ok "no GPU: hamming refuses too" || bad "no GPU hamming: exit $rc"
	echo "SKIP the library's GPU backend: no device"
fi
# the Python module
if [ -n "${RKTLCS_TEST_SANITIZE:-}" ]; then echo "SKIP the Python module: the sanitizer build's library needs ASan's runtime first, which python3 has not"
elif command -v python3 > /dev/null; then
	RKTLCS_LIB=$so PYTHONPATH=$src/src/lib python3 - "$cli" "$r" <<'PY' > py.out 2>&1; rc=$?
import random, subprocess, sys, rktlcs
cli = sys.argv[1]
def lev(a, b):
    a, b = a.upper().replace('U', 'T'), b.upper().replace('U', 'T')
    d = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        p, d[0] = d[0], i
        for j in range(1, len(b) + 1):
            p, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, p + (a[i - 1] != b[j - 1]))
    return d[-1]
def lcs(a, b):
    a, b = a.upper().replace('U', 'T'), b.upper().replace('U', 'T')
    d = [0] * (len(b) + 1)
    for i in range(1, len(a) + 1):
        p = 0
        for j in range(1, len(b) + 1):
            p, d[j] = d[j], p + 1 if a[i - 1] == b[j - 1] else max(d[j], d[j - 1])
    return d[-1]
rnd = random.Random(7)
pairs = [('', ''), ('', 'ACGT'), ('A', ''), ('A', 'A'), ('acgu', 'ACGT'), ('NNNN', 'NNNN'), ('A' * 200, 'A' * 190 + 'C' * 3)]
for _ in range(300):
    la, lb = rnd.randrange(0, 150), rnd.randrange(0, 150)
    al = rnd.choice(['ACGT', 'AC', 'ACGTN'])
    a = ''.join(rnd.choice(al) for _ in range(la))
    b = ''.join(rnd.choice(al) for _ in range(lb)) if rnd.random() < .5 else a[:lb] + ''.join(rnd.choice(al) for _ in range(rnd.randrange(3)))
    pairs.append((a, b))
bad = 0
got = rktlcs.lev_batch([p[0] for p in pairs], [p[1] for p in pairs])
for (a, b), g in zip(pairs, got):
    if g != lev(a, b) or rktlcs.lcs(a, b) != lcs(a, b): bad += 1; print('differs:', a, b, g, lev(a, b))
for a, b in pairs[:60]:
    d = lev(a, b)
    if rktlcs.lev(a, b, k=d) != d or (d > 0 and rktlcs.lev(a, b, k=d - 1) != -1): bad += 1; print('-k differs:', a, b)
    r = rktlcs.lcs_align(a, b)
    if r['length'] != lcs(a, b) or len(r['subsequence']) != r['length']: bad += 1; print('lcs_align differs:', a, b)
# against the command: the pairs written as FASTA (the empty ones left out: the command refuses them)
ps = [p for p in pairs if p[0] and p[1]]
open('pa.fa', 'w').write(''.join('>a%d\n%s\n' % (i, p[0]) for i, p in enumerate(ps)))
open('pb.fa', 'w').write(''.join('>b%d\n%s\n' % (i, p[1]) for i, p in enumerate(ps)))
out = subprocess.run([cli, 'lev', 'pa.fa', 'pb.fa', '--path', '-q'], capture_output=True, text=True).stdout.splitlines()[2:]
al = rktlcs.lev_batch([p[0] for p in ps], [p[1] for p in ps], cigar=True)
for row, r in zip(out, al):
    f = row.split('\t')
    if int(f[4]) != r['distance'] or f[5] != r['cigar']: bad += 1; print('command differs:', row, r)
h = rktlcs.hamming(['ACGT', 'ACGA', 'TCNA'])
if [list(x) for x in h] != [[0, 1, 2], [1, 0, 1], [2, 1, 0]]: bad += 1; print('hamming (N is not counted):', h)
try:
    import numpy
    if not isinstance(h, numpy.ndarray) or h.shape != (3, 3): bad += 1; print('hamming: not a 3 x 3 numpy array with numpy present:', type(h))
except ImportError:
    pass
# hamming's pairs list against the matrix, Rkt-LCS's candidates and occurrences against each other
seqs = [''.join(rnd.choice('ACGT') for _ in range(60)) for _ in range(30)]
seqs = [s if i % 3 else seqs[0][:50] + s[50:] for i, s in enumerate(seqs)]
m = rktlcs.hamming(seqs)
want = [(i, j, int(m[i][j])) for i in range(30) for j in range(i + 1, 30) if m[i][j] <= 30]
if rktlcs.hamming_pairs(seqs, 30) != want or not want: bad += 1; print('hamming_pairs differs from the matrix')
reads = [l.strip() for l in open(sys.argv[2]) if not l.startswith('>')]
w = rktlcs.rkt(reads, 3, 20, 10, occurrences=True)
cs = rktlcs.rkt_candidates(reads, 3, 20, 10)
best = max((c for c in cs if c), key=lambda c: (c['length'], -c['read']))
if {k: w[k] for k in best} != best or len(w['occurrences']) < 20: bad += 1; print('rkt: winner', w, 'best candidate', best)
if any(len(reads[o[0]]) < o[1] + w['length'] or o[2] > 3 for o in w['occurrences']): bad += 1; print('occurrences out of range')
# the GPU: the same answers on a device, DeviceError without one
g = rktlcs.gpu_count()
if g:
    if rktlcs.lev_batch([p[0] for p in ps], [p[1] for p in ps], cigar=True, gpu=0) != al: bad += 1; print('lev on the GPU differs')
    if [list(map(int, x)) for x in rktlcs.hamming(seqs, gpu=0)] != [list(map(int, x)) for x in m] or rktlcs.hamming_pairs(seqs, 30, gpu=0) != want: bad += 1; print('hamming on the GPU differs')
    if rktlcs.rkt_candidates(reads, 3, 20, 10, gpu=0) != cs: bad += 1; print('rkt on the GPU differs')
else:
    try:
        rktlcs.lev('ACGT', 'AGT', gpu=0); bad += 1; print('gpu=0 without a device: no error')
    except rktlcs.DeviceError:
        pass
print('python: %d pairs, %d rows against the command, %d differ (GPU: %d devices)' % (len(pairs), len(out), bad, g))
sys.exit(1 if bad or len(out) != len(ps) else 0)
PY
	[ $rc -eq 0 ] && ok "$(tail -1 py.out)" || bad "the Python module: $(tail -5 py.out | tr '\n' '|')"
else echo "SKIP the Python module: no python3"; fi
echo "lib: $pass passed, $fail failed"
[ $fail -eq 0 ]
