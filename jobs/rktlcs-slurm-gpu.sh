#!/bin/bash
#SBATCH --job-name=rktlcs-gpu
#SBATCH --nodes=1
#SBATCH --gres=gpu:2
#SBATCH --ntasks-per-node=2
#SBATCH --cpus-per-task=4
#SBATCH --output=rktlcs-gpu-%j.log
# rktlcs on GPU nodes: one MPI rank per GPU (--ntasks-per-node = --gres=gpu:N); each rank
# takes the GPU of its node-local rank among the ones SLURM gives the job
# (CUDA_VISIBLE_DEVICES). Works from any directory. Example, 4 nodes of 4 GPUs:
#   sbatch --nodes=4 --gres=gpu:4 --ntasks-per-node=4 --export=ALL,MODE=rkt,INPUT=reads.fq,ARGS="-k 3 -t 1000 -tau 15" rktlcs-slurm-gpu.sh
# Variables as in rktlcs-slurm.sh (MODE, INPUT, ARGS, OUT, RKTLCS, LAUNCHER), and
#   BACKEND   auto [auto: the GPU when usable, else the CPU with a warning]; gpu insists (exit 2 without one)
set -euo pipefail
RKTLCS=${RKTLCS:-@RKTLCS_BIN@}
case $RKTLCS in @*) RKTLCS=$(command -v rktlcs || true) ;; esac
[ -x "$RKTLCS" ] || { echo "rktlcs not found: set RKTLCS=/path/to/rktlcs or put it on PATH" >&2; exit 1; }
MODE=${MODE:-rkt}
[ -n "${INPUT:-}" ] || { echo "set INPUT (and ARGS) with sbatch --export=ALL,INPUT=..." >&2; exit 1; }
OUT=${OUT:-${SLURM_SUBMIT_DIR:-.}/rktlcs-${SLURM_JOB_ID:-local}.tsv}
echo "GPUs of this job: ${CUDA_VISIBLE_DEVICES:-none}"
# hwloc's OpenCL plugin starts every GPU of the node when mpirun or srun's MPI looks at the
# topology (~1 s on 4 H100); MPI needs no GPU in it (README, "GPU nodes")
export HWLOC_COMPONENTS=${HWLOC_COMPONENTS:--opencl,-cuda,-nvml,-rsmi,-levelzero,-gl}
# shellcheck disable=SC2086
set -- "$RKTLCS" $MODE $INPUT ${ARGS:-} --backend "${BACKEND:-auto}" --threads "${SLURM_CPUS_PER_TASK:-1}" -o "$OUT"
case ${LAUNCHER:-srun} in
srun) srun --mpi=pmix "$@" ;;
mpirun) mpirun -q --bind-to none "$@" ;;   # -q: rktlcs' one error line, no banner
*) echo "LAUNCHER must be srun or mpirun" >&2; exit 1 ;;
esac
echo "rktlcs $MODE: output in $OUT"
