#!/bin/bash
# tests/slurm.sh where slurmd cannot start (issue 33: a container or chroot without
# /sys/fs/cgroup): run in a mount namespace with an empty tmpfs over /sys/fs/cgroup, it must
# report SKIPPED with slurmd's reason (exit 77, which ctest counts as skipped) instead of
# failing, and leave no daemon running (no PID file left). Exit 77 itself where SLURM is not
# installed, not root, or /sys/fs/cgroup cannot be masked here. Where no cgroup file system
# is mounted at all (a chroot), slurm.sh runs as it is: that is the case itself.
# Usage: slurm_nocgroup.sh RKTLCS SRCDIR TMPDIR
set -u
cli=$1 src=$2 tmp=$3
here=$(cd "$(dirname "$0")" && pwd)
command -v slurmd > /dev/null || { echo "SKIPPED: slurmd not installed"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIPPED: needs root (to mask /sys/fs/cgroup, and the SLURM daemons run as root)"; exit 77; }
rm -rf "$tmp"; mkdir -p "$tmp"
if ! grep -q ' /sys/fs/cgroup ' /proc/self/mounts; then
	# no cgroup file system here already (a chroot, a minimal container): the real case
	bash "$here/slurm.sh" "$cli" "$src" "$tmp/run" > "$tmp/out" 2>&1; rc=$?
elif unshare --mount true 2> "$tmp/unshare"; then
	# shellcheck disable=SC2016  # expanded by the inner shell
	unshare --mount sh -c 'mount -t tmpfs none /sys/fs/cgroup || exit 99; exec bash "$@"' sh \
		"$here/slurm.sh" "$cli" "$src" "$tmp/run" > "$tmp/out" 2>&1; rc=$?
else
	echo "SKIPPED: cannot mask /sys/fs/cgroup here (no mount namespace: $(head -1 "$tmp/unshare"))"; exit 77
fi
[ $rc -eq 99 ] && { echo "SKIPPED: cannot mask /sys/fs/cgroup here: $(head -2 "$tmp/out")"; exit 77; }
left=$(ls "$tmp"/run/cluster/*.pid 2> /dev/null)
if [ $rc -eq 77 ] && grep -q '^SKIPPED: slurmd cannot start here: .*cgroup' "$tmp/out" && [ -z "$left" ]; then
	echo "ok   no /sys/fs/cgroup: slurm.sh exit 77, $(grep -m1 SKIPPED "$tmp/out")"
	exit 0
fi
echo "FAIL no /sys/fs/cgroup: slurm.sh exit $rc (want 77), PID files left: ${left:-none}; $(head -c 600 "$tmp/out")"
exit 1
