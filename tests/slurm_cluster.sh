#!/bin/bash
# A private SLURM for tests, as root, without systemd: munged, slurmctld and slurmd with their
# own config, sockets, state, logs and PID files under DIR, on loopback ports.
#   slurm_cluster.sh start DIR [2]  prints "export SLURM_CONF=DIR/slurm.conf RK_SLURM_NODES=N"
#                                   on success; exit 77 (skipped, the reason on stderr) where
#                                   SLURM is not installed, not root, or slurmd cannot start here
#   slurm_cluster.sh stop DIR       stops exactly the daemons it started (by PID file)
# With 2, a second node "rktlcs-node2" on this machine where a UTS namespace can be made
# (unshare --uts): its slurmd runs under that host name with its own Port, PID file, log, spool
# and TmpFS (%n), so srun/sbatch -N 2 run tasks on two nodes, and srun --mpi=pmix (SLURM's PMIx
# locality) and mpirun inside the allocation (one orted per node, started through srun) each
# see two nodes: MPI_COMM_TYPE_SHARED gives a set per node. This is the Debian slurmd, built
# without --enable-multiple-slurmd: the nodes differ by NodeHostname and Port, not by -N alone
# (TmpFS=%n keeps each step's PMIx directory apart: with one /tmp the second node's step failed,
# "Cannot create directory /tmp/spmix_appdir_0_1.0: File exists").
# Facts it relies on (Debian 12, SLURM 22.05): no cgroups (proctrack/linuxproc, task/none);
# MpiDefault=pmix (srun --mpi=pmix works with Debian's Open MPI); NodeAddr and the controller
# on 127.0.0.1 (no DNS); two fake GPUs whose File= entries are links to /dev/null (22.05 drops
# GPUs without a File; SLURM still sets CUDA_VISIBLE_DEVICES); a small MinJobAge so that
# sbatch --wait polls every 2 s; EnforcePartLimits=ALL rejects oversized jobs at submission.
set -u
cmd=$1 dir=$2 want=${3:-1}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
to() { timeout "$@"; }  # client calls retry for a long time when no controller is up

stop() {
	for f in "$dir"/slurmd-*.pid "$dir/slurmctld.pid" "$dir/munged.pid"; do
		[ -s "$f" ] || continue
		pid=$(cat "$f")
		kill "$pid" 2>/dev/null
		for _ in $(seq 50); do
			# gone, or a zombie that PID 1 has not reaped yet
			st=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)
			[ -z "$st" ] || [ "$st" = Z ] && break
			sleep 0.1
		done
		st=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)
		[ -n "$st" ] && [ "$st" != Z ] && kill -9 "$pid" 2>/dev/null
		rm -f "$f"
	done
}

if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || { echo "usage: slurm_cluster.sh start|stop DIR" >&2; exit 2; }
for c in munged slurmctld slurmd sinfo; do command -v $c > /dev/null || { echo "SKIP: $c not installed" >&2; exit 77; }; done
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (the SLURM daemons run as root)" >&2; exit 77; }
stop
nodes=1
[ "$want" = 2 ] && [ "$(unshare --uts sh -c 'hostname rktlcs-node2 && hostname' 2> /dev/null)" = rktlcs-node2 ] && nodes=2
host=$(hostname -s)
mkdir -p "$dir/munge" "$dir/state" "$dir/spool-$host" "$dir/spool-rktlcs-node2" "$dir/tmp-$host" "$dir/tmp-rktlcs-node2" "$dir/gpu"
chmod 755 "$dir/munge"
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$dir/munge.key"
munged --force --socket="$dir/munge/munge.sock" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
	--log-file="$dir/munged.log" --seed-file="$dir/munge.seed" --origin=127.0.0.1 || { echo "munged failed: $(tail -3 "$dir/munged.log")" >&2; exit 1; }
ln -sf /dev/null "$dir/gpu/nvidia0"; ln -sf /dev/null "$dir/gpu/nvidia1"
# free ports: a range that depends on this process, retried at start-up if taken
port=$(( 20000 + ($$ % 2000) * 4 ))
node=$(slurmd -C 2>/dev/null | head -1 | sed -e 's/NodeName=[^ ]*/NodeName='"$host"'/' -e 's/ UpTime.*//')
cpus=$(echo "$node" | grep -o 'CPUs=[0-9]*' | cut -d= -f2)
cat > "$dir/slurm.conf" <<EOF
ClusterName=rktlcs-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool-%n
TmpFS=$dir/tmp-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=pmix
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
MinJobAge=2
EnforcePartLimits=ALL
ReturnToService=2
SlurmdParameters=config_overrides
GresTypes=gpu
$node NodeAddr=127.0.0.1 Gres=gpu:2 State=UNKNOWN
$([ $nodes = 2 ] && echo "${node/NodeName=$host/NodeName=rktlcs-node2} NodeAddr=127.0.0.1 Port=$((port + 2)) State=UNKNOWN")
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
cat > "$dir/gres.conf" <<EOF
NodeName=$host Name=gpu File=$dir/gpu/nvidia[0-1]
EOF
export SLURM_CONF=$dir/slurm.conf
slurmctld -c -f "$dir/slurm.conf" || { echo "slurmctld failed: $(tail -3 "$dir/slurmctld.log")" >&2; stop; exit 1; }
# slurmd initialises its cgroup plugin whatever ProctrackType and TaskPlugin say: without
# /sys/fs/cgroup (a container or chroot) it stops ("can't stat /sys/fs/cgroup/systemd/",
# "Unable to initialize cgroup plugin"); 22.05 has no CgroupPlugin=disabled
if ! slurmd -f "$dir/slurm.conf" -N "$host"; then
	why=$(grep -h 'error' "$dir/slurmd-$host.log" 2> /dev/null | tail -3 | sed 's/^\[[^]]*\] //' | tr '\n' ' ')
	stop
	echo "SKIP: slurmd cannot start here: ${why:-no log}" >&2
	exit 77
fi
if [ $nodes = 2 ]; then
	unshare --uts sh -c 'hostname rktlcs-node2 && exec slurmd -f "$1" -N rktlcs-node2' sh "$dir/slurm.conf" \
		|| { echo "the second slurmd failed: $(tail -3 "$dir/slurmd-rktlcs-node2.log")" >&2; stop; exit 1; }
fi
for _ in $(seq 100); do
	s=$(to 5 sinfo -h -o %t 2>/dev/null | sort -u | tr '\n' ' ')
	[ "$s" = "idle " ] && { echo "export SLURM_CONF=$dir/slurm.conf RK_SLURM_NODES=$nodes"; exit 0; }
	sleep 0.2
done
echo "the nodes did not come up (states: ${s:-none}): $(tail -3 "$dir/slurmctld.log") $(tail -3 "$dir"/slurmd-*.log)" >&2
stop
exit 1
