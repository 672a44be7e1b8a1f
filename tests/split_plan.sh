#!/bin/bash
# How many ranks take part in a split pair (issue 30; docs/lev.md, "One pair on many ranks"):
# whatever the plan - the cost model's, or forced (rank 0 alone, two banded halves) - np 1 to 5
# on the CPU must give the one-rank output byte for byte: the distance, the CIGAR, the LCS and
# its subsequence. Pairs of 1 kb to MID (100 kb in release), unrelated and 1%, 5% and 25% apart, all in one
# file (RKTLCS_SPLIT_CELLS low: every pair is split), under lev --path, lev -k below and above
# the distances, lev --path -k, lcs, lcs --seq --path (and ranks 0 and 1 on columns with the
# others waiting, RKTLCS_SPLIT_PLAN=cols, as GPU ranks from three on; and the banded halves'
# path on a tree of every rank, RKTLCS_SPLIT_PLAN=tree); then at the default threshold a 2 Mb pair
# 1% apart and an unrelated one of MID x 1.5. -v must name the plan: one rank for a 1 kb similar pair,
# never every rank over every cell for the 2 Mb pair, never banded halves for the unrelated one
# (which way wins among the rest depends on the cores' load, measured by the plan).
# Usage: split_plan.sh RKTLCS MPIEXEC GENPAIRS TMPDIR [BIG=2000000] [MID=200000]
# (the sanitizer build checks memory, not scale: smaller BIG and MID, each pair still more than
# one chunk of columns, and the unrelated pair at MID + MID / 2)
set -u
cli=$1 mpiexec=$2 gen=$3 tmp=$4 big=${5:-2000000} mid=${6:-200000}
. "$(dirname "$0")/lib.sh"
t_begin "$tmp"
# the rank counts of each plan: every count in release; the sanitizer build, which checks
# memory, takes one count per way a rank takes part (five ranks under the model and the tree,
# four on the banded halves, ranks that wait at three, the path's pieces on four and ranks 4..
# idle at five), since a launch of ASan ranks costs a second or two
np_model="2 3 4 5" np_band="2 4" np_tree="3 4 5" np_cols="3 4 5" np_pcols="3 4 5" np_big="2 3 5"
[ -n "${RKTLCS_TEST_SANITIZE:-}" ] && np_model="5" np_band="4" np_tree="5" np_cols="3" np_pcols="3 5" np_big="2 5"
mpi() {  # np, plan (or ""), cells, args...
	local np=$1 plan=$2 cells=$3; shift 3
	RKTLCS_SPLIT_PLAN=$plan RKTLCS_SPLIT_CELLS=$cells timeout 600 "$mpiexec" --oversubscribe --bind-to none -np "$np" \
		-x RKTLCS_SPLIT_PLAN -x RKTLCS_SPLIT_CELLS "$cli" "$@" --backend cpu --threads 1 -o np.tsv 2> err
}
check() {  # label, np, plan, cells, args...
	local lab=$1 np=$2 plan=$3 cells=$4; shift 4
	mpi "$np" "$plan" "$cells" "$@" -q
	local rc=$?
	[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && ok "$lab np=$np plan=${plan:-model}" \
		|| bad "$lab np=$np plan=${plan:-model}: exit $rc $(head -c 300 err) $(diff ref.tsv np.tsv | cut -c 1-200 | head -3)"
}
# the pairs: each size unrelated (-1) and 1, 5, 25% apart, one record per pair in a.fa / b.fa
: > a.fa; : > b.fa
for n in 1000 10000 $mid; do
	for d in -1 1 5 25; do
		"$gen" 1 $n $d $((n + ${d#-})) pa.fa pb.fa > /dev/null || { bad "rkt_genpairs"; exit 1; }
		sed "s/^>.*/>a${n}_$d/" pa.fa >> a.fa; sed "s/^>.*/>b${n}_$d/" pb.fa >> b.fa
	done
done
for args in "lev a.fa b.fa --path" "lev a.fa b.fa -k 300" "lev a.fa b.fa -k 30000" "lev a.fa b.fa --path -k 3000" \
            "lcs a.fa b.fa" "lcs a.fa b.fa --seq --path"; do
	"$cli" $args --backend cpu --threads 1 -q -o ref.tsv || { bad "$args: one-rank run failed"; continue; }
	for np in $np_model; do check "$args" $np "" 1000 $args; done
	for np in $np_band; do check "$args" $np band 1000 $args; done
	check "$args" 3 one 1000 $args
	# two banded halves with the path on a tree of every rank (split_tree.c), each level halving
	# its problems on half of its ranks
	case "$args" in *--path*)
		for np in $np_tree; do
			mpi $np tree 1000 $args -v
			rc=$?
			[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && grep -q "the path on a tree of $np ranks" err \
				&& ok "$args np=$np plan=tree" \
				|| bad "$args np=$np plan=tree: exit $rc $(grep -m1 'split: lev\|split: lcs' err | cut -c 1-300) $(diff ref.tsv np.tsv | cut -c 1-200 | head -3)"
		done ;;
	esac
	# what GPU ranks do from three on: ranks 0 and 1 meet on a column, the others wait; with the
	# path on four ranks or more, its two pieces go to ranks 0 and 2, 1 and 3 (split_pairs.c),
	# each split on a column again, and ranks from 4 on compute nothing
	cols=$np_cols; case "$args" in *--path*) cols=$np_pcols ;; esac
	for np in $cols; do
		rm -f cols.json
		mpi $np cols 1000 $args -v --stats cols.json
		rc=$?
		busy=2 what="ranks 2.. computed no rows"
		case "$args" in *--path*) [ $np -ge 4 ] && busy=4 what="the path's pieces on ranks 0-3, ranks 4.. no rows" ;; esac
		python3 -c "import json; r=json.load(open('cols.json'))['split']['rows']; assert all(r[:$busy]) and not any(r[$busy:]), r" 2> jerr
		[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && grep -q "ranks 0 and 1 meet on a column, the others wait" err && [ ! -s jerr ] \
			&& { [ $busy = 2 ] || grep -q "the path's two pieces on ranks 0 and 2, 1 and 3" err; } \
			&& ok "$args np=$np plan=cols: $what" \
			|| bad "$args np=$np plan=cols: exit $rc $(grep -m1 'split: [A-Z]' err) $(tail -1 jerr) $(diff ref.tsv np.tsv | cut -c 1-200 | head -3)"
	done
done
# -v: a 1 kb pair 1% apart is not worth a split
"$gen" 1 1000 1 3 sa.fa sb.fa > /dev/null
"$cli" lev sa.fa sb.fa --path --backend cpu -q -o ref.tsv
mpi 2 "" 1000 lev sa.fa sb.fa --path -v
grep -Eq "split: lev 1000 x .*: one rank( \(.*)?$" err && cmp -s ref.tsv np.tsv && ok "1 kb at 1%: one rank ($(grep -o 'estimates.*' err))" \
	|| bad "1 kb at 1%: $(grep 'split' err | head -2) $(diff ref.tsv np.tsv | head -3)"
# at the default threshold: 2 Mb at 1%, never every rank over every cell (the band is 0.6% of
# the cells), and the same output whatever the plan; which of one rank and two banded halves
# pays depends on what the two ranks keep of their speed side by side (a loaded machine: one)
"$gen" 1 "$big" 1 77 A.fa B.fa > /dev/null
for args in "lev A.fa B.fa --path" "lcs A.fa B.fa --seq --path" "lev A.fa B.fa -k 30000"; do
	"$cli" $args --backend cpu --threads 1 -q -o ref.tsv || { bad "$args: one-rank run failed"; continue; }
	for np in $np_big; do
		[ "$np" = 3 ] && [ "${args%% *}" = lcs ] && continue
		mpi $np "" 4294967296 $args -v
		grep -Eq "split: .*: (one rank|two banded halves)( \(.*)?$" err && cmp -s ref.tsv np.tsv \
			&& ok "$big bp at 1%: $args np=$np: $(grep -Eo '(one rank|two banded halves)( \(.*)?$' err)" \
			|| bad "$big bp at 1%: $args np=$np: $(grep 'split:' err | head -2) $(diff ref.tsv np.tsv | cut -c 1-200 | head -3)"
	done
	check "$big bp at 1%: $args" 2 band 4294967296 $args
done
# an unrelated pair of MID x 1.5: no band to prune with, so every rank over every cell (or rank 0
# alone where the ranks keep too little of their speed side by side)
un=$((mid + mid / 2))
"$gen" 1 $un -1 78 A.fa B.fa > /dev/null
for args in "lev A.fa B.fa --path" "lcs A.fa B.fa"; do
	"$cli" $args --backend cpu --threads 1 -q -o ref.tsv || { bad "$args: one-rank run failed"; continue; }
	for np in 2 3; do
		mpi $np "" 4294967296 $args -v
		grep -Eq "split: .*: (every rank over every cell|one rank)( \(.*)?$" err && cmp -s ref.tsv np.tsv \
			&& ok "$un bp unrelated: $args np=$np: $(grep -Eo '(every rank over every cell|one rank)( \(.*)?$' err)" \
			|| bad "$un bp unrelated: $args np=$np: $(grep 'split:' err | head -2) $(diff ref.tsv np.tsv | cut -c 1-200 | head -3)"
	done
	check "$un bp unrelated: $args" 3 all 4294967296 $args
done
# which ranks start a GPU context ahead, from the inputs' heads (rmpi_guess_pair_ranks): ranks 0
# and 1 for one pair the split takes (A.fa B.fa: 300 kb), rank 0 for one small pair, every rank
# for a batch; -v says so on rank 0 (with auto, GPU or not); the output stays the CPU's
"$gen" 1 10000 5 79 s_a.fa s_b.fa > /dev/null
for c in "A.fa B.fa:only ranks 0 and 1" "s_a.fa s_b.fa:only rank 0" "a.fa b.fa:"; do
	in=${c%%:*} want=${c#*:}
	"$cli" lev $in --backend cpu --threads 1 -q -o ref.tsv
	timeout 300 "$mpiexec" --oversubscribe --bind-to none -np 3 "$cli" lev $in --backend auto --threads 1 -v -o np.tsv 2> err
	rc=$? got=$(grep -o "the job's size: only rank[s]* [0-9and ]*" err | sed "s/^the job's size: //; s/ *$//")
	if [ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && [ "$got" = "$want" ]; then
		ok "GPU contexts ahead for lev $in at np 3: ${got:-every rank}"
	else bad "GPU contexts ahead for lev $in at np 3: exit $rc, wanted '${want:-no line}', got '$got'"; fi
done
# auto's guess before MPI starts, for one long pair: its cells in the band the heads'
# divergence says (rmpi_guess_pairs). An unrelated 1 Mb pair starts a context ahead; one 1%
# apart, which the CPU ends in a band, does not (-v says so, GPU or not), unless with --path,
# whose levels the guess weighs as the model does (it weighed plain lev: a 10 Mb pair 0.5%
# apart's lev --path, the GPU's by 4.8 s against 0.9, started its context late); outputs the CPU's
"$gen" 1 1000000 -1 81 g_ra.fa g_rb.fa > /dev/null; "$gen" 1 1000000 1 82 g_sa.fa g_sb.fa > /dev/null
for c in "g_ra.fa g_rb.fa::ahead" "g_sa.fa g_sb.fa::none" "g_sa.fa g_sb.fa:--path:ahead"; do
	in=${c%%:*} want=${c##*:} fl=${c#*:}; fl=${fl%:*}
	# (the sanitizer build checks the guess and memory; the outputs are release's to compare)
	if [ -n "${RKTLCS_TEST_SANITIZE:-}" ]; then : > ref.tsv; else "$cli" lev $in $fl --backend cpu --threads 4 -q -o ref.tsv; fi
	"$cli" lev $in $fl --backend auto --threads 4 -v -o np.tsv 2> err; rc=$?
	[ -n "${RKTLCS_TEST_SANITIZE:-}" ] && cp np.tsv ref.tsv
	got=ahead; grep -q 'no GPU context ahead' err && got=none
	[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && [ $got = $want ] && ok "auto's guess for one 1 Mb pair ($in $fl): context $got" \
		|| bad "auto's guess for one 1 Mb pair ($in $fl): exit $rc, context $got, wanted $want: $(grep -o 'auto: .*' err | head -2)"
done
# a batch is dealt out to every rank, so each rank's share decides whether it starts a context
# ahead: 100k pairs of 150 bp on one thread, ~0.5 s for the whole job against the GPU's 0.3 s at
# least, start one as one process and none at np 4 (0.125 s a rank); 70k pairs (~0.36 s) none as
# one process: either may win, and the read (~0.04 s) would hide little of a start
# (rmpi_guess_warm); outputs the CPU's
"$gen" 100000 150 5 83 h_a.fa h_b.fa > /dev/null
head -140000 h_a.fa > h7_a.fa; head -140000 h_b.fa > h7_b.fa
for c in "h_a.fa h_b.fa:1:ahead" "h_a.fa h_b.fa:4:none" "h7_a.fa h7_b.fa:1:none"; do
	IFS=: read -r in np want <<< "$c"
	"$cli" lev $in --backend cpu --threads 1 -q -o ref.tsv
	timeout 300 "$mpiexec" --oversubscribe --bind-to none -np $np "$cli" lev $in --backend auto --threads 1 -v -o np.tsv 2> err; rc=$?
	got=ahead; grep -q 'no GPU context ahead' err && got=none
	[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && [ $got = $want ] && ok "auto's guess for $in at np $np: context $got" \
		|| bad "auto's guess for $in at np $np: exit $rc, context $got, wanted $want: $(grep -o 'auto: .*' err | head -2)"
done
echo "split_plan: $pass passed, $fail failed"
[ $fail -eq 0 ]
