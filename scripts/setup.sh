#!/bin/bash
# Install what is missing (Debian 12 / Ubuntu 24.04, as root), configure and build.
# Usage: scripts/setup.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}; shift || true
pkgs="build-essential cmake pkg-config libopenmpi-dev openmpi-bin libhts-dev zlib1g-dev gzip gawk bc time"
missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
	echo "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq $missing >/dev/null
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
