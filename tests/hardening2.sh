#!/bin/bash
# Hardening round 2 (issue 27), through the CLI: outputs decided by what the path is, not by
# its spelling (a regular file under /dev/shm replaced whole, /dev/stdout and /dev/fd/N written
# through the descriptor so that >> appends); --stats after a split pair is valid JSON; no
# kind of death leaves a partial output (SIGKILL of the process, of rank 0, of mpirun); one
# error line for stdin twice, an empty output name (before any work), a bad input under
# mpirun (no "stopped by SIGTERM" after it), -k below --max-dist, --threads too high; a rank
# that cannot start ends the job (start-up watchdog).
# Usage: hardening2.sh RKTLCS MPIEXEC GENALN GENPAIRS TMPDIR
set -u
cli=$1 mpiexec=$2 genaln=$3 genpairs=$4 tmp=$5
rm -rf "$tmp"; mkdir -p "$tmp"
cd "$tmp" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
lines() { grep -c . "$1"; }
printf '>a\nACGTACGTACGTTTGACCA\n>b\nACGGACGTACGTTTGACA\n' > A.fa
printf '>c\nACGTACCTACGTTTGACCA\n>d\nTCGGACGTACGTTTGACAA\n' > B.fa
"$cli" lev A.fa B.fa -q > ref.tsv || bad "reference run"

# ---- 1. outputs: what the path is decides ----
shm=/dev/shm
[ -d "$shm" ] && [ -w "$shm" ] || shm=$PWD  # the rule is the same anywhere; /dev/shm is where it broke
o=$shm/rktlcs-h2-$$.tsv
python3 -c "print('X' * 5000)" > "$o"
"$cli" lev A.fa B.fa -q -o "$o"; rc=$?
[ $rc -eq 0 ] && cmp -s "$o" ref.tsv && ok "a regular file under $shm is replaced whole" \
	|| bad "regular file under $shm: exit $rc, $(wc -c < "$o") bytes (want $(wc -c < ref.tsv)), tail: $(tail -c 40 "$o" | tr -d '\n')"
rm -f "$o" "$shm"/.rktlcs-h2-$$.tsv.rktlcs-*
echo "the log's first line" > log.txt; cp log.txt want.txt; cat ref.tsv >> want.txt
"$cli" lev A.fa B.fa -q -o /dev/stdout >> log.txt
cmp -s log.txt want.txt && ok "-o /dev/stdout >> log appends" || bad "-o /dev/stdout >> log: $(head -c 200 log.txt)"
echo "the log's first line" > log.txt
"$cli" lev A.fa B.fa -q -o /dev/stderr 2>> log.txt
cmp -s log.txt want.txt && ok "-o /dev/stderr 2>> log appends" || bad "-o /dev/stderr 2>> log: $(head -c 200 log.txt)"
echo "the log's first line" > log.txt
"$cli" lev A.fa B.fa -q -o /dev/fd/5 5>> log.txt
cmp -s log.txt want.txt && ok "-o /dev/fd/5 5>> log appends" || bad "-o /dev/fd/5 5>> log: $(head -c 200 log.txt)"
echo "the log's first line" > log.txt
"$cli" lev A.fa B.fa -q -o /proc/self/fd/6 6>> log.txt
cmp -s log.txt want.txt && ok "-o /proc/self/fd/6 6>> log appends" || bad "-o /proc/self/fd/6 6>> log: $(head -c 200 log.txt)"
python3 -c "print('X' * 5000)" > log.txt
"$cli" lev A.fa B.fa -q -o /dev/stdout > log.txt
cmp -s log.txt ref.tsv && ok "-o /dev/stdout > file: the shell's truncation holds" || bad "-o /dev/stdout > file: $(wc -c < log.txt) bytes"
"$cli" lev A.fa B.fa -q -o /dev/null; rc=$?
[ $rc -eq 0 ] && [ -c /dev/null ] && ok "-o /dev/null: exit 0, still a device" || bad "-o /dev/null: exit $rc"
"$cli" lev A.fa B.fa -o /dev/fd/9 2> err; rc=$?
[ $rc -eq 1 ] && [ "$(lines err)" -eq 1 ] && grep -q 'no such open descriptor' err && ok "-o /dev/fd/9 (not open): exit 1, one line" \
	|| bad "-o /dev/fd/9: exit $rc, $(cat err)"
mkfifo fifo; (cat fifo > fromfifo.tsv &) ; "$cli" lev A.fa B.fa -q -o fifo; sleep 0.2
cmp -s fromfifo.tsv ref.tsv && ok "-o FIFO: written in place" || bad "-o FIFO: $(wc -c < fromfifo.tsv) bytes"

# ---- 2. --stats after a split pair: valid JSON with the split's profile ----
"$genpairs" 1 2500 0.3 11 spa.fa spb.fa > /dev/null || bad "rkt_genpairs"
for np in 2 3; do
	rm -f s.json
	RKTLCS_SPLIT_CELLS=100000 "$mpiexec" -np $np "$cli" lev spa.fa spb.fa --threads 1 -q --stats s.json -o split.tsv; rc=$?
	python3 -c "import json,sys; d=json.load(open('s.json')); assert d['split']['pairs'] == 1 and len(d['split']['rows']) == $np; r=d['rank_peak_rss_mb']; assert len(r) == $np and all(1 < x < 100000 for x in r), r" 2> jerr
	[ $rc -eq 0 ] && [ ! -s jerr ] && ok "np $np split pair --stats: valid JSON with the split" || bad "np $np split --stats: exit $rc, $(tail -1 jerr), $(tail -c 80 s.json | od -c | head -3)"
done

# ---- 4. no death leaves a partial output: SIGKILL while the output is being written ----
"$genaln" 3000 6000 30 7 > big.aln
"$cli" hamming big.aln -q -o ref_m.tsv
# watch PID until it holds a descriptor on a file in out/ (the output, being written), then SIGKILL it
kill_when_writing() {
	local pid=$1 i
	for i in $(seq 1 4000); do
		if ls -l /proc/$pid/fd 2> /dev/null | grep -q "$PWD/out/"; then kill -9 $pid; echo caught; return; fi
		kill -0 $pid 2> /dev/null || return
		sleep 0.005
	done
}
# the pid of mpirun's rank 0 (empty if it never appears)
rank0_of() {
	local i p
	for i in $(seq 1 2000); do
		for p in $(pgrep -P $1); do grep -qz '^OMPI_COMM_WORLD_RANK=0$' /proc/$p/environ 2> /dev/null && { echo $p; return; }; done
		sleep 0.005
	done
}
rm -rf out; mkdir out
"$cli" hamming big.aln -q --threads 1 -o out/m.tsv & pid=$!
caught=$(kill_when_writing $pid); wait $pid 2> /dev/null
[ "$caught" = caught ] && [ -z "$(ls -A out)" ] && ok "SIGKILL while writing: nothing left in the output directory" \
	|| bad "SIGKILL while writing (caught: ${caught:-no}): left: $(ls -A out)"
rm -rf out; mkdir out
"$mpiexec" -np 2 "$cli" hamming big.aln -q --threads 1 -o out/m.tsv 2> /dev/null & mpid=$!
rank0=$(rank0_of $mpid)
caught=""; [ -n "$rank0" ] && caught=$(kill_when_writing $rank0); wait $mpid 2> /dev/null
[ "$caught" = caught ] && [ -z "$(ls -A out)" ] && ok "SIGKILL of rank 0 while writing: nothing left" \
	|| bad "SIGKILL of rank 0 (rank 0 ${rank0:-not found}, caught: ${caught:-no}): left: $(ls -A out)"
rm -rf out; mkdir out
"$mpiexec" -np 2 "$cli" hamming big.aln -q --threads 1 -o out/m.tsv 2> /dev/null & mpid=$!
rank0=$(rank0_of $mpid)
caught=""
for i in $(seq 1 4000); do
	[ -n "$rank0" ] || break
	if ls -l /proc/$rank0/fd 2> /dev/null | grep -q "$PWD/out/"; then kill -9 $mpid; caught=caught; break; fi
	kill -0 $rank0 2> /dev/null || break; sleep 0.005
done
wait $mpid 2> /dev/null
# the ranks outlive mpirun's SIGKILL and may finish: then the output must be whole
for i in $(seq 1 600); do kill -0 $rank0 2> /dev/null || break; sleep 0.05; done
left=$(ls -A out | grep -v '^m.tsv$')
[ "$caught" = caught ] && [ -z "$left" ] && { [ ! -e out/m.tsv ] || cmp -s out/m.tsv ref_m.tsv; } \
	&& ok "SIGKILL of mpirun while writing: no temporary left, $( [ -e out/m.tsv ] && echo 'the output whole' || echo 'no output')" \
	|| bad "SIGKILL of mpirun (caught: ${caught:-no}): left: $(ls -A out)"
# (only this test's ranks: another suite on the machine may run the same command elsewhere)
for p in $(pgrep -f "hamming big.aln"); do [ "$(readlink /proc/$p/cwd 2> /dev/null)" = "$PWD" ] && kill -9 $p 2> /dev/null; done

# ---- 6. one error line, early ----
printf '>a\nACGT\n' | "$cli" lev - - -o o.tsv 2> err; rc=$?
[ $rc -eq 1 ] && [ "$(lines err)" -eq 1 ] && grep -q "standard input ('-') can be given once" err && [ ! -e o.tsv ] \
	&& ok "lev - -: $(cat err)" || bad "lev - -: exit $rc, $(cat err)"
start=$(date +%s.%N)
"$cli" hamming big.aln --threads 1 -o '' 2> err; rc=$?
dt=$(echo "$(date +%s.%N) - $start" | bc)
# (before the read and the pairs, which take seconds; a sanitizer build's start alone took
# 0.6 s on a loaded 2-core machine)
lim=0.5; [ -n "${RKTLCS_TEST_SANITIZE:-}" ] && lim=1.5
[ $rc -eq 1 ] && [ "$(lines err)" -eq 1 ] && grep -q 'empty' err && [ "$(echo "$dt < $lim" | bc)" = 1 ] \
	&& ok "-o '': refused when parsing ($dt s): $(cat err)" || bad "-o '': exit $rc after $dt s (limit $lim), $(cat err)"
for opt in --stats --candidates; do
	"$cli" A.fa -k 1 -t 1 -tau 2 $opt '' 2> err; rc=$?
	[ $rc -eq 1 ] && grep -q 'empty' err && ok "$opt '': refused" || bad "$opt '': exit $rc, $(cat err)"
done
printf '>a\nACGT\n>b\nAC!T\n' > badrec.fa
n_two=0
for i in $(seq 1 12); do
	"$mpiexec" -np 3 "$cli" lev badrec.fa A.fa -o o.tsv 2> err; rc=$?
	[ "$(grep -c rktlcs err)" -eq 1 ] || { n_two=$((n_two + 1)); cp err err.two; }
done
[ $n_two -eq 0 ] && ok "bad input at np 3, 12 runs: one line each" || bad "bad input at np 3: $n_two of 12 runs gave more than one line: $(cat err.two)"
"$cli" lev --all --max-dist 3 -k 1 A.fa 2> err; rc=$?
[ $rc -eq 1 ] && [ "$(lines err)" -eq 1 ] && grep -q 'below --max-dist' err && ok "--all --max-dist 3 -k 1: $(cat err)" \
	|| bad "--all --max-dist 3 -k 1: exit $rc, $(cat err)"
"$cli" lev --all --max-dist 3 -k 5 A.fa -q > /dev/null; rc=$?
[ $rc -eq 0 ] && ok "--all --max-dist 3 -k 5: accepted" || bad "--all --max-dist 3 -k 5: exit $rc"
"$cli" lev A.fa B.fa --threads 100000 -o o.tsv 2> err; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c warning err)" -eq 1 ] && grep -q 'warning: --threads 100000' err \
	&& ok "--threads 100000: one warning naming it" || bad "--threads 100000: exit $rc, $(grep warning err)"

# ---- 9. a rank that cannot start ends the job ----
# Under an address-space limit that leaves MPI_Init working but the node's shared-memory
# set-up failing, Open MPI's ranks wait forever in MPI_Comm_split_type. The limit that does
# it depends on the build, so several are tried; none may hang.
if [ -n "${RKTLCS_TEST_SANITIZE:-}" ]; then echo "SKIP start-up watchdog under ulimit -v (sanitizer build)"
else
	# the window of limits that hang moves with the binary's size (about 50 MB here without
	# CUDA, 70 MB with it): walk down until the watchdog has stopped two runs
	hung=0 watched=0 tried=0
	for v in $(seq 90000 -2000 36000); do
		tried=$((tried + 1))
		RKTLCS_START_TIMEOUT=3 timeout 20 "$mpiexec" -np 1 bash -c 'ulimit -v '$v'; exec "$0" lev A.fa B.fa -q' "$cli" : -np 1 "$cli" lev A.fa B.fa -q > /dev/null 2> err; rc=$?
		[ $rc -eq 124 ] && { hung=$((hung + 1)); echo "ulimit -v $v: hung"; break; }
		grep -q 'MPI start-up did not finish within 3 s' err && watched=$((watched + 1))
		[ $watched -ge 2 ] && break
	done
	[ $hung -eq 0 ] && ok "ulimit -v on one rank: no hang in $tried limits ($watched stopped by the watchdog)" || bad "ulimit -v on one rank: a run hung"
	[ $watched -gt 0 ] || echo "note: no limit reproduced the stuck start-up in this build"
fi
RKTLCS_START_TIMEOUT=30 "$mpiexec" -np 2 "$cli" lev A.fa B.fa -q > o.tsv; rc=$?
[ $rc -eq 0 ] && cmp -s o.tsv ref.tsv && ok "np 2 with the watchdog armed: normal output" || bad "np 2 with the watchdog: exit $rc"

echo "hardening2: $pass passed, $fail failed"
[ $fail -eq 0 ]
