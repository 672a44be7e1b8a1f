#!/bin/bash
# Set up (the build and run dependencies alone: scripts/setup.sh), build the tool alone (no test
# programs: BUILD_TESTING=OFF, target rktlcs) and run the main job on data/sample under
# mpirun -np 2.
set -euo pipefail
cd "$(dirname "$0")/.."
# a root without /etc/hosts (mmdebstrap minbase, some containers): mpirun may wait on DNS
[ -e /etc/hosts ] || echo "run-sample.sh: warning: no /etc/hosts: mpirun looks its host's name up in DNS at every launch, which can take ~5 s where the lookup times out (README, Troubleshooting)"
RK_TARGETS="rktlcs rktlcs_man" scripts/setup.sh build -DBUILD_TESTING=OFF
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # mpirun refuses root without these
mpirun --oversubscribe -np 2 build/rktlcs data/sample/ERR127302_2k.fastq.gz -k 3 -t 10 -tau 15 --occurrences
echo
echo "the binary: $PWD/build/rktlcs; every mode's options: build/rktlcs MODE --help (MODE: rkt, hamming, lev, lcs)"
echo "cmake --install build puts it in /usr/local/bin, the job scripts in /usr/local/share/rktlcs/jobs and the manual page in /usr/local/share/man (man rktlcs, with man-db installed)"
