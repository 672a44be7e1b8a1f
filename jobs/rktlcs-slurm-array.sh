#!/bin/bash
#SBATCH --job-name=rktlcs-array
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
#SBATCH --output=rktlcs-array-%A_%a.log
# A job array: one input per array task, each a plain rktlcs process with its CPUs. Works
# from any directory. List the inputs one per line in a file and submit one task per line:
#   sbatch --array=1-$(wc -l < inputs.txt) --export=ALL,LIST=inputs.txt,MODE=rkt,ARGS="-k 3 -t 10 -tau 15" rktlcs-slurm-array.sh
# Variables as in rktlcs-slurm.sh (MODE, ARGS, RKTLCS, BACKEND), and
#   LIST      the file of inputs; task i (SLURM_ARRAY_TASK_ID, from 1) takes line i
#   OUTDIR    where the outputs go, one per input, named after it [the submission directory]
set -euo pipefail
RKTLCS=${RKTLCS:-@RKTLCS_BIN@}
case $RKTLCS in @*) RKTLCS=$(command -v rktlcs || true) ;; esac
[ -x "$RKTLCS" ] || { echo "rktlcs not found: set RKTLCS=/path/to/rktlcs or put it on PATH" >&2; exit 1; }
[ -n "${LIST:-}" ] && [ -n "${SLURM_ARRAY_TASK_ID:-}" ] || { echo "submit with --array and LIST=file of inputs" >&2; exit 1; }
cd "${SLURM_SUBMIT_DIR:-.}"
input=$(sed -n "${SLURM_ARRAY_TASK_ID}p" "$LIST")
[ -n "$input" ] || { echo "no line $SLURM_ARRAY_TASK_ID in $LIST" >&2; exit 1; }
out=${OUTDIR:-.}/$(basename "$input").${MODE:-rkt}.tsv
# shellcheck disable=SC2086
"$RKTLCS" ${MODE:-rkt} "$input" ${ARGS:-} --backend "${BACKEND:-cpu}" --threads "${SLURM_CPUS_PER_TASK:-1}" -o "$out"
echo "task $SLURM_ARRAY_TASK_ID: $input -> $out"
