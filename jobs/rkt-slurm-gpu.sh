#!/bin/bash
# SLURM example: Rkt-LCS on GPU nodes, one rank per GPU (rank -> GPU by node-local rank).
#SBATCH --job-name=rktlcs-gpu
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --cpus-per-task=8
#SBATCH --time=01:00:00
set -euo pipefail
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}
# every rank sees all GPUs of its node and picks (local rank mod GPUs) itself
srun --cpu-bind=cores --gpu-bind=none build/rktlcs "${1:?reads.fastq}" -k "${K:-3}" -t "${T:-1000}" -tau "${TAU:-15}" \
	--backend gpu -o "${OUT:-rktlcs.tsv}"
