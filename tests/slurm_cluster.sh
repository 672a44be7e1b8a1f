#!/bin/bash
# A private one-node SLURM for tests, as root, without systemd: munged, slurmctld and slurmd
# with their own config, sockets, state, logs and PID files under DIR, on loopback ports.
#   slurm_cluster.sh start DIR   prints "export SLURM_CONF=DIR/slurm.conf" on success
#   slurm_cluster.sh stop DIR    stops exactly the daemons it started (by PID file)
# Facts it relies on (Debian 12, SLURM 22.05): no cgroups (proctrack/linuxproc, task/none);
# MpiDefault=pmix (srun --mpi=pmix works with Debian's Open MPI); NodeAddr and the controller
# on 127.0.0.1 (no DNS); two fake GPUs whose File= entries are links to /dev/null (22.05 drops
# GPUs without a File; SLURM still sets CUDA_VISIBLE_DEVICES); a small MinJobAge so that
# sbatch --wait polls every 2 s; EnforcePartLimits=ALL rejects oversized jobs at submission.
set -u
cmd=$1 dir=$2
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
to() { timeout "$@"; }  # client calls retry for a long time when no controller is up

stop() {
	for d in slurmd slurmctld munged; do
		f=$dir/$d.pid
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
stop
host=$(hostname -s)
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/gpu"
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
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
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
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
cat > "$dir/gres.conf" <<EOF
NodeName=$host Name=gpu File=$dir/gpu/nvidia[0-1]
EOF
export SLURM_CONF=$dir/slurm.conf
slurmctld -c -f "$dir/slurm.conf" || { echo "slurmctld failed: $(tail -3 "$dir/slurmctld.log")" >&2; stop; exit 1; }
slurmd -f "$dir/slurm.conf" || { echo "slurmd failed: $(tail -3 "$dir/slurmd.log")" >&2; stop; exit 1; }
for _ in $(seq 100); do
	s=$(to 5 sinfo -h -o %t 2>/dev/null | head -1)
	[ "$s" = idle ] && { echo "export SLURM_CONF=$dir/slurm.conf"; exit 0; }
	sleep 0.2
done
echo "the node did not come up (state: ${s:-none}): $(tail -3 "$dir/slurmctld.log") $(tail -3 "$dir/slurmd.log")" >&2
stop
exit 1
