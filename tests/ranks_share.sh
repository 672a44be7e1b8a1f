#!/bin/bash
# Ranks beyond the node's GPUs and the hybrid split (issue 57; docs/SCALING.md, "More ranks
# than GPUs"), on the CPU: RKTLCS_GPU_STANDIN=G makes the node one of G GPUs, for which the CPU
# stands in. Ranks of local rank below G are weighed as GPU ranks by auto's rates and the others
# as CPU ranks beside them, which take a share by their own rates (",alone": nothing, as under
# --backend gpu). The shares are uneven and some are empty; every mode's output must still
# equal one rank's byte for byte, and -v must say the split.
# Usage: ranks_share.sh RKTLCS MPIEXEC GENREADS GENALN GENPAIRS TMPDIR
set -u
cli=$1 mpiexec=$2 genreads=$3 genaln=$4 genpairs=$5 tmp=$6
. "$(dirname "$0")/lib.sh"
t_begin "$tmp"
# the sanitizer build checks memory: one rank count with every way a rank takes part (a
# GPU rank, CPU ranks with shares, the alone case below)
nps="2 3 5 8"
[ -n "${RKTLCS_TEST_SANITIZE:-}" ] && nps="5"
"$genreads" 600 51 3 > r.fa
"$genaln" 300 2000 2 4 > h.fa
"$genpairs" 3000 150 5 5 pa.fa pb.fa > /dev/null
"$genpairs" 300 120 -1 6 aa.fa ab.fa > /dev/null
jobs=("r.fa -k 3 -t 10 -tau 12" "hamming h.fa" "hamming h.fa --max-dist 40" "lev pa.fa pb.fa --path"
      "lcs pa.fa pb.fa --seq" "lev --all aa.fa")
# run NP STANDIN ARGS...: the job on NP ranks with the CPU standing in for GPUs, into np.tsv
run() {
	local np=$1 si=$2; shift 2
	RKTLCS_GPU_STANDIN=$si timeout 300 "$mpiexec" --oversubscribe --bind-to none -np "$np" -x RKTLCS_GPU_STANDIN \
		"$cli" "$@" --backend cpu --threads 1 -v -o np.tsv 2> err
}
for args in "${jobs[@]}"; do
	# shellcheck disable=SC2086  # each job is a list of words
	"$cli" $args --backend cpu --threads 1 -q -o ref.tsv || { bad "$args: one rank failed"; continue; }
	for case in "1:$nps" "1,alone:3" "2:5"; do
		si=${case%%:*}
		for np in ${case#*:}; do
			# shellcheck disable=SC2086
			run "$np" "$si" $args
			rc=$?
			say=$(grep -m1 -o "ranks: [0-9]* on a GPU.*" err)
			want="take a share|too small"
			[ "$si" = "1,alone" ] && want="take nothing"
			if [ $rc -ne 0 ]; then bad "$args np=$np standin=$si: exit $rc: $(grep -v '^\[rktlcs\] debug' err | head -3)"
			elif ! cmp -s ref.tsv np.tsv; then bad "$args np=$np standin=$si: the output differs: $(diff ref.tsv np.tsv | head -3)"
			elif ! echo "$say" | grep -qE "$want"; then bad "$args np=$np standin=$si: -v does not say the split ($want): '$say'"
			else ok "$args np=$np standin=$si: ${say#ranks: }"; fi
		done
	done
done
# lev and lcs on a node of one GPU, the threads not given: rank 0 does the job alone with the
# node's cores and the others wait, getting none of the reads (pair_run.c, rmpi_solo)
for args in "lev pa.fa pb.fa --path" "lcs pa.fa pb.fa --seq" "lev --all aa.fa"; do
	# shellcheck disable=SC2086
	"$cli" $args --backend cpu --threads 1 -q -o ref.tsv || { bad "$args: one rank failed"; continue; }
	# shellcheck disable=SC2086
	RKTLCS_GPU_STANDIN=1 timeout 300 "$mpiexec" --oversubscribe --bind-to none -np 3 -x RKTLCS_GPU_STANDIN \
		"$cli" $args --backend cpu -v -o np.tsv 2> err
	rc=$? say=$(grep -m1 -o "ranks: rank 0 alone.*" err)
	if [ $rc -ne 0 ]; then bad "$args np=3 solo: exit $rc: $(grep -v '^\[rktlcs\] debug' err | head -3)"
	elif ! cmp -s ref.tsv np.tsv; then bad "$args np=3 solo: the output differs: $(diff ref.tsv np.tsv | head -3)"
	elif [ -z "$say" ] || ! grep -q ", 1 rank, " err; then bad "$args np=3 solo: -v does not say rank 0 alone, or the summary counts other ranks: '$say'"
	else ok "$args np=3, one GPU, threads not given: ${say#ranks: }"; fi
done
# Rkt-LCS rows pulled by claims from one counter by a GPU rank's device and its other threads
# (rkt_hybrid.c), the CPU standing in for the device: one process and rank 0 of 2-3 ranks
"$cli" r.fa -k 3 -t 10 -tau 12 --backend cpu --threads 1 -q --candidates refc.tsv -o ref.tsv || bad "rkt: one rank failed"
for case in "1:" "2:1" "3:1"; do
	np=${case%%:*} si=${case#*:}
	rm -f np.tsv npc.tsv
	RKTLCS_GPU_STANDIN=$si RKTLCS_RKT_HYBRID=standin timeout 300 "$mpiexec" --oversubscribe --bind-to none -np "$np" \
		-x RKTLCS_GPU_STANDIN -x RKTLCS_RKT_HYBRID "$cli" r.fa -k 3 -t 10 -tau 12 --backend cpu --threads 2 -v \
		--candidates npc.tsv -o np.tsv 2> err
	rc=$? say=$(grep -m1 -o "reads 1-600 shared by claims.*" err)
	if [ $rc -ne 0 ]; then bad "rkt claims np=$np: exit $rc: $(grep -v '^\[rktlcs\] debug' err | head -3)"
	elif ! cmp -s ref.tsv np.tsv || ! cmp -s refc.tsv npc.tsv; then bad "rkt claims np=$np: the output differs: $(diff refc.tsv npc.tsv | head -3)"
	elif [ -z "$say" ]; then bad "rkt claims np=$np: -v does not say the claims"
	else ok "rkt claims np=$np: $say"; fi
done
echo "ranks_share: $pass passed, $fail failed"
[ $fail -eq 0 ]
