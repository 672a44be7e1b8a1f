#!/bin/bash
# lev --all with every pair computed on the device (src/gpu/dpg_all.cu) from the command line:
# byte-identical to the CPU backend on random reads (mixed lengths, tiny ones, N and IUPAC
# codes, duplicates and 3% copies) and adversarial ones (all identical; a read of 4096 bases,
# the widest batch class; one of 5000, which sends the set to the general path), with and
# without --max-dist and -k, TSV and JSON, under mpirun -np 1 and 3 sharing one GPU (RKTLCS_SOLO=0:
# not rank 0 alone, as a node of one GPU would have it), and with
# a device-memory limit too small for the reads and a tile (the general path, same output).
# Exit 77 (skipped) without a usable CUDA device.
set -u
cli=$1 mpiexec=$2 tmp=$3
if ! "$cli" --version | grep -q '^gpu: CUDA, [0-9]* device'; then
	echo "SKIPPED: no usable CUDA device ($("$cli" --version | grep '^gpu'))"; exit 77
fi
mkdir -p "$tmp"; rm -f "$tmp"/*
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# reads: N of them, lengths LO-HI, SEED; every 7th a duplicate of an earlier one, every 5th a
# copy with 3% substitutions, every 11th of 1-3 bases, every 3rd with N or IUPAC codes
gen() {  # N LO HI SEED
	awk -v n=$1 -v lo=$2 -v hi=$3 -v seed=$4 'BEGIN { srand(seed); a = "ACGT"; u = "NRYKMSW"
		for (r = 0; r < n; r++) {
			if (r > 0 && r % 7 == 0) s = S[int(rand() * r)]
			else if (r > 0 && r % 5 == 0) { t = S[int(rand() * r)]; s = ""
				for (i = 1; i <= length(t); i++) s = s (rand() < 0.03 ? substr(a, int(rand() * 4) + 1, 1) : substr(t, i, 1)) }
			else { l = r % 11 == 0 ? 1 + int(rand() * 3) : lo + int(rand() * (hi - lo + 1)); s = ""
				for (i = 0; i < l; i++) s = s (r % 3 == 0 && rand() < 0.05 ? substr(u, int(rand() * 7) + 1, 1) : substr(a, int(rand() * 4) + 1, 1)) }
			S[r] = s; print ">r" r; print s } }'
}
both() {  # label, env, file, args... (np from NP)
	local lab=$1 env=$2 in=$3; shift 3
	local run=(); [ "${NP:-1}" -gt 1 ] && run=("$mpiexec" --oversubscribe -np $NP -x RKTLCS_ALL_NOFILTER -x RKTLCS_SOLO=0)
	env $env "${run[@]}" "$cli" lev --all "$in" "$@" --backend cpu -o "$tmp/cpu.out" -q || { bad "$lab: cpu run failed"; return; }
	env $env "${run[@]}" "$cli" lev --all "$in" "$@" --backend gpu -o "$tmp/gpu.out" 2> "$tmp/gpu.err" \
		|| { bad "$lab: gpu run failed: $(tail -2 "$tmp/gpu.err")"; return; }
	if cmp -s "$tmp/cpu.out" "$tmp/gpu.out"; then ok "$lab: $(grep -vc '^#' "$tmp/gpu.out") lines"
	else bad "$lab: gpu output differs from cpu"; diff "$tmp/cpu.out" "$tmp/gpu.out" | head -5; fi
}
gen 400 60 300 3 > "$tmp/rand.fa"
gen 30 100 200 4 | awk 'NR == 2 { first = $0 } NR % 2 == 1 { print } NR % 2 == 0 { print first }' > "$tmp/same.fa"
head -200 "$tmp/rand.fa" | awk 'NR == 4 { s = $0 } { print } END { srand(9); t = ""; for (i = 0; i < 4096; i++) t = t substr("ACGT", int(rand() * 4) + 1, 1)
	print ">w4096"; print t; print ">w4096b"; print substr(t, 1, 4000) s }' > "$tmp/wide.fa"
cat "$tmp/wide.fa" > "$tmp/long.fa"; awk 'BEGIN { srand(5); t = ""; for (i = 0; i < 5000; i++) t = t substr("ACGT", int(rand() * 4) + 1, 1); print ">l5000"; print t }' >> "$tmp/long.fa"
for np in 1 3; do
	for f in rand same wide long; do
		NP=$np both "np $np $f, no filter, --max-dist 10" RKTLCS_ALL_NOFILTER=1 "$tmp/$f.fa" --max-dist 10
		NP=$np both "np $np $f, every pair" RKTLCS_ALL_NOFILTER=1 "$tmp/$f.fa"
	done
	NP=$np both "np $np rand, -k 20, JSON" RKTLCS_ALL_NOFILTER=1 "$tmp/rand.fa" -k 20 --format json
	NP=$np both "np $np rand, no filter, --max-dist 0" RKTLCS_ALL_NOFILTER=1 "$tmp/rand.fa" --max-dist 0
done
both "rand, --max-dist 40 -k 60" RKTLCS_ALL_NOFILTER=1 "$tmp/rand.fa" --max-dist 40 -k 60
both "rand, --device-memory 64K (the general path)" RKTLCS_ALL_NOFILTER=1 "$tmp/rand.fa" --max-dist 10 --device-memory 64K
# pairs (A[i] against B[i]) and the --max-dist filter's candidates: valued from the reads
# uploaded once (dpg_two.cu) where every read is 1-320 bases, said by -v; packed per block
# where one is longer (wide) or a path is wanted; equal to the CPU either way
pairs() {  # label, expect (indices|packed), mode, files and args...
	local lab=$1 want=$2 mode=$3; shift 3
	export RKTLCS_NEAR_PLAN="${RKTLCS_NEAR_PLAN:-}"   # set for mpirun's -x; empty: the cost model's plan
	local run=(); [ "${NP:-1}" -gt 1 ] && run=("$mpiexec" --oversubscribe -np $NP -x RKTLCS_NEAR_PLAN -x RKTLCS_SOLO=0)
	"${run[@]}" "$cli" $mode "$@" --backend cpu -o "$tmp/cpu.out" -q || { bad "$lab: cpu run failed"; return; }
	"${run[@]}" "$cli" $mode "$@" --backend gpu -v -o "$tmp/gpu.out" 2> "$tmp/gpu.err" || { bad "$lab: gpu run failed: $(tail -2 "$tmp/gpu.err")"; return; }
	local got=packed; grep -q 'blocks go up as indices' "$tmp/gpu.err" && got=indices
	if ! cmp -s "$tmp/cpu.out" "$tmp/gpu.out"; then bad "$lab: gpu output differs from cpu"; diff "$tmp/cpu.out" "$tmp/gpu.out" | head -5
	elif [ $got != $want ]; then bad "$lab: the reads were $got, $want expected"
	else ok "$lab ($got): $(grep -vc '^#' "$tmp/gpu.out") lines"; fi
}
gen 400 60 320 6 > "$tmp/randb.fa"
head -1 "$tmp/rand.fa" > "$tmp/one.fa"; sed -n 2p "$tmp/rand.fa" >> "$tmp/one.fa"
for np in 1 3; do
	for m in lev lcs; do
		NP=$np pairs "np $np $m pairs" indices $m "$tmp/rand.fa" "$tmp/randb.fa"
		NP=$np pairs "np $np $m one against many" indices $m "$tmp/one.fa" "$tmp/randb.fa"
	done
	NP=$np pairs "np $np lev pairs -k 15 JSON" indices lev "$tmp/rand.fa" "$tmp/randb.fa" -k 15 --format json
	RKTLCS_NEAR_PLAN=exact NP=$np pairs "np $np lev --all --max-dist 3, exact segments (candidates)" indices lev --all "$tmp/rand.fa" --max-dist 3
done
pairs "lev pairs, a read of 4096" packed lev "$tmp/wide.fa" "$tmp/wide.fa"
pairs "lcs pairs --path" packed lcs "$tmp/rand.fa" "$tmp/randb.fa" --path
pairs "lev pairs, --device-memory 64K" packed lev "$tmp/rand.fa" "$tmp/randb.fa" --device-memory 64K
echo "gpu_all: $pass passed, $fail failed"
[ $fail -eq 0 ]
