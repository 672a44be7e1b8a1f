#!/bin/bash
# Run every fuzz target for SECONDS each (CI: 60), seeded from tests/data and the corpus
# kept in CORPUS_DIR (default: a temporary folder). Prints one line per target: executions,
# coverage, new units, and whether it crashed. Exit 1 on any crash. FUZZ_JOBS targets at once.
# Usage: tests/fuzz/run.sh BUILD_DIR [SECONDS=60] [CORPUS_DIR] [TARGETS...]
set -u
build=$1 secs=${2:-60} corpus=${3:-$(mktemp -d)}; shift 3 2>/dev/null || shift $#
here=$(cd "$(dirname "$0")" && pwd)
targets=${*:-fuzz_input fuzz_rkt fuzz_ham fuzz_lev fuzz_lcs}
jobs=${FUZZ_JOBS:-$(nproc 2> /dev/null || echo 1)}
# one target: its line (and the crash's first lines) into $corpus/$t.result, 1 on a crash
fuzz_one() {
	local t=$1 f r execs cov ft units log t0
	[ -x "$build/tests/$t" ] || { echo "$t: not built" > "$corpus/$t.result"; return 1; }
	mkdir -p "$corpus/$t"
	# seeds: the good and bad inputs of the tests, one option byte in front
	for f in "$here"/../data/bad/* "$here"/../data/mixed.fa "$here"/../data/ham/*.aln; do
		[ -f "$f" ] && { printf '\001\011'; cat "$f"; } > "$corpus/$t/seed_$(basename "$f")"
	done
	{ printf '\001\011'; gzip -c "$here/../data/mixed.fa"; } > "$corpus/$t/seed_mixed.fa.gz"
	command -v bgzip > /dev/null && { printf '\001\011'; bgzip -c "$here/../data/mixed.fa"; } > "$corpus/$t/seed_mixed.fa.bgz"
	log=$corpus/$t.log t0=$SECONDS
	"$build/tests/$t" -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 -timeout=20 -print_final_stats=1 \
		-artifact_prefix="$corpus/$t-" "$corpus/$t" > "$log" 2>&1
	r=$?
	execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$')
	cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
	ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1)
	units=$(ls "$corpus/$t" | wc -l)
	if [ $r -eq 0 ]; then echo "$t: ok, $secs s ($((SECONDS - t0)) s of wall), ${execs:-?} executions, $cov, $ft, corpus $units" > "$corpus/$t.result"
	else { echo "$t: CRASH (exit $r), see $log"; grep -m5 -E 'ERROR|invariant|SUMMARY' "$log"; } > "$corpus/$t.result"; return 1; fi
}
# each target runs its full time; FUZZ_JOBS (default: the CPUs) of them at once, since one
# libFuzzer process uses one core
rc=0 n=0
for t in $targets; do
	fuzz_one "$t" &
	n=$((n + 1))
	if [ $n -ge "$jobs" ]; then wait -n || rc=1; n=$((n - 1)); fi
done
while [ $n -gt 0 ]; do wait -n || rc=1; n=$((n - 1)); done
for t in $targets; do cat "$corpus/$t.result"; done
exit $rc
