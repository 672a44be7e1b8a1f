#!/bin/bash
# mpirun's default binding (issue 57): Open MPI binds each rank to one core at np <= 2, where
# the rank's threads would all share it (mpirun -np 1 on 2 cores: 4.7 s against 2.5 s). A rank
# so bound by default takes every CPU its cpuset gives; a binding the user asked for (--bind-to,
# OMP_PROC_BIND) is kept; outputs are those of a run without mpirun.
# Usage: bind.sh RKTLCS MPIEXEC GENREADS TMPDIR
set -u
cli=$1 mpiexec=$2 genreads=$3 tmp=$4
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
online=$(getconf _NPROCESSORS_ONLN)
mask=$(grep Cpus_allowed_list /proc/self/status | cut -f2)
if [ "$online" -lt 2 ] || [ "$mask" != "0-$((online - 1))" ]; then
	echo "SKIP fewer than 2 CPUs, or this shell is bound already ($mask)"; exit 77
fi
"$genreads" 600 51 5 > r.fa
"$cli" r.fa -k 2 -t 10 -tau 12 --backend cpu -q -o ref.tsv || { echo "FAIL the run without mpirun"; exit 1; }
run() {  # run NAME WANT(1: widened, 0: kept) MPIRUN-ARGS...
	local name=$1 want=$2; shift 2
	"$mpiexec" "$@" "$cli" r.fa -k 2 -t 10 -tau 12 --backend cpu -v -o o.tsv 2> err; local rc=$?
	local said; said=$(grep -c "rank 0's CPUs: $online," err)
	if [ $rc = 0 ] && cmp -s o.tsv ref.tsv && [ "$said" = "$want" ]; then ok "$name: $([ "$want" = 1 ] && echo "every CPU, said" || echo "binding kept"), output as without mpirun"
	else bad "$name: exit $rc, output $(cmp -s o.tsv ref.tsv && echo same || echo differs), line said $said times (want $want): $(grep -i "error\|CPUs" err | head -2)"; fi
}
# the mask a rank gets as the process sees it (the tool's line reports rmpi_cpus after widening)
"$mpiexec" -np 1 grep -q "Cpus_allowed_list:.[0-9]*$" /proc/self/status && ok "mpirun -np 1 binds to one core here: the case to fix" \
	|| echo "note: this mpirun does not bind -np 1 to one core; the widening has nothing to do"
run "mpirun -np 1" 1 -np 1
run "mpirun -np 1 --bind-to core" 0 -np 1 --bind-to core
run "mpirun -np 1 --bind-to none" 0 -np 1 --bind-to none
run "mpirun -np 1, OMP_PROC_BIND=close" 0 -np 1 -x OMP_PROC_BIND=close
# two ranks on two CPUs: a thread each on a core each, nothing to widen
[ "$online" = 2 ] && run "mpirun -np 2 on 2 CPUs" 0 --oversubscribe -np 2
echo "bind: $pass passed, $fail failed"
[ $fail -eq 0 ]
