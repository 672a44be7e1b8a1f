#!/bin/bash
# Hardening round 3 (issue 55), through the CLI:
# 1. a BGZF or gzip file cut anywhere (every block boundary, inside blocks, through stdin) is
#    one error naming the record where the good bytes end, exit 1, no output: the same line on
#    1, 2 and 16 inflating threads, several runs each, and under mpirun -np 2. The record is
#    checked against Python's own inflation of the cut file;
# 2. RKTLCS_START_TIMEOUT: huge means no limit, not-a-number is refused, 0.001 is said so;
# 3. outputs that could only fail after the work fail before it (a 241-255 byte name works,
#    a 256 byte one and "newdir/" are refused at once);
# 4. two outputs naming one new file under two spellings; 5. symlink chains and loops as the
#    shell's '>' takes them, a read-only file refused; 6. help bogus, blanks in numbers.
# Usage: hardening3.sh RKTLCS MPIEXEC TMPDIR
set -u
cli=$1 mpiexec=$2 tmp=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
t_begin "$tmp"
export OMPI_MCA_rmaps_base_oversubscribe=1
command -v python3 > /dev/null || { echo "SKIPPED: no python3"; exit 77; }

python3 -c "import random;random.seed(1);[print(f'>r{i}\n'+''.join(random.choices('ACGT',k=300))) for i in range(3000)]" > r.fa
gzip -c r.fa > g.fa.gz
if command -v bgzip > /dev/null; then bgzip -c r.fa > b.fa.gz; else echo "SKIP BGZF cuts (no bgzip)"; fi

# cuts.py FILE: "offset record boundary" lines: where to cut, the record the good bytes end in,
# and 1 where the cut leaves whole BGZF blocks (no end-of-file block)
cat > cuts.py << 'EOF'
import sys, zlib, struct
data = open(sys.argv[1], 'rb').read()
out = []
def rec(b): return b.count(b'>')
if data[12:14] == b'BC':          # BGZF: every block boundary and three places inside each block
    pos, good = 0, b''
    while pos < len(data):
        bsize = struct.unpack('<H', data[pos + 16:pos + 18])[0] + 1
        for d in (0, 17, bsize // 2):   # the boundary, inside the header, inside the data
            if 0 < pos + d < len(data): out.append((pos + d, rec(good), d == 0))
        good += zlib.decompress(data[pos + 18:pos + bsize - 8], -15)
        pos += bsize
else:                             # gzip: htslib hands out whole 64 KiB pieces of the inflated stream
    for p in list(range(300, len(data), len(data) // 23)) + [len(data) - 4, len(data) - 1]:
        d = zlib.decompressobj(31).decompress(data[:p])
        out.append((p, rec(d[:len(d) // 65536 * 65536]), False))
for p, r, boundary in out:
    if p >= 18: print(p, r, int(boundary))   # a shorter cut is no gzip header: "not FASTA or FASTQ: first byte 0x1f"
EOF

# the line wanted for file $1 whose good bytes end in record $2 (named r$2-1; 0: none read)
want_line() {
	if [ "$2" -gt 0 ]; then echo "[rktlcs] error: $1: record $2 (r$(($2 - 1))): $3"; else echo "[rktlcs] error: $1: $3"; fi
}
# the threads every cut runs at (16 twice: the race was on several threads), and how often a cut
# also runs through stdin and np 2; the sanitizer build checks memory, not timing: fewer runs
cut_threads="1 2 16 16" cut_every=6
[ -n "${RKTLCS_TEST_SANITIZE:-}" ] && cut_threads="1 16" cut_every=15
# one cut file, run every way
cut_runs() {
	local f=$1 want_rec=$2 what=$3 want line t i rc seen=""
	want=$(want_line "$f" "$want_rec" "$what")
	for t in $cut_threads; do
		for i in 1; do
			rm -f out.tsv
			RKTLCS_READ_THREADS=$t "$cli" lev --all --max-dist 0 "$f" -o out.tsv 2> err; rc=$?
			line=$(grep -v '^\[rktlcs\] warning' err)
			[ $rc -eq 1 ] && [ "$line" = "$want" ] && [ ! -e out.tsv ] || seen="$seen [threads $t run $i: exit $rc, $line]"
		done
	done
	[ -z "$seen" ] && return 0
	bad "$f: want '$want' every time:$seen"; return 1
}

for src in g.fa.gz b.fa.gz; do
	[ -e $src ] || continue
	n=0 nbad=0
	while read -r off rec boundary <&3; do
		head -c "$off" $src > cut.fa.gz
		what="corrupt or truncated compressed stream"
		[ "$boundary" = 1 ] && what="truncated BGZF file: it ends without BGZF's end-of-file block"
		n=$((n + 1))
		cut_runs cut.fa.gz "$rec" "$what" || nbad=$((nbad + 1))
		# some cuts through stdin and under mpirun too
		if [ $((n % cut_every)) -eq 1 ]; then
			for t in 1 16; do
				line=$(RKTLCS_READ_THREADS=$t "$cli" lev --all --max-dist 0 - < cut.fa.gz 2>&1 > /dev/null | grep -v warning); rc=$?
				[ "$line" = "$(want_line - "$rec" "$what")" ] || { nbad=$((nbad + 1)); bad "$src cut at $off, stdin, threads $t: $line"; }
			done
			rm -f out.tsv
			"$mpiexec" -np 2 "$cli" lev --all --max-dist 0 cut.fa.gz --threads 1 -o out.tsv 2> err; rc=$?
			grep -qxF "$(want_line cut.fa.gz "$rec" "$what")" err && [ $rc -eq 1 ] && [ ! -e out.tsv ] \
				|| { nbad=$((nbad + 1)); bad "$src cut at $off, np 2: exit $rc, $(head -2 err)"; }
		fi
	done 3< <(python3 cuts.py $src)
	[ $n -gt 10 ] && [ $nbad -eq 0 ] && ok "$src cut at $n places: one line naming the expected record, exit 1, no output, at threads $cut_threads, stdin and np 2"
	[ $n -gt 10 ] || bad "$src: only $n cuts"
done
# the other modes read through the same stream
if [ -e b.fa.gz ]; then
	head -c 100000 b.fa.gz > t.fa.gz
	for m in "rkt -k 1 -t 1 -tau 5" "hamming"; do
		l1=$(RKTLCS_READ_THREADS=1 "$cli" $m t.fa.gz 2>&1 > /dev/null | grep error); r1=$?
		l16=$(RKTLCS_READ_THREADS=16 "$cli" $m t.fa.gz 2>&1 > /dev/null | grep error)
		[ "$l1" = "$l16" ] && echo "$l1" | grep -q 'record [0-9]* (r[0-9]*): corrupt or truncated' && ok "${m%% *}: the cut file's line at 1 and 16 threads" \
			|| bad "${m%% *}: '$l1' against '$l16'"
	done
	# whole files still read whole, with every thread count
	ref=$("$cli" lev --all --max-dist 2 r.fa 2> /dev/null | md5sum)
	for t in 1 2 16; do
		for f in b.fa.gz g.fa.gz; do
			[ "$(RKTLCS_READ_THREADS=$t "$cli" lev --all --max-dist 2 $f 2> /dev/null | sed "1s/all=$f/all=r.fa/" | md5sum)" = "$ref" ] \
				|| bad "$f whole at $t threads differs from r.fa"
		done
	done
	cat b.fa.gz g.fa.gz > mix.fa.gz   # a plain gzip member after BGZF blocks
	[ "$(RKTLCS_READ_THREADS=16 "$cli" hamming mix.fa.gz -q | md5sum)" = "$(cat r.fa r.fa | "$cli" hamming - -q | md5sum)" ] \
		&& ok "whole BGZF and gzip files, and BGZF then gzip, read whole at 1/2/16 threads" || bad "BGZF then gzip at 16 threads"
fi

# ---- 2. RKTLCS_START_TIMEOUT ----
printf '>a\nACGTACGT\n>b\nACGTTCGT\n' > h.fa
for v in inf 1e19 99999999999999999999 1e18 0; do
	RKTLCS_START_TIMEOUT=$v "$mpiexec" -np 2 "$cli" lev --all h.fa -q -o st.tsv 2> err; rc=$?
	[ $rc -eq 0 ] && [ -s st.tsv ] && ok "RKTLCS_START_TIMEOUT=$v: no limit, exit 0" || bad "RKTLCS_START_TIMEOUT=$v: exit $rc, $(head -1 err)"
done
for v in nan abc 5s " 5"; do
	RKTLCS_START_TIMEOUT="$v" "$cli" lev --all h.fa -q > /dev/null 2> err; rc=$?
	[ $rc -eq 1 ] && [ "$(grep -c . err)" -eq 1 ] && grep -q "RKTLCS_START_TIMEOUT='$v': not a number" err && ok "RKTLCS_START_TIMEOUT='$v' refused, one line" \
		|| bad "RKTLCS_START_TIMEOUT='$v': exit $rc, $(cat err)"
done
RKTLCS_START_TIMEOUT=0.001 "$mpiexec" -np 2 "$cli" lev --all h.fa -q > /dev/null 2> err; rc=$?
[ $rc -ne 0 ] && grep -q 'did not finish within 0.001 s' err && ok "RKTLCS_START_TIMEOUT=0.001 said as 0.001 s" || bad "0.001: exit $rc, $(grep rktlcs err)"

# ---- 3. outputs that can only fail after the work: checked first ----
for len in 241 250 255; do
	n=$(printf "%${len}s" | tr ' ' n)
	"$cli" lev h.fa h.fa -q -o "$n" 2> err; rc=$?
	[ $rc -eq 0 ] && [ -s "$n" ] && ok "-o NAME of $len bytes works" || bad "-o NAME of $len bytes: exit $rc, $(cut -c1-80 err)"
	rm -f "$n"
done
n=$(printf "%256s" | tr ' ' n)
"$cli" lev h.fa h.fa -o "$n" 2> err; rc=$?
[ $rc -eq 1 ] && grep -q 'File name too long' err && ! grep -q ' pairs, ' err && ok "-o NAME of 256 bytes: refused before the work" || bad "-o 256 bytes: exit $rc, $(tail -1 err | cut -c1-60)"
"$cli" lev h.fa h.fa -o newdir/ 2> err; rc=$?
[ $rc -eq 1 ] && grep -q 'newdir/: cannot write: Is a directory' err && ! grep -q ' pairs, ' err && [ ! -e newdir ] && ok "-o newdir/: refused before the work" \
	|| bad "-o newdir/: exit $rc, $(grep error err)"

# ---- 4. one new file under two spellings ----
mkdir -p sub
pairs=("x.txt --stats ./x.txt" "y.txt --stats $PWD/y.txt" "sub/z.txt --stats sub/../sub/./z.txt")
for p in "${pairs[@]}"; do
	set -- $p
	"$cli" lev h.fa h.fa -o "$1" "$2" "$3" 2> err; rc=$?
	[ $rc -eq 1 ] && grep -q 'are the same file' err && [ ! -e "$1" ] && ok "-o $1 $2 $3: refused, nothing written" || bad "-o $p: exit $rc, $(cat err)"
done
ln -s w.txt dangling
"$cli" rkt h.fa -k 1 -t 1 -tau 1 -o w.txt --candidates dangling 2> err; rc=$?
[ $rc -eq 1 ] && grep -q 'are the same file' err && [ ! -e w.txt ] && ok "-o FILE --candidates LINK-TO-IT (dangling): refused" || bad "dangling link: exit $rc, $(cat err)"

# ---- 5. symlinks as the shell's '>' takes them ----
ln -s d2 d1; ln -s m.txt d2
"$cli" lev h.fa h.fa -q -o d1; rc=$?
[ $rc -eq 0 ] && [ -L d1 ] && [ -L d2 ] && [ -f m.txt ] && ok "-o d1 (d1 -> d2 -> missing m.txt): m.txt written, links kept" \
	|| bad "-o d1: exit $rc, $(ls -l d1 d2 m.txt 2>&1 | tr '\n' ' ')"
ln -s lb la; ln -s la lb
"$cli" lev h.fa h.fa -q -o la 2> err; rc=$?
[ $rc -eq 1 ] && grep -q 'Too many levels of symbolic links' err && [ -L la ] && [ -L lb ] && ok "-o LOOP: refused, the loop kept" || bad "-o loop: exit $rc, $(cat err)"
# a read-only file of another user in a directory everyone writes: the shell's '>' would fail
if command -v setpriv > /dev/null && [ "$(id -u)" = 0 ]; then
	mkdir -p shared; chmod 1777 shared; echo keep > shared/ro.tsv; chmod 444 shared/ro.tsv
	cp h.fa shared/h.fa; chmod 644 shared/h.fa
	setpriv --reuid=65534 --regid=65534 --clear-groups "$cli" lev shared/h.fa shared/h.fa -q -o shared/ro.tsv 2> err; rc=$?
	if grep -q 'Permission denied' err && ! grep -q ro.tsv err; then echo "SKIP read-only output (nobody cannot run $cli here)"
	else [ $rc -eq 1 ] && grep -q 'ro.tsv: cannot write: Permission denied' err && [ "$(cat shared/ro.tsv)" = keep ] && ok "a read-only file the user could not write: refused, kept" \
		|| bad "read-only file: exit $rc, $(cat err), now $(head -c 40 shared/ro.tsv)"; fi
else echo "SKIP read-only output (not root or no setpriv)"; fi

# ---- 6. messages ----
"$cli" help bogus > out 2> err; rc=$?
[ $rc -eq 1 ] && grep -q "unknown mode 'bogus'" err && [ ! -s out ] && ok "help bogus: exit 1, unknown mode" || bad "help bogus: exit $rc, $(cat err)"
for k in " 5" "5 " "5x"; do
	"$cli" lev h.fa h.fa -k "$k" > /dev/null 2> err; rc=$?
	[ $rc -eq 1 ] && grep -q "is not an integer" err && ok "-k '$k' refused" || bad "-k '$k': exit $rc"
done
grep -q 'empty sequence (length 0)' "$here/../docs/input.md" 2> /dev/null && ok "docs/input.md lists 'empty sequence (length 0)'" \
	|| bad "docs/input.md does not list 'empty sequence (length 0)'"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
