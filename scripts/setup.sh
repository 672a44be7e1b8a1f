#!/bin/bash
# Install what is missing (Debian 12 / Ubuntu 24.04, as root), configure and build.
# Usage: scripts/setup.sh [--test] [BUILD_DIR] [extra cmake args...]
#        scripts/setup.sh [--test] --list      the packages it wants, one a line
# Without --test: what building and running rktlcs needs (scripts/run-sample.sh); with
# --test, also what the test suite uses (scripts/test.sh). No recommended packages, and no
# service left enabled: the SLURM test starts and stops its own daemons.
set -euo pipefail
cd "$(dirname "$0")/.."
# compiler, cmake, htslib, zlib, Open MPI
base_pkgs="build-essential cmake make pkg-config libhts-dev zlib1g-dev libopenmpi-dev openmpi-bin"
# gzip, gawk, bc, time, tabix (bgzip), python3 (JSON checks), clang + libomp + the compiler-rt
# runtimes (fuzz targets), edlib and WFA2-lib (second implementations for the lev tests and the
# benchmarks' baselines), SLURM and munge (the job scripts' test on a private one-node
# cluster), gnuplot (scaling plots), groff (the manual page's test), samtools (SAM, BAM and
# CRAM test inputs and the FASTQ they stand for), numpy (the Python module's hamming array)
test_pkgs="gzip gawk bc time tabix samtools python3 python3-numpy clang libomp-dev libclang-rt-dev libedlib-dev libwfa2-dev
           slurmctld slurmd slurm-client munge gnuplot-nox groff-base"
pkgs=$base_pkgs
if [ "${1:-}" = --test ]; then pkgs="$base_pkgs $test_pkgs"; shift; fi
if [ "${1:-}" = --list ]; then printf '%s\n' $pkgs; exit 0; fi
build=${1:-build}; shift || true

# the services that the packages just installed (named, or pulled in) enable at boot:
# munge, slurmctld, slurmd; those installed before are left as they are
disable_new_services() {
	local p u
	for p in "$@"; do
		for u in $(dpkg -L "$p" 2>/dev/null | grep -E '^(/usr)?/lib/systemd/system/[^/@]+\.service$' | xargs -r -n1 basename); do
			if command -v systemctl > /dev/null; then systemctl disable "$u" > /dev/null 2>&1 || true
			elif command -v deb-systemd-helper > /dev/null; then deb-systemd-helper disable "$u" > /dev/null 2>&1 || true; fi
			[ -e "/etc/init.d/${u%.service}" ] && command -v update-rc.d > /dev/null && { update-rc.d "${u%.service}" disable > /dev/null 2>&1 || true; }
			echo "disabled at boot: $u (installed by $p)"
		done
	done
}

installed() { dpkg-query -W -f '${db:Status-Status} ${Package}\n' | awk '$1 == "installed" { print $2 }' | sort; }

missing=""
for p in $pkgs; do dpkg -s "$p" > /dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "scripts/setup.sh: these packages are missing:$missing" >&2
		echo "Run it as root (with sudo), or install them first:" >&2
		echo "  sudo apt-get install --no-install-recommends$missing" >&2
		echo "(without apt, e.g. on a cluster with modules: README.md, \"Building by hand\")" >&2
		exit 1
	fi
	echo "installing:$missing (apt, about a minute)"
	export DEBIAN_FRONTEND=noninteractive
	# no daemon starts during the install (policy-rc.d: 101 = action forbidden)
	made_policy=0
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && made_policy=1
		trap 'rm -f /usr/sbin/policy-rc.d' EXIT
	fi
	before=$(installed)
	apt-get update -qq || { echo "scripts/setup.sh: apt-get update failed" >&2; exit 1; }
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing > /dev/null || { echo "scripts/setup.sh: apt-get install failed" >&2; exit 1; }
	[ $made_policy = 1 ] && { rm -f /usr/sbin/policy-rc.d; trap - EXIT; }
	# shellcheck disable=SC2046
	disable_new_services $(comm -13 <(echo "$before") <(installed))
fi
# CMake's own chatter is dropped, not its notices about rktlcs (CUDA, ../shared/data, python3)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" | { grep '^-- rktlcs:' || true; }
cmake --build "$build" -j"$(nproc)" ${RK_TARGETS:+--target $RK_TARGETS}
