#!/bin/bash
# Set up (the build and run dependencies alone: scripts/setup.sh), build and run the main job
# on data/sample under mpirun -np 2.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # mpirun refuses root without these
mpirun --oversubscribe -np 2 build/rktlcs data/sample/ERR127302_2k.fastq.gz -k 3 -t 10 -tau 15 --occurrences
echo
echo "the binary: $PWD/build/rktlcs (cmake --install build puts it in /usr/local/bin, the job scripts in /usr/local/share/rktlcs/jobs, the manual page in /usr/local/share/man: man rktlcs)"
