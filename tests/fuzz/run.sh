#!/bin/bash
# Run every fuzz target for SECONDS of one core each (CI: 60), seeded from tests/data and the
# corpus kept in CORPUS_DIR (default: a temporary folder). Prints one line per target: CPU and
# wall time, executions, coverage, new units, and whether it crashed. Exit 1 on any crash.
# FUZZ_JOBS (default: the CPUs) is the cores they share.
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
	local TIMEFORMAT='%U %S'
	{ time "$build/tests/$t" -max_total_time="$wall" -rss_limit_mb=2048 -max_len=65536 -timeout=20 -print_final_stats=1 \
		-artifact_prefix="$corpus/$t-" "$corpus/$t" > "$log" 2>&1; } 2> "$corpus/$t.cpu"
	r=$?
	local cpu; cpu=$(awk '{ printf "%.0f", $1 + $2 }' "$corpus/$t.cpu" 2> /dev/null)
	execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$')
	cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
	ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1)
	units=$(ls "$corpus/$t" | wc -l)
	if [ $r -eq 0 ]; then echo "$t: ok, ${cpu:-?} s of CPU ($((SECONDS - t0)) s of wall), ${execs:-?} executions, $cov, $ft, corpus $units" > "$corpus/$t.result"
	else { echo "$t: CRASH (exit $r), see $log"; grep -m5 -E 'ERROR|invariant|SUMMARY' "$log"; } > "$corpus/$t.result"; return 1; fi
}
# every target at once, for as long as gives each SECONDS of one core when more targets than
# cores share them (one libFuzzer process uses one core): rounds of FUZZ_JOBS targets left a
# core idle in the last round
ntargets=$(echo $targets | wc -w)
wall=$secs
[ "$ntargets" -gt "$jobs" ] && wall=$(((secs * ntargets + jobs - 1) / jobs))
rc=0
for t in $targets; do fuzz_one "$t" & done
for t in $targets; do wait -n || rc=1; done
for t in $targets; do cat "$corpus/$t.result"; done
exit $rc
