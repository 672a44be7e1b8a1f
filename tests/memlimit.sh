#!/bin/bash
# Memory limits (issue 9): every mode and output layout, run under a sweep of address-space
# limits (ulimit -v) from far too little to enough. Each run must either succeed with the
# full output (byte-identical to the unlimited run) or fail with exit 2, a message and no
# output file; never exit 0 with a short file, never a crash, never another status, never a
# temporary left behind. (Not for sanitizer builds: ASan reserves terabytes of address space.)
# Usage: memlimit.sh RKTLCS GENREADS GENALN TMPDIR
set -u
cli=$1 genreads=$2 genaln=$3 tmp=$4
rm -rf "$tmp"; mkdir -p "$tmp"
cd "$tmp" || exit 1
fail=0 pass=0 runs=0 oks=0 twos=0
"$genreads" 1500 51 3 > reads.fa
"$genaln" 1200 2000 30 11 > aln.fa
head -400 aln.fa > pairs.fa
head -2 reads.fa > one.fa
cases=(
	"rkt|reads.fa -k 2 -t 20 -tau 12 --candidates CAND"
	"rkt-json|reads.fa -k 2 -t 20 -tau 12 --format json --occurrences"
	"ham-matrix|hamming aln.fa"
	"ham-long|hamming -m aln.fa"
	"ham-sparse|hamming --max-dist 40 aln.fa"
	"ham-json|hamming --format json -a aln.fa"
	"lev|lev one.fa reads.fa --path"
	"lev-all|lev --all pairs.fa --max-dist 60 --path --format json"
	"lcs|lcs pairs.fa pairs.fa --seq --path"
)
all_limits="16000 24000 32000 40000 48000 56000 64000 80000 96000 128000 160000 200000 256000 320000 400000 512000"
# below the address space the loader needs for the binary and its libraries (about 20 MB for
# a CUDA build) nothing of ours runs: those limits test the loader, not the tool
limits=""
for v in $all_limits; do
	if [ -n "$limits" ] || ( ulimit -v $v; exec "$cli" --version ) > /dev/null 2>&1; then limits="$limits $v"
	else echo "note: at $v kB the binary cannot be loaded; that limit is skipped"; fi
done
for c in "${cases[@]}"; do
	IFS='|' read -r name args <<< "$c"
	a=${args//CAND/ref_c.out}
	"$cli" $a --threads 2 -q -o ref.out || { echo "FAIL $name: the unlimited run failed"; fail=$((fail + 1)); continue; }
	bad=0
	for v in $limits; do
		rm -rf out; mkdir out
		a=${args//CAND/out/c.out}
		( ulimit -v $v; exec "$cli" $a --threads 2 -q -o out/o.out ) 2> err
		rc=$?
		runs=$((runs + 1))
		left=$(ls -A out)
		if [ $rc -eq 0 ]; then
			oks=$((oks + 1))
			cmp -s ref.out out/o.out || { echo "FAIL $name at $v kB: exit 0 with a different output ($(wc -c < out/o.out) vs $(wc -c < ref.out) bytes)"; bad=1; }
			if [ -e ref_c.out ] && [[ $args == *CAND* ]]; then cmp -s ref_c.out out/c.out || { echo "FAIL $name at $v kB: exit 0, candidates differ"; bad=1; }; fi
		elif [ $rc -eq 2 ]; then
			twos=$((twos + 1))
			[ -z "$left" ] || { echo "FAIL $name at $v kB: exit 2 but left $left"; bad=1; }
			grep -q 'error' err || { echo "FAIL $name at $v kB: exit 2 without a message"; bad=1; }
		else
			echo "FAIL $name at $v kB: exit $rc: $(head -c 300 err)"; bad=1
		fi
	done
	[ $bad -eq 0 ] && { pass=$((pass + 1)); echo "ok   $name: every limit gave the full output or exit 2 with a message"; } || fail=$((fail + 1))
	rm -f ref_c.out
done
echo "memlimit: $runs runs ($oks complete, $twos exit 2); $pass cases passed, $fail failed"
[ $fail -eq 0 ] && [ $oks -gt 0 ] && [ $twos -gt 0 ]
