#!/bin/bash
# Two nodes on one machine (issue 32): mpirun with a hostfile of two hosts, this one and
# "rktlcs-node2", whose daemon tests/node_agent.sh (plm_rsh_agent, in place of ssh) starts here
# under its own host name. Open MPI's locality then puts ranks 2 and 3 on another node:
# MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) gives two sets of two, the shared-memory transport
# stays inside each, and the nodes talk over TCP. Checked first: -v names 4 ranks on 2 nodes and
# --stats gives "nodes":2. Then every mode at 2 x 2 ranks (and 2 x 1 with rank 1 on the second
# node, where the two-input read must not give rank 1 the second file) gives the one-process
# output byte for byte: Rkt-LCS (on GPUs also its supports summed through the host, the path
# taken across nodes), hamming matrix, long and sparse, lev/lcs pairs, --all, and split pairs
# (RKTLCS_SPLIT_PLAN=band/all). Node-local files (the agent mounts another directory over the
# inputs' on the second node): two inputs with rank 1 on either node (node 1's files read);
# RKTLCS_READ_EACH: same copies, a different copy (rank 0's used),
# none there (rank 0 reads and broadcasts), and a bad copy only the second node reads: one
# error message, exit 1, no output, no hang. Last, a rank of the second node killed mid-run:
# the job ends, nonzero, within the timeout.
# Exit 77 (skipped) when mpirun is not Open MPI's or the agent cannot make a UTS and mount
# namespace here (not root and no user namespaces).
# Usage: nodes.sh RKTLCS MPIEXEC GENALN GENPAIRS TMPDIR
set -u
cli=$1 mpiexec=$2 genaln=$3 genpairs=$4 tmp=$5
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data
rm -rf "$tmp"; mkdir -p "$tmp/n1" "$tmp/n2"
cd "$tmp" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$mpiexec" --version 2>&1 | grep -Eq 'OpenRTE|Open MPI' || { echo "SKIPPED: $mpiexec is not Open MPI's (plm_rsh_agent)"; exit 77; }
h=$("$here/node_agent.sh" rktlcs-node2 hostname 2> agent.err)
[ "$h" = rktlcs-node2 ] || { echo "SKIPPED: node_agent.sh cannot start a node here: $(head -c 300 agent.err)"; exit 77; }
# the sanitizer build: an mpirun of 4 ranks takes ~10 s there (with or without a second node),
# so a subset runs: each mode once at 2 x 2, the two-input read at 2 x 1, a different and a bad
# node-local copy, the killed rank
san=${RKTLCS_TEST_SANITIZE:-}
full() { [ -z "$san" ] || { echo "skipped (sanitizer build): $*"; return 1; }; }
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
printf '%s slots=2\nrktlcs-node2 slots=2\n' "$(hostname)" > hosts
export NODE_AGENT_LOG=$tmp/agent.log
# loopback for both Open MPI channels: the TCP transport leaves lo out by default, and a CI
# container may have no other interface. Four ranks on a 2-core machine: waiting ranks yield
# (hamming 300 x 3 kb at 2 x 2 on the loaded 2-core machine: 0.9 s against 3.1-3.6 s spinning)
two() {  # mpirun options then rktlcs arguments; -x passes the RKTLCS_ switches to the other node
	timeout 60 "$mpiexec" --hostfile hosts --bind-to none --mca plm_rsh_agent "$here/node_agent.sh" \
		--mca btl_tcp_if_include lo --mca oob_tcp_if_include lo --mca mpi_yield_when_idle 1 \
		-x RKTLCS_SPLIT_PLAN -x RKTLCS_SPLIT_CELLS -x RKTLCS_READ_EACH -x RKTLCS_TEST_TAG "$@"
}
# RKTLCS_TEST_TAG marks this test's ranks (the killed rank below: another suite on the machine
# may run ranks of the same rank number)
export RKTLCS_SPLIT_PLAN='' RKTLCS_SPLIT_CELLS='' RKTLCS_READ_EACH='' RKTLCS_TEST_TAG=nodes.$$
# the nodes as rktlcs sees them
zcat "$here/../data/sample/ERR127302_2k.fastq.gz" | head -2000 > reads.fq
two -np 4 "$cli" rkt reads.fq -k 2 -t 5 -tau 20 --backend cpu -v --stats s.json -o o.tsv 2> err; rc=$?
if [ $rc -eq 0 ] && grep -q "mpi: 4 ranks on 2 node(s), 2 on rank 0's" err && grep -q '"ranks":4,"nodes":2,' s.json \
	&& grep -q 'node_agent: rktlcs-node2: .*orted' agent.log; then
	ok "2 x 2: $(grep -o 'mpi: .*' err), the second node's daemon started by node_agent.sh"
else
	bad "not two nodes: exit $rc, $(grep -m1 'mpi:' err) $(head -c 200 s.json) $(head -c 300 err)"
	echo "nodes: $pass passed, $fail failed"; exit 1
fi
# every mode: one process against 2 x 2, and where the ranks' places matter (the two-input read,
# the split pair's halves) 2 x 1, rank 1 on the second node
same() {  # label, spread (1: also 2 x 1), rktlcs arguments (the reference runs as one process)
	local lab=$1 spread=$2 rc; shift 2
	"$cli" "$@" -q -o ref.tsv 2> err || { bad "$lab: one process: exit $? $(head -c 300 err)"; return; }
	two -np 4 "$cli" "$@" -q -o np.tsv 2> err; rc=$?
	[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv || { bad "$lab: 2 x 2: exit $rc $(head -c 300 err) $(diff ref.tsv np.tsv | head -3)"; return; }
	rm -f np.tsv
	[ -n "$san" ] && spread=0
	[ "$spread" = 1 ] && { two -np 2 --map-by node "$cli" "$@" -q -o np.tsv 2> err; rc=$?; }
	[ $rc -eq 0 ] && { [ "$spread" = 0 ] || cmp -s ref.tsv np.tsv; } \
		&& ok "$lab: 2 x 2$([ "$spread" = 1 ] && echo ' and 2 x 1') = one process ($(grep -vc '^#' ref.tsv) lines)" \
		|| bad "$lab: 2 x 1: exit $rc $(head -c 300 err) $(diff ref.tsv np.tsv | head -3)"
}
# Rkt-LCS: the result and every read's candidates
"$cli" rkt reads.fq -k 4 -t 10 -tau 15 --backend cpu -q -o ref.tsv --candidates ref.cand
two -np 4 "$cli" rkt reads.fq -k 4 -t 10 -tau 15 --backend cpu -q -o np.tsv --candidates np.cand 2> err; rc=$?
[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && cmp -s ref.cand np.cand && ok "rkt: 2 x 2 = one process ($(wc -l < ref.cand) candidate lines)" \
	|| bad "rkt: 2 x 2: exit $rc $(head -c 300 err) $(diff ref.cand np.cand | head -3)"
"$genaln" 300 3000 2 7 > aln.fa
full "hamming matrix" && same "hamming matrix" 0 hamming aln.fa --backend cpu
full "hamming -m -a" && same "hamming -m -a" 0 hamming -m -a aln.fa --backend cpu
same "hamming --max-dist 40" 0 hamming --max-dist 40 aln.fa --backend cpu
awk '/^>/ { n++ } n <= 40' "$data/mixed.fa" > A.fa
awk '/^>/ { print; next } { s = ""; for (i = 1; i <= length($0); i++) { c = substr($0, i, 1); if (i % 17 == 0) c = "A"; if (i % 29 != 0) s = s c } print s }' A.fa > B.fa
head -2 A.fa > one.fa
same "lev pairs --path" 1 lev A.fa B.fa --path --backend cpu
full "lev one x many" && same "lev one x many -k 5" 0 lev one.fa B.fa -k 5 --path --backend cpu
same "lcs pairs --seq --path" 1 lcs A.fa B.fa --seq --path --backend cpu
same "lev --all --max-dist 40" 0 lev --all A.fa --max-dist 40 --path --backend cpu
full "lcs many x one" && same "lcs many x one json" 0 lcs B.fa one.fa --path --format json --backend cpu
"$genpairs" 1 20000 5 3 sa.fa sb.fa > /dev/null
for plan in band all; do
	[ "$plan" = all ] && ! full "split pairs, RKTLCS_SPLIT_PLAN=all" && break
	export RKTLCS_SPLIT_PLAN=$plan RKTLCS_SPLIT_CELLS=1000
	same "split lev --path ($plan)" 1 lev sa.fa sb.fa --path --backend cpu --threads 1
	full "split lcs ($plan)" && same "split lcs --seq --path ($plan)" 1 lcs sa.fa sb.fa --seq --path --backend cpu --threads 1
done
export RKTLCS_SPLIT_PLAN='' RKTLCS_SPLIT_CELLS=''
# Rkt-LCS on GPUs (against the CPU reference above): across nodes the supports are summed through the host, not by CUDA IPC
if "$cli" --version | grep -q '^gpu: CUDA, [0-9]* device'; then
	two -np 4 "$cli" rkt reads.fq -k 4 -t 10 -tau 15 --backend gpu -v -o np.tsv --candidates np.cand 2> err; rc=$?
	[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && cmp -s ref.cand np.cand && grep -q 'rkt: rank 0: supports summed through the host' err \
		&& ok "rkt GPU 2 x 2: supports summed through the host, = one CPU process" \
		|| bad "rkt GPU 2 x 2: exit $rc $(grep -m2 'rkt: rank 0: supports' err) $(diff ref.tsv np.tsv | head -3)"
else
	echo "skipped: Rkt-LCS's supports summed through the host on GPUs (no usable CUDA device)"
fi
# node-local files: node 1 sees n1/, node 2 sees n2/ at the same path
export NODE_AGENT_BIND="$tmp/n2 $tmp/n1"
# two inputs: rank 1 reads the second while rank 0 reads the first only where it shares rank 0's
# node; on the second node (2 x 1) its copy of n1/b.fa is another file and must not be used
cp A.fa n1/a.fa; cp B.fa n1/b.fa; cp B.fa n2/a.fa; cp A.fa n2/b.fa
"$cli" lev n1/a.fa n1/b.fa --path --backend cpu -q -o ref.tsv
for m in "-np 4" "-np 2 --map-by node"; do
	[ "$m" = "-np 4" ] && ! full "two node-local inputs at 2 x 2" && continue
	rm -f np.tsv
	# shellcheck disable=SC2086  # m: mpirun options
	two $m "$cli" lev n1/a.fa n1/b.fa --path --backend cpu -q -o np.tsv 2> err; rc=$?
	[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && ok "two inputs, node-local copies, $m: node 1's files read" \
		|| bad "two inputs, node-local copies, $m: exit $rc $(head -c 300 err) $(diff ref.tsv np.tsv | head -3)"
done
rm -f n1/* n2/*
# RKTLCS_READ_EACH
export RKTLCS_READ_EACH=1
each() {  # what node 2 holds (same, other, none), the -v line expected ("": no copies differ), args
	local held=$1 line=$2 rc good=0; shift 2
	rm -f n2/* np.tsv
	[ "$held" = same ] && cp n1/in.fa n2/in.fa
	[ "$held" = other ] && cp B.fa n2/in.fa
	"$cli" "$@" n1/in.fa --backend cpu -q -o ref.tsv
	two -np 4 "$cli" "$@" n1/in.fa --backend cpu -v -o np.tsv 2> err; rc=$?
	[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && good=1
	if [ -n "$line" ]; then grep -q "$line" err || good=0; else grep -q 'copies differ' err && good=0; fi
	[ $good = 1 ] && ok "READ_EACH, node 2 holds $held copy: = one process${line:+ ($line)}" \
		|| bad "READ_EACH, node 2 holds $held copy: exit $rc $(grep -m2 'in.fa' err) $(diff ref.tsv np.tsv | head -3)"
}
cp A.fa n1/in.fa
full "READ_EACH, the same copy" && each same "" lev --all --max-dist 40
each other "the ranks' copies differ; using rank 0's" lev --all --max-dist 40
full "READ_EACH, no copy" && each no "" lev --all --max-dist 40
# a bad copy that only the second node's ranks read (a truncated FASTQ record): lev --all reads
# the input on every rank (READ_EACH): one message (rank 0's), exit 1, no output
printf '@x\nACGT\n+\nIIII\n@y\nACGT\n+\nII\n' > n2/in.fa
cp aln.fa n1/in.fa
rm -f np.tsv
two -np 4 "$cli" lev --all n1/in.fa --max-dist 40 --backend cpu -o np.tsv 2> err; rc=$?
n=$(grep -c 'error' err)
[ $rc -eq 1 ] && [ "$n" -eq 1 ] && grep -q "n1/in.fa: another rank could not read it" err && [ ! -e np.tsv ] \
	&& ok "a bad copy on node 2 only: exit 1, one message: $(grep error err)" \
	|| bad "a bad copy on node 2 only: exit $rc, $n error lines: $(head -c 400 err)"
# hamming reads byte ranges of the file only where every rank's copy is rank 0's (its size, its
# first and last bytes): node 2's other copies, that FASTQ or a FASTA of the same size with other
# bases, are never read; rank 0 hands its own out
"$cli" hamming n1/in.fa --backend cpu -q -o ref.tsv
for other in fastq fasta; do
	[ $other = fasta ] && awk '/^>/ { print; next } { gsub(/A/, "C"); print }' aln.fa > n2/in.fa
	rm -f np.tsv
	two -np 4 "$cli" hamming n1/in.fa --backend cpu -v -o np.tsv 2> err; rc=$?
	[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && { [ $other = fastq ] || grep -q "copies differ; rank 0 reads it" err; } \
		&& ok "hamming, node 2 holds another $other under the name: rank 0's copy used, = one process" \
		|| bad "hamming, node 2 holds another $other: exit $rc $(grep -m2 'error\|differ' err) $(diff ref.tsv np.tsv | head -3)"
done
export RKTLCS_READ_EACH='' NODE_AGENT_BIND=''
# a rank of the second node killed mid-run: mpirun ends the job, nonzero, no hang
# (lev --all --path of 1500 x 200 bp: ~30 s on one thread, the kill lands within its first 2 s)
awk 'BEGIN { srand(3); for (i = 0; i < 1500; i++) { s = ""; for (k = 0; k < 200; k++) s = s substr("ACGT", int(rand() * 4) + 1, 1)
	printf ">r%d\n%s\n", i, s } }' > big.fa
rm -f np.tsv
t0=$(date +%s)
two -np 4 "$cli" lev --all big.fa --path --backend cpu --threads 1 -q -o np.tsv 2> err & pid=$!
victim=
for _ in $(seq 100); do
	# rank 3 (on the second node: ranks fill node 1's two slots first)
	for p in $(pgrep -x rktlcs); do
		grep -qzx OMPI_COMM_WORLD_RANK=3 "/proc/$p/environ" 2> /dev/null && grep -qzx "RKTLCS_TEST_TAG=nodes.$$" "/proc/$p/environ" \
			&& { victim=$p; break; }
	done
	[ -n "$victim" ] && break
	sleep 0.1
done
sleep 1
[ -n "$victim" ] && kill -9 "$victim"
wait $pid; rc=$?
dt=$(( $(date +%s) - t0 ))
[ -n "$victim" ] && [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ ! -e np.tsv ] && ok "a rank of node 2 killed: exit $rc after ${dt} s, no output" \
	|| bad "a rank of node 2 killed (pid ${victim:-none found}): exit $rc after ${dt} s $(head -c 300 err)"
echo "nodes: $pass passed, $fail failed"
[ $fail -eq 0 ]
