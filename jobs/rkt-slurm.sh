#!/bin/bash
# SLURM example: Rkt-LCS over several nodes, one rank per socket, OpenMP inside.
#SBATCH --job-name=rktlcs
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=2
#SBATCH --cpus-per-task=16
#SBATCH --time=01:00:00
set -euo pipefail
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}
srun --cpu-bind=cores build/rktlcs "${1:?reads.fastq}" -k "${K:-3}" -t "${T:-1000}" -tau "${TAU:-15}" -o "${OUT:-rktlcs.tsv}"
