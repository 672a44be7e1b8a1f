#!/bin/bash
# The README's two commands on a pristine Debian 12 root (issue 33), as a new user's machine
# would run them: a minbase root made by mmdebstrap, no cgroup file system mounted under
# /sys/fs/cgroup (a chroot, as in a container), no ../shared beside the checkout. Runs
# `bash scripts/run-sample.sh`, then `bash scripts/test.sh`, each in the root, and writes their
# logs, exit codes and times, the enabled services and the commit to LOGDIR. Needs root,
# mmdebstrap (apt-get install mmdebstrap) and the network for apt.
# Usage: jobs/pristine-check.sh [ROOT=/tmp/rktlcs-pristine] [LOGDIR=ROOT-logs]
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
P=${1:-/tmp/rktlcs-pristine} L=${2:-${1:-/tmp/rktlcs-pristine}-logs}
[ "$(id -u)" = 0 ] || { echo "pristine-check: needs root (chroot, mounts)" >&2; exit 1; }
command -v mmdebstrap > /dev/null || { echo "pristine-check: apt-get install mmdebstrap" >&2; exit 1; }
mkdir -p "$L"
[ -e "$P/etc/debian_version" ] || mmdebstrap --variant=minbase bookworm "$P" > "$L/mmdebstrap.log" 2>&1 \
	|| { echo "pristine-check: mmdebstrap failed: $(tail -3 "$L/mmdebstrap.log")" >&2; exit 1; }
cp /etc/resolv.conf "$P/etc/resolv.conf"
# minbase has no /etc/hosts (a Debian install, a cloud image and a container have one): without it
# every mpirun of 3+ ranks waits ~5 s and test.sh takes hours. Write it as the README's
# Troubleshooting says, and say so in the summary; PRISTINE_NO_HOSTS=1 leaves it out.
if [ ! -e "$P/etc/hosts" ] && [ -z "${PRISTINE_NO_HOSTS:-}" ]; then
	printf '127.0.0.1 localhost\n127.0.1.1 %s\n' "$(hostname)" > "$P/etc/hosts"
	echo "wrote /etc/hosts as the README's Troubleshooting says (PRISTINE_NO_HOSTS=1: leave it out)" >> "$L/summary.txt"
fi
rm -rf "$P/root/rktlcs" && git clone -q "$src" "$P/root/rktlcs" || exit 1
git -C "$P/root/rktlcs" log --oneline -1 > "$L/commit.txt"
mounts=(proc sys dev dev/pts dev/shm)
mountpoint -q "$P/proc" || mount -t proc proc "$P/proc"
mountpoint -q "$P/sys" || mount -t sysfs sysfs "$P/sys"       # no cgroup file system under it
mountpoint -q "$P/dev" || mount --bind /dev "$P/dev"
mountpoint -q "$P/dev/pts" || mount --bind /dev/pts "$P/dev/pts"
mountpoint -q "$P/dev/shm" || mount -t tmpfs tmpfs "$P/dev/shm"
trap 'for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "$P/${mounts[i]}" 2> /dev/null || umount -l "$P/${mounts[i]}"; done' EXIT
rc=0
for cmd in run-sample.sh test.sh; do
	s=$(date +%s)
	chroot "$P" /bin/bash -lc "cd /root/rktlcs && bash scripts/$cmd" > "$L/${cmd%.sh}.log" 2>&1; r=$?
	echo "$cmd: exit $r, $(( $(date +%s) - s )) s" | tee -a "$L/summary.txt"
	[ $r -eq 0 ] || rc=1
done
chroot "$P" /bin/bash -lc 'systemctl is-enabled munge slurmd slurmctld 2>&1; ls /etc/systemd/system/multi-user.target.wants/' > "$L/services.txt" 2>&1
grep -E 'SKIPPED|Skipped|=== stage' "$L/test.log" > "$L/skips.txt"
exit $rc
