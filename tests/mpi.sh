#!/bin/bash
# 1 rank against N ranks: byte-identical output (result, candidates, occurrences) under
# mpirun -np 1..4, and a bad input under 3 ranks ends the whole job with exit 1, no hang.
# PART base (default): the paper's first 100 reads (data/sample) and the test data; real: the
# paper's 1k reads of ../shared/data alone (ctest cli_mpi_real), exit 77 (skipped) without them.
set -u
cli=$1 mpiexec=$2 shared=$3 tmp=$4 data=$5 part=${6:-base}
mkdir -p "$tmp"; rm -f "$tmp"/*
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail=0 pass=0
mpi() { timeout 300 "$mpiexec" --oversubscribe -np "$@"; }
sets=("$data/../../data/sample/paper_1k_head.fa:3:20:10" "$data/mixed.fa:2:3:8" "$data/mixed.fa:40:2:1")
if [ "$part" = real ]; then
	[ -r "$shared/paper-reads/1k.fasta" ] || { echo "SKIPPED: the paper's 1k reads under mpirun -np 1..4: ../shared/data not found ($shared)"; exit 77; }
	sets=("$shared/paper-reads/1k.fasta:3:20:10")
fi
for set in "${sets[@]}"; do
	IFS=: read -r f k t tau <<< "$set"
	for np in 1 2 3 4; do
		mpi $np "$cli" "$f" -k $k -t $t -tau $tau --candidates "$tmp/c$np.tsv" -o "$tmp/o$np.tsv" --occurrences --threads 1 -q
		rc=$?
		if [ $rc -ne 0 ]; then echo "FAIL np=$np $f: exit $rc"; fail=$((fail + 1)); continue; fi
		if [ $np -gt 1 ]; then
			if cmp -s "$tmp/o1.tsv" "$tmp/o$np.tsv" && cmp -s "$tmp/c1.tsv" "$tmp/c$np.tsv"; then pass=$((pass + 1)); echo "ok   np=$np $(basename $f) k=$k t=$t tau=$tau"
			else fail=$((fail + 1)); echo "FAIL np=$np $(basename $f): output differs from np=1"; fi
		fi
	done
	grep -v '^#' "$tmp/o1.tsv" | head -3
done
if [ "$part" = real ]; then echo "$pass passed, $fail failed"; [ $fail -eq 0 ]; exit; fi
# mpirun -np 1 runs as one plain process (no MPI_Init: comm.c's world of one); with MPI
# forced it gives the same bytes, and -v says which it was
f=${sets[0]%%:*}
mpi 1 "$cli" "$f" -k 3 -t 20 -tau 10 --threads 1 -v -o "$tmp/w1.tsv" 2> "$tmp/w1.err"
mpi 1 -x RKTLCS_FORCE_MPI=1 "$cli" "$f" -k 3 -t 20 -tau 10 --threads 1 -v -o "$tmp/wf.tsv" 2> "$tmp/wf.err"
if grep -q 'world of one rank: run as one plain process' "$tmp/w1.err" && ! grep -q 'mpi: 1 ranks' "$tmp/w1.err" \
	&& grep -q 'mpi: 1 ranks on 1 node' "$tmp/wf.err" && cmp -s "$tmp/w1.tsv" "$tmp/wf.tsv"; then
	pass=$((pass + 1)); echo "ok   np=1 without MPI_Init equals np=1 with it"
else fail=$((fail + 1)); echo "FAIL np=1 without MPI_Init: $(grep -h 'mpi:' "$tmp/w1.err" "$tmp/wf.err" | tr '\n' ' ')"; fi
# CPU ranks deal out the unordered pairs and sum the counters to the reads' owners (rank 0's
# debug line says so); the loop above compared their output with np=1
mpi 3 "$cli" "$data/mixed.fa" -k 2 -t 3 -tau 8 --threads 1 -v -o "$tmp/dv.tsv" 2> "$tmp/dv.err"
grep -q 'pairs dealt out to the CPU ranks' "$tmp/dv.err" && { pass=$((pass + 1)); echo "ok   np=3 CPU ranks share out the pairs"; } \
	|| { fail=$((fail + 1)); echo "FAIL np=3: the CPU ranks did not share out the pairs"; }
# JSON output is rank-independent too
mpi 1 "$cli" "$data/mixed.fa" -k 2 -t 3 -tau 8 --format json -o "$tmp/j1.json" -q
mpi 3 "$cli" "$data/mixed.fa" -k 2 -t 3 -tau 8 --format json -o "$tmp/j3.json" -q
cmp -s "$tmp/j1.json" "$tmp/j3.json" && { pass=$((pass + 1)); echo "ok   json np=3"; } || { fail=$((fail + 1)); echo "FAIL json np=3"; }
# how the ranks get the reads: rank 0 reads and broadcasts (the default), each rank reads the
# file (RKTLCS_READ_EACH=1), and stdin: the same output; the bad input's message is printed once,
# also when every rank reads it
RKTLCS_READ_EACH=1 mpi 3 "$cli" "$data/mixed.fa" -k 2 -t 3 -tau 8 --format json -o "$tmp/jb.json" -q
mpi 3 "$cli" - -k 2 -t 3 -tau 8 --format json -o "$tmp/js.json" -q < "$data/mixed.fa"
sed -i 's/"input":"-"/"input":"'"${data//\//\\/}"'\/mixed.fa"/' "$tmp/js.json"   # the input's name is all that differs
if cmp -s "$tmp/j1.json" "$tmp/jb.json" && cmp -s "$tmp/j1.json" "$tmp/js.json"; then pass=$((pass + 1)); echo "ok   reads broadcast / read by each rank / stdin: same output"
else fail=$((fail + 1)); echo "FAIL broadcast or stdin reads differ from each rank reading"; fi
# failures end the job
for each in 0 1; do
	RKTLCS_READ_EACH=$each mpi 3 "$cli" "$data/bad/stray_digit.fa" -k 1 -t 1 -tau 1 -o "$tmp/bad.tsv" -q 2> "$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(grep -c 'stray_digit.fa: record 2' "$tmp/err")" = 1 ] && [ ! -e "$tmp/bad.tsv" ]; then pass=$((pass + 1)); echo "ok   bad input under np=3 (read each $each): exit 1"
	else fail=$((fail + 1)); echo "FAIL bad input under np=3 (read each $each): exit $rc"; cat "$tmp/err"; fi
done
mpi 2 "$cli" "$data/mixed.fa" -k 1 -t 1 -tau 1 -o /nonexistent/dir/out.tsv -q 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] && { pass=$((pass + 1)); echo "ok   unwritable output under np=2: exit 1"; } || { fail=$((fail + 1)); echo "FAIL unwritable output: exit $rc"; }
# the sanitizer build: a block a rank loses is reported, while what Open MPI loses in MPI_Init
# is not (src/mpi/transport/comm.c), so ranks need no slow unwinder to name its stacks
if [ -n "${RKTLCS_TEST_SANITIZE:-}" ]; then
	RKTLCS_TEST_LEAK=2 mpi 3 -x RKTLCS_TEST_LEAK "$cli" "$data/mixed.fa" -k 2 -t 3 -tau 8 --threads 1 -q -o "$tmp/lk.tsv" 2> "$tmp/lk.err"
	rc=$? n=$(grep -c 'ERROR: LeakSanitizer' "$tmp/lk.err")
	[ $rc -ne 0 ] && [ "$n" = 1 ] && grep -q 'Direct leak of 4242 byte(s) in 1 object' "$tmp/lk.err" && [ "$(grep -c 'leak of' "$tmp/lk.err")" = 1 ] \
		&& { pass=$((pass + 1)); echo "ok   ASan: rank 2's lost block reported, alone (exit $rc)"; } \
		|| { fail=$((fail + 1)); echo "FAIL ASan: rank 2's lost block: exit $rc, $n reports, $(grep 'leak of' "$tmp/lk.err" | head -3)"; }
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
