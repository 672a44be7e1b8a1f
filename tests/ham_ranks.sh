#!/bin/bash
# hamming under several ranks (issue 31): each rank parses the records that start in its share
# of a plain FASTA file's bytes, rank 0 streams stdin, gzip and FASTQ in batches, and the
# compact set is held once per node. Outputs must be np 1's bytes at np 2-5 on files crafted so
# that the cuts at size * p / np fall on a '>', on the '\n' before one, inside a header and
# inside a wrapped sequence; CRLF, lower case (-k or not), gzip, stdin, FASTQ, FASTA then FASTQ
# (the ranges fall back to the stream), -a, --max-dist, RKTLCS_NO_SHARE. A bad byte or a short
# record in the last rank's range: np 1's one message, exit 1, no output. Memory: on a 300 MB
# alignment no rank of np 2 may hold the whole raw input (its peak RSS within 0.75x np 1's;
# before, every rank held it all: 1.0x and more).
# Usage: ham_ranks.sh RKTLCS MPIEXEC RKT_GENALN TMPDIR [nomem]   (nomem: no memory check, for
# sanitizer builds, whose shadow memory is most of the RSS)
set -u
cli=$1 mpiexec=$2 genaln=$3 tmp=$4 mem=${5:-mem}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
command -v python3 > /dev/null || { echo "no python3: skipped"; exit 77; }
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
mpi() { np=$1; shift; timeout 120 "$mpiexec" --oversubscribe -np "$np" "$@"; }
# crafted files: cut.NP.K.fa for every kind K of byte a cut of NP ranks falls on
python3 - <<'PY' || exit 1
import random
def make(seed, n, L, wrap, mut=1.0):
    rnd = random.Random(seed); out = []
    base = [rnd.choice('ACGT') for _ in range(L)]
    for i in range(n):
        s = ''.join(rnd.choice('ACGT') if rnd.random() < mut else c for c in base)
        out.append('>s%d%s%s\n' % (i, 'x' * rnd.randrange(0, 9), ' desc' if rnd.random() < .3 else ''))
        out += [s[p:p + wrap] + '\n' for p in range(0, L, wrap)]
    return ''.join(out)
def kinds(t, np):
    S, k = len(t), set()
    for p in range(1, np):
        c = int(S * p / np)        # the reader's even share, before it moves to the next "\n>"
        if t[c] == '>': k.add('gt')
        elif t[c] == '\n' and t[c + 1:c + 2] == '>': k.add('nl')
        else: k.add('head' if t[t.rfind('\n', 0, c) + 1] == '>' else 'seq')
    return k
for np in (2, 3, 4, 5):
    need = {'gt', 'nl', 'head', 'seq'}
    for seed in range(20000):
        t = make(seed, 5 + seed % 8, 40, 17)
        k = kinds(t, np) & need
        if k:
            open('cut.%d.%s.fa' % (np, '-'.join(sorted(k))), 'w').write(t)
            need -= k
        if not need: break
    assert not need, (np, need)
# the variants: 60 records of 200 bp, each 10% away from one base, a few N, gaps, lower case
t = make(7, 60, 200, 60, .1)
rnd = random.Random(3); b = list(t)
for _ in range(150):
    p = rnd.randrange(len(b))
    if b[p] in 'ACGT' and b[max(0, t.rfind('\n', 0, p)) + 1] != '>': b[p] = rnd.choice('NN-acgt')
t = ''.join(b)
open('v.fa', 'w').write(t)
open('v.crlf.fa', 'w').write(t.replace('\n', '\r\n'))
open('v.lower.fa', 'w').write(''.join(l if l.startswith('>') else l.lower() for l in t.splitlines(True)))
recs = t.split('>')[1:]
fq = []
for r in recs:
    h, s = r.split('\n', 1); s = s.replace('\n', '')
    fq.append('@%s\n%s\n+\n%s\n' % (h, s, 'I' * len(s)))
open('v.fq', 'w').write(''.join(fq))
half = len(recs) // 2
open('v.mixed.fa', 'w').write(''.join('>' + r for r in recs[:half]) + ''.join(fq[half:]))
PY
for f in cut.*.fa; do
	np=${f#cut.}; np=${np%%.*}
	"$cli" hamming -q -o want "$f"
	mpi "$np" "$cli" hamming -q -o got "$f" && cmp -s want got && ok "np $np, cuts on ${f#cut.$np.}" || bad "np $np $f differs from np 1"
done
# 3000 blank lines first: rank 0's half holds no record, record 1 is rank 1's
{ for i in $(seq 3000); do echo; done; for i in 0 1 2 3 4 5; do b=ACGT; printf '>r%d\nACGTACGTA%s\n' $i ${b:i%4:1}; done; } > blank.fa
"$cli" hamming -q -o want blank.fa
mpi 2 "$cli" hamming -q -o got blank.fa && cmp -s want got && ok "np 2, rank 0's range only blank lines: np 1's bytes" || bad "np 2 blank.fa differs from np 1"
gzip -kf v.fa
export RKTLCS_HAM_BATCH=1k    # the stream in batches of 1k bases: every rank gets several
export RKTLCS_HAM_PIECE=120   # --max-dist: the pairs go to rank 0 ten at a time
i=0
for c in "v.fa|" "v.fa|-a" "v.fa|--max-dist 36 -c" "v.fa|--max-dist 36 --format json" "v.fa|--max-dist 0 --format json" "v.fa|-m -x 9" "v.crlf.fa|" "v.lower.fa|" "v.lower.fa|-k -a" "v.fa.gz|" \
         "stdin|-a" "v.fq|" "v.mixed.fa|" "v.fa|NOSHARE"; do
	IFS='|' read -r f args <<< "$c"
	pre=
	[ "$args" = NOSHARE ] && { args=; pre="env RKTLCS_NO_SHARE=1"; }
	if [ "$f" = stdin ]; then "$cli" hamming $args -q - < v.fa > want; else "$cli" hamming $args -q -o want "$f"; fi
	same=1 i=$((i + 1))
	for np in $((2 + i % 4)) $((5 - i % 4)); do
		if [ "$f" = stdin ]; then mpi $np $pre "$cli" hamming $args -q - < v.fa > got; else mpi $np $pre "$cli" hamming $args -q -o got "$f"; fi
		[ $? -eq 0 ] && cmp -s want got || { same=0; bad "np $np $f $args ${pre:+($pre)}: differs from np 1"; }
	done
	[ $same = 1 ] && ok "np $((2 + i % 4)) and $((5 - i % 4)) $f $args ${pre:+($pre)}: np 1's bytes ($(wc -l < want) lines)"
done
"$cli" hamming -q v.fa > a; "$cli" hamming -q v.crlf.fa > b; "$cli" hamming -q v.lower.fa > c
cmp -s a b && cmp -s a c && ok "CRLF and lower case: the plain file's matrix" || bad "CRLF / lower case differ from the plain file"
unset RKTLCS_HAM_BATCH RKTLCS_HAM_PIECE
# a bad record in the last rank's range: np 1's message, once, exit 1, no output
awk '/^>/ { n++ } { if (n == 60 && ++k == 3) $0 = substr($0, 1, 5) "7" substr($0, 7); print }' v.fa > badbyte.fa
awk '/^>/ { n++ } { if (n == 60 && !/^>/ && !cut) { $0 = substr($0, 2); cut = 1 }; print }' v.fa > short.fa
awk '{ if (NR == 20) $0 = substr($0, 1, 5) "7" substr($0, 7); print }' short.fa > both.fa
for f in badbyte.fa short.fa both.fa; do
	"$cli" hamming -q -o out1 "$f" 2> err1; rc1=$?
	[ $rc1 -eq 1 ] && [ ! -e out1 ] && grep -q "record [0-9]* (s[0-9]*" err1 || bad "$f np 1: exit $rc1, $(cat err1)"
	for np in 2 3 4 5; do
		hows=file
		[ $np = 3 ] && hows="file gzip"
		[ $np = 4 ] && hows="file stdin"
		[ $f != badbyte.fa ] && [ $np = 2 ] && continue
		for how in $hows; do
			case $how in
			file) mpi $np "$cli" hamming -q -o outn "$f" 2> errn ;;
			gzip) gzip -c "$f" > "$f.gz"; mpi $np "$cli" hamming -q -o outn "$f.gz" 2> errn ;;
			stdin) mpi $np env RKTLCS_HAM_BATCH=1k "$cli" hamming -q -o outn - < "$f" 2> errn ;;
			esac
			rc=$?
			want=$(grep error: err1); [ $how = file ] || want=$(sed "s|$f|$( [ $how = gzip ] && echo "$f.gz" || echo -)|" <<< "$want")
			if [ $rc -ne 1 ] || [ -e outn ] || [ "$(grep error: errn)" != "$want" ]; then
				bad "$f np $np $how: exit $rc, '$(grep error: errn | tr '\n' '|')', want '$want'"; rm -f outn
			fi
		done
	done
	ok "$f: np 2-5 (gzip at 3, stdin at 4) say np 1's '$(grep -o 'record.*' err1)' once, exit 1, no output"
done
# Rkt-LCS's reads and lev's sequences: one copy per node too, the same bytes
"$cli" lev --all --max-dist 40 -q -o lev1 v.fa
mpi 3 "$cli" lev --all --max-dist 40 -v -o lev3 v.fa 2> errl
RKTLCS_NO_SHARE=1 mpi 2 "$cli" lev --all --max-dist 40 -q -o lev2 v.fa
cmp -s lev1 lev3 && cmp -s lev1 lev2 && grep -q "reads: .* MB of sequence shared by 3 ranks on this node" errl \
	&& ok "lev --all np 3 (shared) and np 2 (RKTLCS_NO_SHARE): np 1's bytes; $(grep -o 'reads: .*' errl)" || bad "lev --all under ranks: $(grep -E 'error|shared' errl)"
# memory: 10,000 x 30,000 (300 MB); the peak RSS of the largest rank of np 2 against np 1 (on
# the CPU: a GPU context adds a few hundred MB to every rank)
if [ "$mem" = mem ] && [ -x /usr/bin/time ]; then
"$genaln" 10000 30000 1 5 > big.fa
/usr/bin/time -f %M -o rss1 "$cli" hamming --backend cpu --threads 1 --max-dist 20 -q -o big1 big.fa
rss1=$(tail -1 rss1)
rm -f rss.*
mpi 2 bash -c '/usr/bin/time -f %M -o rss.${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}} "$0" "$@"' "$cli" hamming --backend cpu --threads 1 --max-dist 20 -v \
	-o big2 big.fa 2> err2
rss2=$(cat rss.* | sort -n | tail -1)
if ! cmp -s big1 big2; then bad "300 MB: np 2 differs from np 1 ($(grep error err2))"
elif [ $((rss2 * 4)) -gt $((rss1 * 3)) ]; then bad "300 MB: a rank of np 2 peaks at $rss2 kB, np 1 at $rss1 kB (over 0.75x: a rank held the whole input)"
else ok "300 MB: np 2's ranks peak at $(cat rss.* | tr '\n' ' ')kB, np 1 at $rss1 kB (<= 0.75x)"; fi
grep -q "compact set .* shared by 2 ranks on this node" err2 && ok "-v: $(grep -o 'compact set.*' err2)" || bad "-v does not say what is shared: $(grep compact err2)"
# ranges of 100 MB with 2 threads a rank: each range parsed in slices; a bad byte in its last record
mpi 3 "$cli" hamming --threads 2 --max-dist 20 -v -o big3 big.fa 2> err3
cmp -s big1 big3 && grep -q "parsed its .* records in 2 slices" err3 && ok "np 3, 2 threads: ranges in slices, np 1's bytes" \
	|| bad "np 3, 2 threads: $(grep -E 'error|slice' err3)"
python3 -c "import sys; d = bytearray(open('big.fa', 'rb').read()); d[-100] = ord('7'); open('bigbad.fa', 'wb').write(d)"
"$cli" hamming -q --threads 2 -o x bigbad.fa 2> e1
mpi 3 "$cli" hamming -q --threads 2 -o x bigbad.fa 2> e3; rc=$?
[ $rc -eq 1 ] && [ "$(grep error: e3)" = "$(grep error: e1)" ] && ok "np 3, 2 threads, a bad byte in the last record: $(grep -o 'record.*' e3)" \
	|| bad "np 3, 2 threads, bad byte: exit $rc, '$(grep error: e3)', want '$(grep error: e1)'"
rm -f big.fa big1 big2 big3 bigbad.fa
else echo "SKIP the memory check ($mem)"; fi
echo "ham_ranks: $pass passed, $fail failed"
[ $fail -eq 0 ]
