#!/bin/bash
# The GPU backend from the command line: byte-identical to the CPU backend on the paper's
# 1k and 5k reads (all six Table-3 settings, with candidates and occurrences), on real
# FASTQ with unknown symbols, under mpirun -np 1, 2, 4 sharing one GPU, and with device
# memory limits that force chunks; a limit too small for one set of reads exits 2.
# Exit 77 (skipped) without a usable CUDA device.
set -u
cli=$1 mpiexec=$2 shared=$3 tmp=$4
if ! "$cli" --version | grep -q '^gpu: CUDA, [0-9]* device'; then
	echo "SKIPPED: no usable CUDA device ($("$cli" --version | grep '^gpu'))"; exit 77
fi
"$cli" --version
mkdir -p "$tmp"; rm -f "$tmp"/*
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# same input and parameters on both backends: result, candidates and occurrences identical
both() {  # label, input, args...
	local lab=$1 in=$2; shift 2
	"$cli" "$in" "$@" --backend cpu -o "$tmp/cpu.tsv" --candidates "$tmp/cpu_c.tsv" --occurrences -q || { bad "$lab: cpu run failed"; return; }
	"$cli" "$in" "$@" --backend gpu -o "$tmp/gpu.tsv" --candidates "$tmp/gpu_c.tsv" --occurrences 2> "$tmp/gpu.err" || { bad "$lab: gpu run failed: $(cat "$tmp/gpu.err")"; return; }
	if cmp -s "$tmp/cpu.tsv" "$tmp/gpu.tsv" && cmp -s "$tmp/cpu_c.tsv" "$tmp/gpu_c.tsv"; then
		ok "$lab: $(grep -v '^#' "$tmp/gpu.tsv" | sed -n 2p | cut -f1,3-6)   [$(grep -o 'kernels [0-9.]* s' "$tmp/gpu.err")]"
	else bad "$lab: gpu output differs from cpu"; diff "$tmp/cpu.tsv" "$tmp/gpu.tsv" | head -5; fi
}
for f in 1k 5k; do
	for p in "1 1000 15" "3 1000 15" "10 1000 15" "1 100 30" "3 100 30" "10 100 30"; do
		set -- $p
		both "$f k=$1 t=$2 tau=$3" "$shared/paper-reads/$f.fasta" -k $1 -t $2 -tau $3
	done
done
grep -v '^#' "$tmp/gpu.tsv" | sed -n 2p | cut -f4 | grep -qx 42 && ok "5k k=10 t=100 tau=30 gives length 42" || bad "5k k=10 t=100 tau=30: not 42"
# real FASTQ: 72 bp with N; 100 bp with '.' (the first 4,000 reads); mixed lengths
both "ERR127302 k=2 t=50 tau=20" "$shared/ERR127302_1_subset.fastq.gz" -k 2 -t 50 -tau 20
zcat "$shared/multiplex_bad_contam_1.fq.gz" | head -16000 > "$tmp/mplex4k.fq"
both "multiplex 4k k=3 t=20 tau=15" "$tmp/mplex4k.fq" -k 3 -t 20 -tau 15
data=$(dirname "$0")/data
both "mixed.fa k=2 t=3 tau=8" "$data/mixed.fa" -k 2 -t 3 -tau 8
both "mixed.fa k=40 t=2 tau=1" "$data/mixed.fa" -k 40 -t 2 -tau 1
# auto picks by cost: the GPU for the 5k reads at k=3 (0.9 s on 16 CPU cores, 0.3 s on an
# H100), the CPU for the first 200 reads (a few ms: no context is started)
"$cli" "$shared/paper-reads/5k.fasta" -k 3 -t 1000 -tau 15 -o "$tmp/auto.tsv" -v 2> "$tmp/auto.err"
# On a host of 32 cores or more the CPU may win (64 cores of a 4-H200 node: 0.33 s against the
# GPU's 0.40 s, whole process): there auto must take the smaller of its two estimates.
line=$(grep -o 'auto on rank 0.*' "$tmp/auto.err" | head -1)
if [ "$(nproc)" -lt 32 ]; then
	grep -q 'backend gpu' "$tmp/auto.err" && ok "--backend auto uses the GPU for 5k reads: $line" \
		|| bad "--backend auto did not use the GPU for 5k reads: $(grep -o 'auto.*' "$tmp/auto.err" | head -2)"
else
	eg=$(sed -n 's/.*: gpu \([0-9.]*\) s.*/\1/p' <<< "$line") ec=$(sed -n 's/.*, cpu \([0-9.]*\) s.*/\1/p' <<< "$line")
	want=CPU; awk -v g="$eg" -v c="$ec" 'BEGIN { exit !(g < c) }' && want=GPU
	[ -n "$eg" ] && [ -n "$ec" ] && grep -q "the $want\$" <<< "$line" && ok "--backend auto on $(nproc) cores takes the smaller estimate for 5k reads: $line" \
		|| bad "--backend auto on $(nproc) cores: not the smaller estimate for 5k reads: $(grep -o 'auto.*' "$tmp/auto.err" | head -2)"
fi
head -400 "$shared/paper-reads/1k.fasta" > "$tmp/r200.fa"
"$cli" "$tmp/r200.fa" -k 3 -t 5 -tau 15 -o "$tmp/auto.tsv" -v 2> "$tmp/auto.err"
grep -q 'backend cpu' "$tmp/auto.err" && grep -q 'no GPU context ahead' "$tmp/auto.err" && ! grep -q 'GPU start-up on its thread' "$tmp/auto.err" \
	&& ok "--backend auto uses the CPU for 200 reads, no context started" || bad "--backend auto on 200 reads: $(grep -o 'auto.*\|backend [a-z]*' "$tmp/auto.err" | head -3)"
# whichever backend the cost model answers (RKTLCS_AUTO forces its answer), the output is the same
gen=$(dirname "$cli")/tests/rkt_genpairs
"$gen" 200 300 5 9 "$tmp/pa.fa" "$tmp/pb.fa"; "$gen" 1 30000 3 9 "$tmp/la.fa" "$tmp/lb.fa"
for c in "r200.fa -k 3 -t 5 -tau 15 --candidates $tmp/ac.tsv" "hamming @mers46_parsnp_core.fasta" "hamming @mers46_parsnp_core.fasta --max-dist 60" \
	"lev pa.fa pb.fa --path" "lcs pa.fa pb.fa --path --seq" "lev la.fa lb.fa --path" "lcs la.fa lb.fa" "lev --all pa.fa --max-dist 40"; do
	args=()
	for a in $c; do case $a in @*) args+=("$shared/${a:1}") ;; *.fa|*.fasta) args+=("$tmp/$a") ;; *) args+=("$a") ;; esac; done
	"$cli" "${args[@]}" --backend cpu -q -o "$tmp/ab_ref"
	[ -e "$tmp/ac.tsv" ] && mv "$tmp/ac.tsv" "$tmp/ac_ref.tsv"
	same=1
	for m in gpu cpu; do
		RKTLCS_AUTO=$m "$cli" "${args[@]}" -v -o "$tmp/ab_$m" 2> "$tmp/ab_$m.err" || same=0
		grep -q "backend $m" "$tmp/ab_$m.err" || same=0
		cmp -s "$tmp/ab_ref" "$tmp/ab_$m" || same=0
		[ ! -e "$tmp/ac_ref.tsv" ] || cmp -s "$tmp/ac_ref.tsv" "$tmp/ac.tsv" || same=0
	done
	rm -f "$tmp/ac_ref.tsv" "$tmp/ac.tsv"
	[ $same = 1 ] && ok "auto answered gpu and cpu: identical output: $c" || bad "auto gpu/cpu: output or backend differs: $c"
done
# a host whose cores other work keeps busy: auto probes its CPU threads for a long pair
# (RKTLCS_PROBE=1 probes this small one too) and takes the GPU beside 2 busy processes a core,
# where the CPU's wavefront would take many times its estimate; on an idle host the CPU. A 3 Mb
# pair 1% apart: the CPU's estimate about a tenth of the GPU's (1 Mb: 0.004 against 0.39 s, too
# far for any probe to turn)
"$gen" 1 3000000 1 4 "$tmp/ha.fa" "$tmp/hb.fa" > /dev/null
"$cli" lcs "$tmp/ha.fa" "$tmp/hb.fa" --backend cpu -q -o "$tmp/hp_ref"
"$gen" 1 1000000 1 4 "$tmp/ha1.fa" "$tmp/hb1.fa" > /dev/null
"$cli" lev "$tmp/ha1.fa" "$tmp/hb1.fa" --backend cpu -q -o "$tmp/h1_ref"
RKTLCS_PROBE=1 "$cli" lcs "$tmp/ha.fa" "$tmp/hb.fa" -v -o "$tmp/hp_idle" 2> "$tmp/hp_idle.err"; ri=$?
hogs=()
trap 'kill "${hogs[@]}" 2> /dev/null' EXIT
for i in $(seq $((2 * $(nproc)))); do (while :; do :; done) & hogs+=($!); done
sleep 0.5
RKTLCS_PROBE=1 "$cli" lcs "$tmp/ha.fa" "$tmp/hb.fa" -v -o "$tmp/hp_busy" 2> "$tmp/hp_busy.err"; rb=$?
# ... and a 1 Mb pair, under the probe's floor: auto keeps the CPU, on the threads the host's
# runnable threads leave free (16 threads beside 16 busy processes took 3.86 s, the GPU 0.46 s)
t0=$(date +%s%N)
"$cli" lev "$tmp/ha1.fa" "$tmp/hb1.fa" -o "$tmp/h1_busy" 2> "$tmp/h1_busy.err"; r1=$?
t1=$(( ($(date +%s%N) - t0) / 1000000 ))
kill "${hogs[@]}"; wait "${hogs[@]}" 2> /dev/null; hogs=()
s1=$(grep -o 'the host.s cores are busy.*' "$tmp/h1_busy.err")
[ $r1 = 0 ] && cmp -s "$tmp/h1_ref" "$tmp/h1_busy" && [ $t1 -lt 2000 ] && grep -q 'the long pair on [0-9]* thread' <<< "$s1" \
	&& ok "1 Mb pair on a busy host: $t1 ms; $s1" || bad "1 Mb pair on a busy host: exit $r1, $t1 ms, said '$s1'"
pi=$(grep -o 'auto on rank 0 (long pair).*' "$tmp/hp_idle.err") pb=$(grep -o 'auto on rank 0 (long pair).*' "$tmp/hp_busy.err")
sb=$(grep -o 'given [0-9.]* of the wall' "$tmp/hp_busy.err")
[ $ri = 0 ] && [ $rb = 0 ] && cmp -s "$tmp/hp_ref" "$tmp/hp_idle" && cmp -s "$tmp/hp_ref" "$tmp/hp_busy" && grep -q 'the CPU$' <<< "$pi" \
	&& grep -q 'the GPU$' <<< "$pb" && ok "auto on a busy host ($sb): $pb; idle: $pi" \
	|| bad "auto on a busy host: exit $ri/$rb, idle: $pi; busy ($sb): $pb"
# a pair the CPU ends before the GPU's context and chain could (10 Mb 0.5% apart, 16 cores: the
# CPU 0.46-0.58 s, the GPU 0.72-0.84) starts no context ahead: beside the driver's start-up the
# CPU's run took 0.11 s more. The CPU's guess scales with its threads: 16 cores or more only
if [ "$(nproc)" -lt 16 ]; then echo "skip 10 Mb pair 0.5% apart: $(nproc) cores (the CPU's guess is past the GPU's under 16)"; else
"$gen" 1 10000000 0.5 6 "$tmp/ya.fa" "$tmp/yb.fa" > /dev/null
"$cli" lev "$tmp/ya.fa" "$tmp/yb.fa" --backend cpu -q -o "$tmp/y_ref"
"$cli" lev "$tmp/ya.fa" "$tmp/yb.fa" -v -o "$tmp/y_auto" 2> "$tmp/y.err"; ry=$?
ya=$(grep -o 'auto on rank 0 (long pair).*' "$tmp/y.err") yg=$(grep -o 'auto: ~.*' "$tmp/y.err")
[ $ry = 0 ] && cmp -s "$tmp/y_ref" "$tmp/y_auto" && grep -q 'the CPU$' <<< "$ya" && grep -q 'no GPU context ahead' <<< "$yg" \
	&& ok "10 Mb pair 0.5% apart: $yg; $ya" || bad "10 Mb pair 0.5% apart: exit $ry, '$yg', '$ya'"
fi
# each rank sees only its own GPU where it maps no other's memory: -v names it (several GPUs)
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
for np in 1 4; do
	timeout 300 "$mpiexec" --oversubscribe -np $np -x LD_LIBRARY_PATH "$cli" lev "$tmp/la.fa" "$tmp/lb.fa" --path --backend gpu -v \
		-o "$tmp/vis$np" 2> "$tmp/vis$np.err"
	rc=$?
	"$cli" lev "$tmp/la.fa" "$tmp/lb.fa" --path --backend cpu -q -o "$tmp/vis_ref"
	want="every GPU visible"; [ "$ngpu" -gt 1 ] && want="GPU 0 of the node's $ngpu visible, alone"
	[ $rc -eq 0 ] && cmp -s "$tmp/vis_ref" "$tmp/vis$np" && grep -q "$want" "$tmp/vis$np.err" && ok "np $np on $ngpu GPU(s): $want, output = cpu" \
		|| bad "np $np on $ngpu GPU(s): exit $rc, $(grep -o 'start-up: .*' "$tmp/vis$np.err" | head -1)"
done
# reads longer than the GPU kernels take: auto says why and uses the CPU, --backend gpu is exit 2
awk 'BEGIN { srand(7); for (r = 0; r < 4; r++) { s = ""; for (i = 0; i < 2000; i++) s = s substr("ACGT", int(rand() * 4) + 1, 1); print ">l" r; print s } }' > "$tmp/long.fa"
"$cli" "$tmp/long.fa" -k 3 -t 1 -tau 1 -o "$tmp/long_auto.tsv" 2> "$tmp/long_auto.err"; ra=$?
"$cli" "$tmp/long.fa" -k 3 -t 1 -tau 1 --backend cpu -o "$tmp/long_cpu.tsv" -q
"$cli" "$tmp/long.fa" -k 3 -t 1 -tau 1 --backend gpu -o "$tmp/long_gpu.tsv" 2> "$tmp/long_gpu.err"; rg=$?
if [ $ra -eq 0 ] && grep -q 'the longest read (2000 bp) is over the [0-9]* bp the GPU kernels take at tau=1.*using the CPU' "$tmp/long_auto.err" \
	&& cmp -s "$tmp/long_auto.tsv" "$tmp/long_cpu.tsv" && [ $rg -eq 2 ] && [ ! -e "$tmp/long_gpu.tsv" ]; then
	ok "2,000 bp reads: auto says why it uses the CPU, --backend gpu exit 2"
else bad "2,000 bp reads: auto exit $ra ($(grep -m1 GPU "$tmp/long_auto.err")), gpu exit $rg ($(tail -1 "$tmp/long_gpu.err"))"; fi
# device memory limits: chunks give the same output; too small is exit 2 and no output
"$cli" "$shared/paper-reads/5k.fasta" -k 3 -t 100 -tau 30 --backend cpu -o "$tmp/m_cpu.tsv" --candidates "$tmp/m_cpu_c.tsv" -q
"$cli" "$shared/paper-reads/5k.fasta" -k 3 -t 100 -tau 30 --backend gpu --device-memory 300K -o "$tmp/m_gpu.tsv" --candidates "$tmp/m_gpu_c.tsv" 2> "$tmp/m.err"
if cmp -s "$tmp/m_cpu.tsv" "$tmp/m_gpu.tsv" && cmp -s "$tmp/m_cpu_c.tsv" "$tmp/m_gpu_c.tsv"; then ok "--device-memory 300K: $(grep -o '[0-9]* i-chunks, [0-9]* j-chunks' "$tmp/m.err"), same output"
else bad "--device-memory 300K: output differs ($(tail -1 "$tmp/m.err"))"; fi
"$cli" "$shared/paper-reads/5k.fasta" -k 3 -t 100 -tau 30 --backend gpu --device-memory 10K -o "$tmp/tiny.tsv" -q 2> "$tmp/tiny.err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'too small' "$tmp/tiny.err" && [ ! -e "$tmp/tiny.tsv" ]; then ok "--device-memory 10K: exit 2: $(cat "$tmp/tiny.err")"
else bad "--device-memory 10K: exit $rc, $(cat "$tmp/tiny.err")"; fi
# ranks sharing one GPU: identical to np=1 and to the CPU. Every rank computes
# (RKTLCS_GPU_RANKS=all), or, by the job's size, rank 0's GPU alone: the paper's reads are
# small enough for that at np 4 (-v says so)
for set in "5k:3:1000:15" "1k:10:100:30"; do
	IFS=: read -r f k t tau <<< "$set"
	"$cli" "$shared/paper-reads/$f.fasta" -k $k -t $t -tau $tau --backend cpu -o "$tmp/r_cpu.tsv" --candidates "$tmp/r_cpu_c.tsv" --occurrences -q
	for run in 1:all 2:all 4:all 4:size; do
		IFS=: read -r np how <<< "$run"
		timeout 300 "$mpiexec" --oversubscribe -np $np -x LD_LIBRARY_PATH -x RKTLCS_GPU_RANKS=$how "$cli" "$shared/paper-reads/$f.fasta" -k $k -t $t \
			-tau $tau --backend gpu -o "$tmp/r$np.tsv" --candidates "$tmp/r${np}_c.tsv" --occurrences -v 2> "$tmp/r$np.err"
		rc=$?
		solo=0; grep -q "rank 0's GPU takes every read" "$tmp/r$np.err" && solo=1
		want=0; [ "$how" = size ] && want=1
		if [ $rc -eq 0 ] && [ $solo = $want ] && cmp -s "$tmp/r_cpu.tsv" "$tmp/r$np.tsv" && cmp -s "$tmp/r_cpu_c.tsv" "$tmp/r${np}_c.tsv"; then
			ok "mpirun -np $np $f k=$k t=$t tau=$tau on one GPU, $([ $solo = 1 ] && echo "rank 0 alone" || echo "every rank") = cpu"
		else bad "mpirun -np $np $f k=$k ($how): exit $rc, rank 0 alone $solo (want $want), or output differs"; fi
	done
done
# each pair walked from both reads (RKTLCS_RKT_GPU_TWICE=1), ranks owning ranges of reads
timeout 300 "$mpiexec" --oversubscribe -np 2 -x LD_LIBRARY_PATH -x RKTLCS_GPU_RANKS=all -x RKTLCS_RKT_GPU_TWICE=1 "$cli" "$shared/paper-reads/1k.fasta" -k 10 -t 100 -tau 30 \
	--backend gpu -o "$tmp/tw.tsv" --candidates "$tmp/tw_c.tsv" --occurrences -q
cmp -s "$tmp/r_cpu.tsv" "$tmp/tw.tsv" && cmp -s "$tmp/r_cpu_c.tsv" "$tmp/tw_c.tsv" && ok "mpirun -np 2 walk-twice = cpu" || bad "mpirun -np 2 walk-twice differs"
# several GPU ranks of one node sum the walk-once supports between the devices (CUDA IPC),
# or through the host (RKTLCS_RKT_HOST_SUM=1): rank 0's debug line says which ran
"$cli" "$shared/paper-reads/5k.fasta" -k 3 -t 1000 -tau 15 --backend cpu -o "$tmp/s_cpu.tsv" --candidates "$tmp/s_cpu_c.tsv" -q
for how in ipc:"between the devices" host:"through the host"; do
	IFS=: read -r name want <<< "$how"
	hs=0; [ "$name" = host ] && hs=1
	# every device visible to every rank (on their own, ranks of a 5k job see one each)
	timeout 300 "$mpiexec" --oversubscribe -np 3 -x LD_LIBRARY_PATH -x RKTLCS_GPU_RANKS=all -x RKTLCS_GPU_VISIBLE=all -x RKTLCS_RKT_HOST_SUM=$hs "$cli" "$shared/paper-reads/5k.fasta" \
		-k 3 -t 1000 -tau 15 --backend gpu -o "$tmp/s_$name.tsv" --candidates "$tmp/s_${name}_c.tsv" -v 2> "$tmp/s_$name.err"
	rc=$?
	if [ $rc -eq 0 ] && grep -q "rank 0: supports summed $want" "$tmp/s_$name.err" && cmp -s "$tmp/s_cpu.tsv" "$tmp/s_$name.tsv" \
		&& cmp -s "$tmp/s_cpu_c.tsv" "$tmp/s_${name}_c.tsv"; then ok "mpirun -np 3 walk-once, supports summed $want = cpu"
	else bad "mpirun -np 3 supports summed $want: exit $rc, $(grep -o 'supports summed [a-z ]*' "$tmp/s_$name.err" | head -1), or output differs"; fi
done
# hamming: GPU = CPU on the real alignments (matrix, -a, -k, caps, sparse), and under MPI
zcat "$shared/rRNA16S.gold.NAST_ALIGNED.fasta.gz" > "$tmp/16s.fa"
for c in "16s.fa|" "16s.fa|-a" "16s.fa|-k -L" "16s.fa|--max-dist 100" "16s.fa|-a -x 50 --max-dist 60" "@mers46_parsnp_core.fasta|-m" "@mothur_HA_H1N1pdm.fasta.gz|-a -k"; do
	IFS='|' read -r f args <<< "$c"
	[ "${f:0:1}" = @ ] && p="$shared/${f:1}" || p="$tmp/$f"
	"$cli" hamming $args --backend cpu -q -o "$tmp/hc" "$p"
	"$cli" hamming $args --backend gpu -o "$tmp/hg" "$p" 2> "$tmp/hg.err"
	cmp -s "$tmp/hc" "$tmp/hg" && ok "hamming $f $args: gpu = cpu [$(grep -o 'kernels [0-9.]* s' "$tmp/hg.err")]" || bad "hamming $f $args: gpu differs: $(tail -1 "$tmp/hg.err")"
done
# every rank computing (RKTLCS_GPU_RANKS=all), or as the job's size says: the 16S alignment is
# rank 0's GPU's alone at np 4 (-v says so)
"$cli" hamming --backend cpu --max-dist 80 -q -o "$tmp/hmc" "$tmp/16s.fa"
"$cli" hamming --backend cpu -q -o "$tmp/hc0" "$tmp/16s.fa"
for run in 1:all 2:all 4:all 4:size; do
	IFS=: read -r np how <<< "$run"
	timeout 300 "$mpiexec" --oversubscribe -np $np -x LD_LIBRARY_PATH -x RKTLCS_GPU_RANKS=$how "$cli" hamming --backend gpu --max-dist 80 -v \
		-o "$tmp/hm$np" "$tmp/16s.fa" 2> "$tmp/hm$np.err"
	timeout 300 "$mpiexec" --oversubscribe -np $np -x LD_LIBRARY_PATH -x RKTLCS_GPU_RANKS=$how "$cli" hamming --backend gpu -v -o "$tmp/hx$np" \
		"$tmp/16s.fa" 2> "$tmp/hx$np.err"
	solo=$(cat "$tmp/hm$np.err" "$tmp/hx$np.err" | grep -c "rank 0's GPU takes them all")
	want=0; [ "$how" = size ] && want=2
	cmp -s "$tmp/hm$np" "$tmp/hmc" && cmp -s "$tmp/hx$np" "$tmp/hc0" && [ "$solo" = $want ] \
		&& ok "hamming mpirun -np $np --backend gpu, $([ $want = 2 ] && echo "rank 0 alone" || echo "every rank") = cpu" \
		|| bad "hamming np=$np ($how): gpu differs, or rank 0 alone in $solo of 2 runs (want $want)"
done
echo "gpu_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
