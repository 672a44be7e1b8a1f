#!/bin/bash
# SAM, BAM and CRAM input (issue 61, docs/input.md): every mode gives on a SAM, a bgzipped SAM,
# a BAM, a CRAM (--reference) and a BAM on stdin the output it gives on the FASTQ that
# `samtools fastq` makes of them: reverse-strand records turned back, secondary and
# supplementary ones left out, unmapped ones kept; --as-stored and --keep-secondary against
# `samtools view`'s SEQ column; SEQ '*' kept, a truncated BAM (at a block boundary and inside
# a block), an aligned BAM under hamming: one message naming the file and record, exit 1, no
# output, the same at 1 and 16 threads and at np 2.
# Usage: sam_in.sh RKTLCS MPIEXEC TMPDIR
set -u
cli=$1 mpiexec=$2 tmp=$3
. "$(dirname "$0")/lib.sh"
command -v samtools > /dev/null || { echo "SKIPPED: no samtools (scripts/setup.sh --test installs it)"; exit 77; }
command -v python3 > /dev/null || { echo "SKIPPED: no python3"; exit 77; }
t_begin "$tmp"
# a 3 kb reference; 80 reads of 90-110 bp from it with 0-6 edits, mapped forward or reverse
# (SEQ holds the reference strand), a supplementary piece of some, a secondary copy (SEQ '*'
# or the bases), unmapped reads; mates of one length for hamming (unmapped, u.sam)
python3 - <<'PY' || exit 1
import random
rnd = random.Random(61)
comp = {'A': 'T', 'C': 'G', 'G': 'C', 'T': 'A', 'N': 'N'}
rc = lambda s: ''.join(comp[c] for c in reversed(s))
ref = ''.join(rnd.choice('ACGT') for _ in range(3000))
open('ref.fa', 'w').write('>chr1\n' + '\n'.join(ref[i:i + 60] for i in range(0, 3000, 60)) + '\n')
def edit(s, k):
    s = list(s)
    for _ in range(k):
        p = rnd.randrange(len(s)); s[p] = rnd.choice('ACGTN')
    return ''.join(s)
hdr = '@HD\tVN:1.6\tSO:unsorted\n@SQ\tSN:chr1\tLN:3000\n'
rows, sec_star = [], []
for i in range(80):
    L = rnd.randrange(90, 111); p = rnd.randrange(0, 3000 - L)
    seq = edit(ref[p:p + L], rnd.randrange(0, 7)); q = 'I' * L
    kind = rnd.random()
    if kind < 0.15:
        rows.append('u%d\t4\t*\t0\t0\t*\t*\t0\t0\t%s\t%s' % (i, seq, q))
        continue
    fl = 16 if kind < 0.55 else 0
    rows.append('r%d\t%d\tchr1\t%d\t60\t%dM\t*\t0\t0\t%s\t%s' % (i, fl, p + 1, L, seq, q))
    if i % 7 == 0:
        rows.append('r%d\t%d\tchr1\t%d\t0\t%dM\t*\t0\t0\t*\t*' % (i, fl | 256, p + 1, L))
        sec_star.append(len(rows))
    if i % 9 == 0:
        rows.append('r%d\t%d\tchr1\t%d\t0\t%dM\t*\t0\t0\t%s\t%s' % (i, fl | 2048, p + 1, 40, seq[:40], q[:40]))
    if i % 11 == 0:
        rows.append('r%d\t%d\tchr1\t%d\t0\t%dM\t*\t0\t0\t%s\t%s' % (i, fl | 256, p + 1, L, seq, q))
open('r.sam', 'w').write(hdr + '\n'.join(rows) + '\n')
# without the secondary records of SEQ '*': --keep-secondary keeps every record
open('k.sam', 'w').write(hdr + '\n'.join(r for j, r in enumerate(rows, 1) if j not in sec_star) + '\n')
open('first_star', 'w').write('%d %s\n' % (sec_star[0], rows[sec_star[0] - 1].split('\t')[0]))
# pairs for lcs and lev: the kept reads' mates, in samtools fastq's order, 0-9 edits away
kept = [r.split('\t') for r in rows if not int(r.split('\t')[1]) & 0x900]
mates = [edit(rc(f[9]) if int(f[1]) & 16 else f[9], rnd.randrange(0, 10)) for f in kept]
open('mates.fa', 'w').write(''.join('>m%d\n%s\n' % (j, s) for j, s in enumerate(mates)))
# unmapped reads of one length (hamming's alignment), and one of them mapped
us = [edit(ref[500:620], rnd.randrange(0, 12)) for _ in range(30)]
u = ['s%d\t4\t*\t0\t0\t*\t*\t0\t0\t%s\t%s' % (j, s, 'I' * 120) for j, s in enumerate(us)]
open('u.sam', 'w').write(hdr + '\n'.join(u) + '\n')
u[17] = 's17\t0\tchr1\t501\t60\t120M\t*\t0\t0\t%s\t%s' % (us[17], 'I' * 120)
open('ua.sam', 'w').write(hdr + '\n'.join(u) + '\n')
PY
samtools faidx ref.fa
for s in r k u ua; do samtools view -b -o $s.bam $s.sam 2> /dev/null || { bad "samtools view -b $s.sam"; exit 1; }; done
samtools view -C -T ref.fa -o r.cram r.sam 2> /dev/null || { bad "samtools view -C"; exit 1; }
bgzip -c r.sam > r.sam.gz
samtools fastq r.sam > r.fq 2> /dev/null
# every record of k.sam as sequenced (samtools fastq -F 0 still leaves out same-name copies)
samtools view k.sam | awk -F'\t' 'BEGIN { c["A"] = "T"; c["C"] = "G"; c["G"] = "C"; c["T"] = "A"; c["N"] = "N" }
	{ s = $10; if (int($2 / 16) % 2) { t = ""; for (i = length(s); i > 0; i--) t = t c[substr(s, i, 1)]; s = t }; print ">" $1; print s }' > k.fq
samtools fastq u.sam > u.fq 2> /dev/null
# --as-stored: SEQ as samtools view shows it
samtools view -F 0x900 r.sam | awk -F'\t' '{ print ">" $1; print $10 }' > stored.fa
rows() { grep -v '^#' "$1"; }
# same INPUT WANT LABEL ARGS...: the output on INPUT (a path, or -: r.bam on stdin) has WANT's rows
same() {
	local in=$1 want=$2 lab=$3; shift 3
	if [ "$in" = - ]; then "$cli" "$@" - -q -o got < r.bam; else "$cli" "$@" "$in" -q -o got; fi
	local rc=$?
	[ $rc -eq 0 ] && cmp -s <(rows "$want") <(rows got) && ok "$lab: $in" \
		|| bad "$lab: $in: exit $rc, $(diff <(rows "$want") <(rows got) | head -3 | tr '\n' '|')"
}
for m in "rkt|-k 3 -t 2 -tau 8 --threads 2" "lev --all|--max-dist 12" "hamming-u|" "lcs|--seq" "lev|--path"; do
	mode=${m%%|*} args=${m#*|}
	case $mode in
	rkt) "$cli" r.fq $args -q -o want; for in in r.sam r.sam.gz r.bam r.cram -; do same "$in" want "Rkt-LCS" $args --reference ref.fa; done ;;
	"lev --all") "$cli" lev --all r.fq $args -q -o want; for in in r.sam r.bam r.cram -; do same "$in" want "lev --all" lev --all $args --reference ref.fa; done ;;
	hamming-u) "$cli" hamming u.fq -q -o want; same u.bam want "hamming (unmapped)" hamming ;;
	*) # pairs: the file against the mates, record by record
		"$cli" $mode r.fq mates.fa $args -q -o want
		for in in r.sam r.bam r.cram; do
			"$cli" $mode "$in" mates.fa $args --reference ref.fa -q -o got; rc=$?
			[ $rc -eq 0 ] && cmp -s <(rows want) <(rows got) && ok "$mode $args: $in against FASTA" || bad "$mode $args: $in: exit $rc"
		done ;;
	esac
done
"$cli" lev --all --max-dist 12 stored.fa -q -o want; same r.bam want "--as-stored" lev --all --max-dist 12 --as-stored
"$cli" lev --all --max-dist 12 k.fq -q -o want; same k.bam want "--keep-secondary" lev --all --max-dist 12 --keep-secondary
# errors: one line naming the file and record, exit 1, no output
err() {  # label, expected pattern, command...
	local lab=$1 pat=$2; shift 2
	rm -f out; "$@" -o out 2> e; local rc=$?
	[ $rc -eq 1 ] && [ ! -e out ] && grep -Eq "$pat" e && [ "$(grep -c 'error' e)" = 1 ] && ok "$lab: $(grep -o 'error: .*' e | cut -c 1-120)" \
		|| bad "$lab: exit $rc, $(head -2 e | tr '\n' '|')"
}
read -r n name < first_star
err "SEQ '*' kept" "r\.bam: record $n \($name\): no sequence" "$cli" lev --all --keep-secondary r.bam
err "an aligned record under hamming" "ua\.bam: record 18 \(s17\): an aligned record" "$cli" hamming ua.bam
# a truncated BAM of 40k reads: at a block boundary (no end-of-file block) and inside a block;
# the same message at 1 and 16 threads, at np 2 and through stdin (its name '-')
python3 -c "
import random; r = random.Random(5)
print('@HD\tVN:1.6')
for i in range(40000):
    s = ''.join(r.choice('ACGT') for _ in range(100)); print('t%d\t4\t*\t0\t0\t*\t*\t0\t0\t%s\t*' % (i, s))" > big.sam
samtools view -b -o big.bam big.sam 2> /dev/null
size=$(stat -c %s big.bam)
head -c $((size - 28)) big.bam > cut_eof.bam             # BGZF's end-of-file block is 28 bytes
head -c $((size / 2)) big.bam > cut_mid.bam
for f in cut_eof.bam cut_mid.bam; do
	pat="truncated BGZF file"; [ $f = cut_mid.bam ] && pat="record [0-9]+: corrupt or truncated"
	err "$f, 1 thread" "$f: .*$pat|$f: $pat" "$cli" lev --all --max-dist 3 --threads 1 $f
	cp e e1
	err "$f, 16 threads" "$f: .*$pat|$f: $pat" "$cli" lev --all --max-dist 3 --threads 16 $f
	[ "$(grep error: e)" = "$(grep error: e1)" ] && ok "$f: 16 threads say what 1 says" || bad "$f: 16 threads: $(cat e) / 1: $(cat e1)"
	err "$f, np 2" "$f: .*$pat|$f: $pat" timeout 300 "$mpiexec" --oversubscribe -np 2 "$cli" lev --all --max-dist 3 --threads 1 $f
	[ "$(grep -o 'error: .*' e)" = "$(grep -o 'error: .*' e1)" ] && ok "$f: np 2 says what 1 says" || bad "$f: np 2: $(grep error e) / 1: $(grep error e1)"
	rm -f out; "$cli" lev --all --max-dist 3 - -o out < $f 2> e; rc=$?
	[ $rc -eq 1 ] && [ ! -e out ] && [ "$(grep -o 'error: .*' e | sed 's/^error: -:/X/')" = "$(grep -o 'error: .*' e1 | sed "s/^error: $f:/X/")" ] \
		&& ok "$f through stdin: $(grep -o 'error: .*' e | cut -c 1-100)" || bad "$f through stdin: exit $rc, $(cat e) / $(cat e1)"
done
echo "sam_in: $pass passed, $fail failed"
[ $fail -eq 0 ]
