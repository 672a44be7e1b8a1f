#!/bin/bash
#SBATCH --job-name=rktlcs
#SBATCH --ntasks=2
#SBATCH --cpus-per-task=1
#SBATCH --output=rktlcs-%j.log
# rktlcs on a SLURM cluster with CPU ranks: one MPI rank per task, --threads = the task's
# CPUs. Works from any directory. Everything is set through the environment, e.g.
#   sbatch --ntasks=32 --cpus-per-task=4 --export=ALL,MODE=rkt,INPUT=reads.fq,ARGS="-k 10 -t 1000 -tau 15" rktlcs-slurm.sh
#   sbatch --export=ALL,MODE=lev,INPUT="A.fa B.fa",ARGS="--path",OUT=lev.tsv rktlcs-slurm.sh
# Variables:
#   MODE      rkt (default), hamming, lev or lcs
#   INPUT     the input file(s): rkt/hamming one file; lev "A B" or "--all A"; lcs "A B"
#   ARGS      the mode's options (rkt needs -k, -t and -tau)
#   OUT       the output file [rktlcs-JOBID.tsv in the submission directory]
#   RKTLCS    the rktlcs binary [rktlcs on PATH; an installed copy of this script names its binary]
#   LAUNCHER  srun [srun --mpi=pmix], or mpirun (mpirun inside the allocation)
#   BACKEND   cpu [cpu]; see rktlcs-slurm-gpu.sh for GPUs
set -euo pipefail
RKTLCS=${RKTLCS:-@RKTLCS_BIN@}
case $RKTLCS in @*) RKTLCS=$(command -v rktlcs || true) ;; esac
[ -x "$RKTLCS" ] || { echo "rktlcs not found: set RKTLCS=/path/to/rktlcs or put it on PATH" >&2; exit 1; }
MODE=${MODE:-rkt}
[ -n "${INPUT:-}" ] || { echo "set INPUT (and ARGS) with sbatch --export=ALL,INPUT=..." >&2; exit 1; }
OUT=${OUT:-${SLURM_SUBMIT_DIR:-.}/rktlcs-${SLURM_JOB_ID:-local}.tsv}
threads=${SLURM_CPUS_PER_TASK:-1}
# shellcheck disable=SC2086  # INPUT and ARGS are lists of words
set -- "$RKTLCS" $MODE $INPUT ${ARGS:-} --backend "${BACKEND:-cpu}" --threads "$threads" -o "$OUT"
case ${LAUNCHER:-srun} in
srun) srun --mpi=pmix "$@" ;;
mpirun) mpirun -q --bind-to none "$@" ;;   # inside the allocation: mpirun reads SLURM's node list; -q: rktlcs' one error line, no banner
*) echo "LAUNCHER must be srun or mpirun" >&2; exit 1 ;;
esac
echo "rktlcs $MODE: output in $OUT"
