#!/bin/bash
# Signals and limits end a run cleanly (issue 9): SIGTERM or SIGINT during the work, a
# file-size limit (SIGXFSZ) while writing, SIGTERM to mpirun, and a killed rank: a one-line
# message, a meaningful exit status (128 + signal; 2 for a size limit), no output file and
# no temporary left behind. hamming opened its output before computing, so these runs
# left OUT.tmp.PID files; now temporaries exist only while writing and are removed.
# Usage: signals.sh RKTLCS MPIEXEC GENALN TMPDIR
set -u
set -m  # job control: background jobs get SIGINT like foreground ones (not ignored)
cli=$1 mpiexec=$2 genaln=$3 tmp=$4
. "$(dirname "$0")/lib.sh"
t_begin "$tmp"
# alignments whose distances take many seconds (long.aln, 1 thread) or about one (big.aln)
"$genaln" 6000 6000 30 7 > big.aln
"$genaln" 24000 6000 30 7 > long.aln
clean() { [ -z "$(ls -A out 2>/dev/null)" ]; }
for sig in TERM INT; do
	rm -rf out; mkdir out
	"$cli" hamming long.aln --max-dist 3 --threads 1 -o out/m.tsv 2> err & pid=$!
	sleep 1.5; kill -$sig $pid; wait $pid; rc=$?
	want=$((128 + $(kill -l $sig)))
	[ $rc -eq $want ] && clean && grep -q "stopped by SIG$sig" err && ok "SIG$sig during the work: exit $rc, nothing left: $(grep SIG err)" \
		|| bad "SIG$sig: exit $rc (want $want), left: $(ls out), $(tail -1 err)"
done
# a file-size limit hit while writing: exit 2, the partial temporary removed
rm -rf out; mkdir out
( ulimit -f 64; exec "$cli" hamming big.aln -o out/m.tsv -q ) 2> err; rc=$?
[ $rc -eq 2 ] && clean && grep -qiE 'SIGXFSZ|File too large' err && ok "file-size limit: exit 2, nothing left: $(cat err | head -1)" \
	|| bad "file-size limit: exit $rc, left: $(ls out), $(cat err)"
started() {  # until both ranks have said they run (at most 60 s), then a second into the work
	for _ in $(seq 300); do grep -q 'mpi: 2 ranks' err && break; sleep 0.2; done
	sleep 1
}
# SIGTERM to mpirun: the ranks stop, say why, and leave nothing (mpirun's own status is 1)
rm -rf out; mkdir out
# (-v: wait until the ranks have started, which takes seconds on a loaded machine: a SIGTERM
# during the launch ends them before they run, with nothing to say)
"$mpiexec" --oversubscribe -np 2 "$cli" hamming long.aln --max-dist 3 --threads 1 -v -o out/m.tsv 2> err & pid=$!
started
kill -TERM $pid; wait $pid; rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && clean && grep -q 'stopped by SIGTERM' err && ok "SIGTERM to mpirun: exit $rc, nothing left" \
	|| bad "SIGTERM to mpirun: exit $rc, left: $(ls out), $(grep -v '^\s*$' err | tail -2)"
# a killed rank ends the job (mpirun kills the others), nothing left
rm -rf out; mkdir out
timeout 60 "$mpiexec" --oversubscribe -np 2 "$cli" hamming long.aln --max-dist 3 --threads 1 -v -o out/m.tsv 2> err & pid=$!
started
# one of this test's ranks (its working directory: another suite may run the same command)
for p in $(pgrep -f "rktlcs hamming long.aln"); do
	[ "$(readlink /proc/$p/cwd 2> /dev/null)" = "$PWD" ] && { kill -KILL $p; break; }
done
wait $pid; rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && clean && ok "a killed rank: exit $rc, nothing left" || bad "a killed rank: exit $rc, left: $(ls out)"
echo "signals: $pass passed, $fail failed"
[ $fail -eq 0 ]
