#!/bin/bash
# One pair split across ranks (issue 13): lev and lcs on random and related pairs of 1 kb to
# 1 Mb, split across 2-4 ranks in slabs of rows (RKTLCS_SPLIT_CELLS low so that every pair is
# split, RKTLCS_SPLIT_PLAN=all so that every rank computes every cell whatever the cost model
# says; tests/split_plan.sh tests the model's other ways), with the default slabs (by measured
# speed) and forced unequal ones (a rank with a
# single word of rows, ranks with none, halves of several ranks): the distance, the CIGAR, the LCS, the subsequence
# and the path must be byte-identical to the one-rank run.
# BACKEND gpu: the split runs (and a one-rank run) on the GPU, every rank sharing the
# device, against the CPU reference; exit 77 (skipped) without a usable CUDA device.
# Usage: split.sh RKTLCS MPIEXEC TMPDIR [BIG=1000000] [BACKEND=cpu]
set -u
cli=$1 mpiexec=$2 tmp=$3 big=${4:-1000000} backend=${5:-cpu}
if [ "$backend" = gpu ] && ! "$cli" --version | grep -q '^gpu: CUDA, [0-9]* device'; then
	echo "SKIPPED: no usable CUDA device ($("$cli" --version | grep '^gpu'))"; exit 77
fi
rm -rf "$tmp"; mkdir -p "$tmp"
cd "$tmp" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 RKTLCS_SPLIT_CELLS=1000 RKTLCS_SPLIT_PLAN=all
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# pairs: n bp random, a related copy (1% point edits, a few long indels), an unrelated one
gen() {  # n seed -> a.fa b.fa
	awk -v n=$1 -v seed=$2 'function r(m) { return int(rand() * m) }
	BEGIN { srand(seed); s = ""; for (i = 0; i < n; i++) s = s substr("ACGT", r(4) + 1, 1)
		t = ""; for (i = 1; i <= n; i++) { x = r(1000); c = substr(s, i, 1)
			if (x < 4) t = t substr("ACGT", r(4) + 1, 1); else if (x < 7) t = t c substr("ACGTN", r(5) + 1, 1); else if (x < 10) continue; else t = t c
			if (x == 999 && r(20) == 0) i += r(300) }
		u = ""; for (i = 0; i < n / 2 + 7; i++) u = u substr("ACGT", r(4) + 1, 1)
		print ">a1\n" s "\n>a2\n" s > "a.fa"; print ">b1\n" t "\n>b2\n" u > "b.fa" }'
}
run() {  # label, np, words, args...
	local lab=$1 np=$2 words=$3; shift 3
	RKTLCS_SPLIT_WORDS=$words timeout 600 "$mpiexec" --oversubscribe -np $np -x RKTLCS_SPLIT_CELLS -x RKTLCS_SPLIT_WORDS -x RKTLCS_SPLIT_PLAN \
		"$cli" "$@" --backend $backend -q --threads 1 -o np.tsv 2> err
	local rc=$?
	[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && ok "$lab np=$np slabs=${words:-by speed}" \
		|| bad "$lab np=$np slabs=${words:-by speed}: exit $rc $(head -c 300 err) $(diff ref.tsv np.tsv | head -3)"
}
# a mix of backends: rank 0 without a device (the CPU), rank 1 on the GPU (--backend auto)
runmix() {  # label, args...
	local lab=$1; shift
	timeout 600 "$mpiexec" --oversubscribe -x RKTLCS_SPLIT_CELLS -x RKTLCS_SPLIT_PLAN -np 1 env CUDA_VISIBLE_DEVICES= "$cli" "$@" -q --threads 1 -o np.tsv : \
		-np 1 "$cli" "$@" -q --threads 1 -o np.tsv 2> err
	local rc=$?
	[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && ok "$lab np=2 cpu+gpu" || bad "$lab np=2 cpu+gpu: exit $rc $(head -c 300 err) $(diff ref.tsv np.tsv | head -3)"
}
# ranks that want different chunks of columns per transfer (as a CPU rank next to a GPU rank
# does): they must agree on one, whatever each prefers
runchunks() {  # label, args...
	local lab=$1; shift
	timeout 300 "$mpiexec" --oversubscribe -x RKTLCS_SPLIT_CELLS -x RKTLCS_SPLIT_PLAN -np 1 env RKTLCS_SPLIT_CHUNK=64 "$cli" "$@" --backend $backend -q --threads 1 -o np.tsv : \
		-np 1 env RKTLCS_SPLIT_CHUNK=4096 "$cli" "$@" --backend $backend -q --threads 1 -o np.tsv : \
		-np 1 env RKTLCS_SPLIT_CHUNK=640 "$cli" "$@" --backend $backend -q --threads 1 -o np.tsv 2> err
	local rc=$?
	[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && ok "$lab np=3 chunks 64/4096/640" \
		|| bad "$lab np=3 chunks 64/4096/640: exit $rc $(head -c 300 err) $(diff ref.tsv np.tsv | head -3)"
}
# SPLIT_ONLY=gpu-plan: the last section alone (GPU runs of the model's plan)
# (the sanitizer build, which checks memory, starts at 10 kb: its slabs of one word and ranks
# with none are drawn there too)
sizes="1000 10000 100000"; [ -n "${RKTLCS_TEST_SANITIZE:-}" ] && sizes="10000 100000"
for n in $sizes; do
	[ "${SPLIT_ONLY:-}" = gpu-plan ] && break
	gen $n $n
	for args in "lev a.fa b.fa --path" "lev a.fa b.fa -k $((n / 50))" "lcs a.fa b.fa --seq --path"; do
		"$cli" $args --backend cpu -q --threads 1 -o ref.tsv || { bad "$args: one-rank run failed"; continue; }
		[ "$backend" = gpu ] && { run "$n bp: $args" 1 "" $args; runmix "$n bp: $args" $args; }
		run "$n bp: $args" 2 "" $args
		[ $n -eq 10000 ] && runchunks "$n bp: $args" $args
		# (the sanitizer build, which checks memory, takes the forced slabs on the smaller pairs)
		if [ -z "${RKTLCS_TEST_SANITIZE:-}" ] || [ $n -lt 100000 ]; then
			run "$n bp: $args" 3 "1,0,$((n / 64))" $args
			run "$n bp: $args" 4 "0,$((n / 200 + 1)),1,2" $args
		fi
		# both halves with several ranks: pipelines inside each half, on the cut too
		run "$n bp: $args" 4 "1,1,1,0" $args
		[ $n -eq 10000 ] && run "$n bp: $args" 5 "" $args
		# several huge pairs each whole on one rank (what GPU ranks do when that ends sooner)
		[ $n -eq 10000 ] && RKTLCS_SPLIT_PLAN=spread run "$n bp: $args, each pair on one rank" 3 "" $args
	done
done
# 1 Mb: lcs with the subsequence and the path, and the lev distance, on 2, 3 and 4 ranks
gen $big 5
for args in "lcs a.fa b.fa --seq --path" "lev a.fa b.fa -k 20000"; do
	[ "${SPLIT_ONLY:-}" = gpu-plan ] && break
	"$cli" $args --backend cpu -q --threads 2 -o ref.tsv || { bad "$big bp $args: one-rank run failed"; continue; }
	[ "$backend" = gpu ] && { run "$big bp: $args" 1 "" $args; runmix "$big bp: $args" $args; }
	run "$big bp: $args" 2 "" $args
	run "$big bp: $args" 3 "1,$(( big / 128 )),7" $args
	[ -z "${RKTLCS_TEST_SANITIZE:-}" ] && run "$big bp: $args" 4 "" $args
done
# GPU ranks under the model's plan (RKTLCS_SPLIT_PLAN unset): ranks 0 and 1 meet on a column;
# with the path on four ranks or more, its two pieces go to ranks 0 and 2, 1 and 3, each split
# on a column again (split_pairs.c; RKTLCS_SPLIT_CELLS low: the pieces are split too), where
# ranks 0 to 3 have a GPU each; with fewer GPUs ranks 0 and 1 keep the pieces; on one GPU
# ranks 0 and 1 would share it, and each pair is one rank's (rmpi_split_shared).
if [ "$backend" = gpu ]; then
	ngpu=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU')
	pieces="the path's two pieces on ranks 0 and 2, 1 and 3"; [ "$ngpu" -ge 4 ] || pieces="the path's two pieces on ranks 0 and 1 alone"
	for n in 10000 $big; do
		gen $n $((n + 3))
		for args in "lev a.fa b.fa --path" "lcs a.fa b.fa --seq --path" "lev a.fa b.fa --path -k $((n / 20))"; do
			"$cli" $args --backend cpu -q --threads 4 -o ref.tsv || { bad "$n bp $args: one-rank run failed"; continue; }
			for np in 3 4 5 8; do
				RKTLCS_SPLIT_PLAN= timeout 600 "$mpiexec" --oversubscribe -np $np -x RKTLCS_SPLIT_CELLS -x RKTLCS_SPLIT_PLAN \
					"$cli" $args --backend gpu --threads 1 -v -o np.tsv 2> err
				rc=$? want="the others wait"; [ $np -ge 4 ] && want=$pieces; [ "$ngpu" -eq 1 ] && want="ranks 0 and 1 have no GPU each"
				[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && grep -q "$want" err && ok "$n bp: $args np=$np, model's plan: $want" \
					|| bad "$n bp: $args np=$np, model's plan: exit $rc $(grep -m1 'split: [A-Z]' err | cut -c 1-200) $(grep -m1 'rror' err) $(diff ref.tsv np.tsv | cut -c 1-200 | head -3)"
			done
		done
	done
	# four pairs of one size on 2-4 GPUs: each whole on one rank, not each split in turn on two
	# GPUs (pair_run.c, pair_spread_huge); with one GPU ranks 0 and 1 would share it (above)
	if [ "$ngpu" -ge 2 ]; then
		np=$((ngpu < 4 ? ngpu : 4))
		gen 100000 11
		awk '/^>/ { n++ } n == 1' a.fa > a1.fa; awk '/^>/ { n++ } n == 1' b.fa > b1.fa
		for i in 1 2 3 4; do cat a1.fa; done > a4.fa; for i in 1 2 3 4; do cat b1.fa; done > b4.fa
		for args in "lev a4.fa b4.fa --path" "lcs a4.fa b4.fa --seq"; do
			"$cli" $args --backend cpu -q --threads 4 -o ref.tsv || { bad "4 pairs $args: one-rank run failed"; continue; }
			RKTLCS_SPLIT_PLAN= timeout 600 "$mpiexec" --oversubscribe -np $np -x RKTLCS_SPLIT_CELLS -x RKTLCS_SPLIT_PLAN \
				"$cli" $args --backend gpu --threads 1 -v -o np.tsv 2> err
			rc=$? want="4 pairs over the split's size: each whole on one rank"
			[ $rc -eq 0 ] && cmp -s ref.tsv np.tsv && grep -q "$want" err && ok "4 pairs of 100 kb: $args np=$np, model's plan: $want" \
				|| bad "4 pairs of 100 kb: $args np=$np: exit $rc $(grep -m1 'split: [0-9]' err | cut -c 1-200) $(grep -m1 'rror' err) $(diff ref.tsv np.tsv | cut -c 1-200 | head -3)"
		done
	fi
fi
# a busy host (issue 29): one long pair on the CPU of a process alone runs on the threads a
# halving probe finds free and says so (RKTLCS_PROBE=1 probes this small pair too), output equal
# to one thread's; --threads keeps the threads given; without the probe, the host's runnable
# threads find them
if [ "$backend" = cpu ] && [ "$(nproc)" -ge 2 ]; then
	gen 200000 41
	"$cli" lcs a.fa b.fa --seq --threads 1 -q -o bz_ref.tsv
	hogs=()
	trap 'kill "${hogs[@]}" 2> /dev/null' EXIT
	for i in $(seq $((3 * $(nproc)))); do timeout 300 sh -c 'while :; do :; done' & hogs+=($!); done
	sleep 0.3
	RKTLCS_PROBE=1 "$cli" lcs a.fa b.fa --seq -o bz.tsv 2> bz.err; r1=$?
	RKTLCS_PROBE=1 "$cli" lcs a.fa b.fa --seq --threads 2 -o bzt.tsv 2> bzt.err; r2=$?
	# under the probe's floor (this pair's estimate), the host's runnable threads decide
	"$cli" lcs a.fa b.fa --seq -o bzl.tsv 2> bzl.err; r3=$?
	# ranks: the free cores shared among the host's ranks, and those of a rank alone
	RKTLCS_SPLIT_PLAN= timeout 300 "$mpiexec" --oversubscribe --bind-to none -np 2 "$cli" lcs a.fa b.fa --seq -o bzr.tsv 2> bzr.err; r4=$?
	kill "${hogs[@]}"; wait "${hogs[@]}" 2> /dev/null; hogs=()
	said=$(grep -o 'the host.s cores are busy.*' bz.err)
	[ $r1 = 0 ] && [ $r2 = 0 ] && cmp -s bz_ref.tsv bz.tsv && cmp -s bz_ref.tsv bzt.tsv && grep -q 'the long pair on [0-9]* thread' <<< "$said" \
		&& ! grep -q 'cores are busy' bzt.err && ok "busy host: $said; --threads 2 kept" \
		|| bad "busy host: exit $r1/$r2, said '$said', --threads 2: $(grep -o 'cores are busy.*' bzt.err)"
	said=$(grep -o 'the host.s cores are busy.*' bzl.err)
	[ $r3 = 0 ] && cmp -s bz_ref.tsv bzl.tsv && grep -q 'other threads* runnable.*the long pair on [0-9]* thread' <<< "$said" \
		&& ok "busy host, no probe: $said" || bad "busy host, no probe: exit $r3, said '$said'"
	said=$(grep -o 'the host.s cores are busy.*besides this job.s ranks.*the long pair on [0-9]* threads* a rank.*' bzr.err)
	[ $r4 = 0 ] && cmp -s bz_ref.tsv bzr.tsv && [ -n "$said" ] && ok "busy host, np 2: $said" \
		|| bad "busy host, np 2: exit $r4, said: $(grep -o 'cores are busy.*' bzr.err | head -2)"
fi
echo "split ($backend): $pass passed, $fail failed"
[ $fail -eq 0 ]
