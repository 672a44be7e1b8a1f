#!/bin/bash
# Ranks on a busy host under cpusets (issue 29): where a rank may run on some of the host's CPUs
# only (srun's cpuset, taskset, mpirun's binding), the host's runnable threads say nothing of its
# CPUs, so its probe decides its threads, and a rank computing a pair alone is capped too.
# - two ranks on the same busy half of the CPUs: each finds 1 thread free, and a rank alone is
#   capped at the 2 that the two ranks' probes found (d527103: no cap under a cpuset);
# - rank 0 on the idle half, rank 1 on the busy half: rank 1's view is said, prefixed by its rank,
#   without a cap (only rank 0 computes a pair alone); rank 0's line, if its idle CPUs show busy
#   at all (a VM's vCPUs), is its own (d527103: rank 0's words alone, so no rank 1 line).
# Output byte-identical to one thread's. Needs 8 CPUs or more (a half of 4, so that 2 is a cap)
# and taskset: exit 77 (skipped) else.
# Usage: busy_cpuset.sh RKTLCS MPIEXEC GENPAIRS TMPDIR
set -u
cli=$1 mpiexec=$2 gen=$3 tmp=$4
n=$(nproc) h=$(( $(nproc) / 2 ))
# CPUs 0 .. n-1 must be this process's and the host's all (the ranks' threads: online / 2)
if [ "$n" -lt 8 ] || [ "$n" != "$(getconf _NPROCESSORS_ONLN)" ] || ! command -v taskset > /dev/null; then
	echo "SKIPPED: $n CPUs of $(getconf _NPROCESSORS_ONLN) online (8 needed, all of them) or no taskset"; exit 77
fi
# what the user set keeps the threads (no look at the host at all)
unset OMP_NUM_THREADS RKTLCS_PROBE
. "$(dirname "$0")/lib.sh"
t_begin "$tmp"
lo="0-$((h - 1))" hi="$h-$((2 * h - 1))"
"$gen" 1 150000 -1 5 a.fa b.fa > /dev/null || { echo "FAIL rkt_genpairs"; exit 1; }
"$cli" lcs a.fa b.fa --seq --threads 1 -q -o ref.tsv || { echo "FAIL the one-thread run"; exit 1; }
# each rank under the CPUs its rank is given: CPUS0, CPUS1
cat > wrap.sh <<'EOF'
#!/bin/bash
r=${OMPI_COMM_WORLD_RANK:-0}; v=CPUS$r
exec taskset -c "${!v}" "$@"
EOF
chmod +x wrap.sh
hogs=()
trap 'kill "${hogs[@]}" 2> /dev/null' EXIT
busy() {  # CPUS COUNT: COUNT busy loops on CPUS
	for i in $(seq "$2"); do taskset -c "$1" timeout 300 sh -c 'while :; do :; done' & hogs+=($!); done
	sleep 0.3
}
run() {  # NAME: mpirun -np 2, each rank under its CPUs; rank 0 computes the pair alone (with its cap)
	RKTLCS_SPLIT_PLAN=one timeout 300 "$mpiexec" --oversubscribe --bind-to none -np 2 ./wrap.sh "$cli" lcs a.fa b.fa --seq --backend cpu \
		-v -o "$1.tsv" 2> "$1.err"
}
busy "$lo" "$h"
CPUS0=$lo CPUS1=$lo run same; r1=$?
kill "${hogs[@]}"; wait "${hogs[@]}" 2> /dev/null; hogs=()
busy "$hi" $((2 * h))
CPUS0=$lo CPUS1=$hi run apart; r2=$?
kill "${hogs[@]}"; wait "${hogs[@]}" 2> /dev/null; hogs=()

# the cap reaches the split: rank 0 alone on 2 threads (d527103: on all of its CPUs' threads)
said=$(grep 'cores are busy' same.err) split=$(grep -o 'split: .*' same.err | cut -c 1-300)
[ $r1 = 0 ] && cmp -s ref.tsv same.tsv && [ "$(grep -c 'cores are busy' same.err)" = 1 ] \
	&& grep -q "^\[rktlcs\] the host's cores are busy (.*a probe on a rank's $h CPUs): the long pair on 1 thread a rank, at most 2 for a rank computing a pair alone" <<< "$said" \
	&& grep -q 'one rank (on 2 threads, the node.s)' <<< "$split" \
	&& ok "two ranks on $h busy CPUs: $said; $split" || bad "two ranks on $h busy CPUs: exit $r1, said: $said; $split"
# rank 1's view, without a cap. Rank 0's idle CPUs may show busy too on a VM whose vCPUs share
# the host's cores (the device's KVM guest: 8 threads on 0-7 given 0.84-0.98 of the wall beside
# 16 loops on 8-15, least 0.5): then its own line, "rank 0:", with more threads than rank 1's
said=$(grep 'cores are busy' apart.err) r0=$(grep -o "^\[rktlcs\] rank 0: .*the long pair on [0-9]* threads* a rank" apart.err | grep -oE '[0-9]+ threads? a rank$' | cut -d' ' -f1)
want=1; [ -n "$r0" ] && want=2
[ $r2 = 0 ] && cmp -s ref.tsv apart.tsv && [ "$(grep -c 'cores are busy' apart.err)" = $want ] \
	&& grep -qE "^\[rktlcs\] rank 1: the host's cores are busy \(.*a probe on a rank's $h CPUs\): the long pair on 1 thread a rank \([0-9.]+ ms to find\)" <<< "$said" \
	&& { [ -z "$r0" ] || [ "$r0" -gt 1 ]; } \
	&& ok "rank 0 on idle CPUs, rank 1 on busy ones: $said" || bad "ranks on idle and busy CPUs: exit $r2, said: $said"
echo "busy_cpuset: $pass passed, $fail failed"
[ $fail -eq 0 ]
