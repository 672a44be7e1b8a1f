#!/bin/bash
# Install what is missing (Debian 12 / Ubuntu 24.04, as root), configure and build.
# Usage: scripts/setup.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}; shift || true
# compilers and libraries; tabix (bgzip), python3 (JSON checks), clang + libomp + the
# compiler-rt runtimes (fuzz targets), edlib and WFA2-lib (second implementations for the
# lev tests and the benchmarks' baselines), SLURM and munge (the job scripts' test on a
# private one-node cluster), gnuplot (scaling plots)
pkgs="build-essential cmake pkg-config libopenmpi-dev openmpi-bin libhts-dev zlib1g-dev gzip gawk bc time tabix python3
      clang libomp-dev libclang-rt-dev libedlib-dev libwfa2-dev slurmctld slurmd slurm-client munge gnuplot-nox"
missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
	echo "installing:$missing (apt, about a minute)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq $missing >/dev/null
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build" -j"$(nproc)" ${RK_TARGETS:+--target $RK_TARGETS}
