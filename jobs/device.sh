#!/bin/bash
# One call on a bare GPU machine without htslib (the project's device machine): unpack the
# carried htslib .deb files (.deps/debs), build into build-gpu, then run the named stages.
# Shared data is read from .deps/data (a copy of ../shared/data, carried along).
# Usage: jobs/device.sh STAGE...   stages: unit (test_gpu), gpu (ctest -L gpu: test_gpu and gpu.sh;
#        not the stress test), stress (tests/gpu_stress.sh alone; STRESS_RKT/STRESS_HAM sets), stress-old
#        (the same, rkt only, against a build of an older src/ carried in .deps/old/src: e.g.
#        `git archive 95b8251 src | tar -x -C .deps/old`; shows what a fix changed),
#        sanitize (all four compute-sanitizer tools on every kernel, SAN_WORK of: rkt (walk-twice, chunked)
#        rktonce (walk-once) rktipc (walk-once on 2 ranks, summed between the devices) ham hampairs levall (lev --all, every pair
#        on the device) levpairs (lev batches through the pair pipeline) rktrows (test_gpu's sets, with the reads
#        claimed by the GPU beside a CPU worker); run it after every kernel change),
#        quick (5k timings), bench (jobs/bench-rkt-gpu.sh), hamrandom (hamming vs naive, auto =
#        GPU), hambench (jobs/bench-ham-gpu.sh), dp (test_gpu_dp and tests/split.sh on the GPU),
#        dpsan (the lev/lcs kernels under the four sanitizers), dpbench (test_gpu_dp bench), dpprof (ncu on the long kernel),
#        splitbench (jobs/bench-split.sh: a 10 Mb pair on 1 and SPLIT_NP ranks), gscale (jobs/scale.sh
#        on 1-2 GPUs), readbench, host (the tests that need a host of 8 CPUs or more: pair_busy_cpuset),
#        ranks (jobs/bench-ranks.sh: every mode at np 1-32 on this node; RANKS_JOBS, RANKS_NP),
#        levwhole (jobs/bench-lev-whole.sh: lev 1M x 150 bp whole processes, huge pages off and on),
#        levbatch (jobs/bench-lev-batch.sh on 16 threads, 1M pairs: WFA2 and edlib from the carried .debs),
#        gz (jobs/bench-gz.sh: BGZF against plain output, lev --all and hamming 100k, 16 threads),
#        gzprobe (lev --all's BGZF output: -v's block times), lib (cli_lib: librktlcs on the CPU and the GPU),
#        gpuup (the reads up to the device against .deps/base/rktlcs), calibfirst (RKTLCS_CALIBRATE=auto), calibemu (jobs/bench-calibrate.sh on a machine unlike the
#        reference: EMU_SM_PCT% of the GPU's SMs through CUDA MPS, EMU_CPUS cores through taskset),
#        rkthy (Rkt-LCS HY_N x 51 bp, --backend gpu against auto's reads shared with the CPU threads)
set -uo pipefail
cd "$(dirname "$0")/.."
R=$PWD/.deps/root
mkdir -p "$R"
# unpacked once per machine (two device.sh may run side by side)
[ -e "$R/usr/include/htslib/hts.h" ] || for f in .deps/debs/*.deb; do dpkg -x "$f" "$R"; done
export LD_LIBRARY_PATH=$R/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SHARED_DATA=$PWD/.deps/data
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
# PREBUILT=1: a build-gpu carried along (configured with -DSHARED_DATA=$PWD/.deps/data in a
# checkout at the same path) is used as it is when its binary runs here
if [ -n "${PREBUILT:-}" ] && ./build-gpu/rktlcs --version > /dev/null 2>&1; then
	echo "prebuilt build-gpu: $(./build-gpu/rktlcs --version | tr '\n' ' ')"
else
	cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DRKTLCS_CUDA=ON -DHTSLIB_ROOT="$R/usr" -DCMAKE_PREFIX_PATH="$R/usr" \
		-DSHARED_DATA="$SHARED_DATA" > "$OUT/build.log" 2>&1 && cmake --build build-gpu -j16 >> "$OUT/build.log" 2>&1 \
		|| { tail -30 "$OUT/build.log"; exit 1; }
fi
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
# the host's cores: 16 CPUs of 8 cores with two threads each would change the lanes against the wavefronts
lscpu | grep -E "^(Thread|Core|Socket|Model name)" | tr -s " " | paste -sd ";"
echo "THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null) defrag $(cat /sys/kernel/mm/transparent_hugepage/defrag 2>/dev/null)"
rc=0
for stage in "$@"; do
	echo "=== $stage"
	case $stage in
	host) (cd build-gpu && ctest -R pair_busy_cpuset -V > "$OUT/ctest-host.log" 2>&1); r=$?
		grep -E '^[0-9]+: (ok|FAIL)|passed|failed|SKIP' "$OUT/ctest-host.log" | sed 's/^[0-9]*: //'; [ $r -eq 0 ] || rc=1 ;;
	levwhole) bash jobs/bench-lev-whole.sh build-gpu 16 "${LW_PAIRS:-1000000}" "${LW_REPS:-2}" "${LW_BES:-cpu gpu}" "${LW_DIVS:-1 5 15}" 2>&1 | tee "$OUT/levwhole.txt" ;;
	levprof)   # where a GPU batch of 1M x 150 bp spends its time: -v's stage lines and --stats
		for d in 1 15; do
			./build-gpu/tests/rkt_genpairs 1000000 150 $d 7 /tmp/lp_a.fa /tmp/lp_b.fa > /dev/null
			for be in gpu cpu; do for path in "" --path; do
				ths=16; [ $be = cpu ] && ths="1 2 4 8 16"
				for th in $ths; do
					./build-gpu/rktlcs lev /tmp/lp_a.fa /tmp/lp_b.fa $path --backend $be --threads $th -v -o /tmp/lp_o.tsv 2> /tmp/lp_err
					echo "--- $d% $be ${path:-dist} $th threads"
					grep -E "gpu batch of 131072|blocks|reads on the device|stages" /tmp/lp_err | head -4
				done
			done; done
		done 2>&1 | tee "$OUT/levprof.txt" ;;
	gpuup)   # the reads up to the device (dpg_reads.cu) against a binary carried in .deps/base/rktlcs (the
		# tree before): lev 1M x 150 bp and lev --all on the GPU, -v's upload lines, --stats' compute, outputs compared
		B=${GPUUP_BASE:-.deps/base/rktlcs}
		./build-gpu/tests/rkt_genpairs 1000000 150 5 7 /tmp/gu_a.fa /tmp/gu_b.fa > /dev/null
		./build-gpu/tests/rkt_genpairs 20000 150 -1 8 /tmp/gu_c.fa /tmp/gu_d.fa > /dev/null
		for j in "lev /tmp/gu_a.fa /tmp/gu_b.fa" "lev /tmp/gu_a.fa /tmp/gu_b.fa --path" "lev --all /tmp/gu_c.fa --max-dist 100"; do
			for rep in 1 2; do for bin in "$B" ./build-gpu/rktlcs; do
				rm -f /tmp/gu_o.tsv; s=$(date +%s.%N)
				$bin $j --backend gpu --threads 16 -v --stats /tmp/gu_s.json -o /tmp/gu_o.tsv 2> /tmp/gu_e
				w=$(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.3f", e - s }')
				c=$(grep -o '"compute":[0-9.e+-]*' /tmp/gu_s.json | cut -d: -f2)
				[ "$bin" = "$B" ] && cp /tmp/gu_o.tsv /tmp/gu_ref.tsv && same=ref || { cmp -s /tmp/gu_o.tsv /tmp/gu_ref.tsv && same=same || { same=DIFFERS; rc=1; }; }
				echo "--- $j | $([ "$bin" = "$B" ] && echo base || echo new) rep $rep: wall $w s compute $c s ($same)"
				grep -E "reads on the device|gpu batch of [0-9]+: arena|stages" /tmp/gu_e | head -4 | cut -c1-230
			done; done
		done 2>&1 | tee "$OUT/gpuup.txt" ;;
	autoprobe)   # issue 60's misses: each forced backend's -v stage lines and --stats on hamming 20k x 3 kb
		# --max-dist 5 and lcs 10k x 1 kb --seq --path
		./build-gpu/tests/rkt_genaln 20000 3000 1 1 > /tmp/ap_h.fa
		./build-gpu/tests/rkt_genpairs 10000 1000 5 3 /tmp/ap_a.fa /tmp/ap_b.fa > /dev/null
		for j in "hamming /tmp/ap_h.fa --max-dist 5" "lcs /tmp/ap_a.fa /tmp/ap_b.fa --seq --path" "lev /tmp/ap_a.fa /tmp/ap_b.fa --path" "lev /tmp/ap_a.fa /tmp/ap_b.fa"; do
			for be in cpu gpu; do for th in ${AP_THREADS:-16 4}; do
				rm -f /tmp/ap_o; s=$(date +%s.%N)
				./build-gpu/rktlcs $j --backend $be --threads $th -v --stats /tmp/ap_s.json -o /tmp/ap_o 2> /tmp/ap_err
				echo "--- $j $be $th threads: $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.3f", e - s }') s"
				grep -E "stages|blocks|gpu batch of" /tmp/ap_err | tail -4
			done; done
		done 2>&1 | tee "$OUT/autoprobe.txt" ;;
	ranks) bash jobs/bench-ranks.sh build-gpu "${RANKS_JOBS:-rkt ham20k ham100k levlong levbatch levall lcsbatch}" "${RANKS_NP:-1 2 4 8 16 32}" "$OUT/ranks" 2>&1 \
		| tail -${RANKS_TAIL:-120} || rc=1 ;;
	rkthy)   # issue 57's Rkt-LCS gain: HY_N x 51 bp reads (200k), k 10 t 1000 tau 15, --backend gpu at np 1
		# against auto (the GPU's reads shared by claims with the CPU threads) at np HY_NP; wall, -v's claims, outputs compared
		./build-gpu/tests/rkt_genreads "${HY_N:-200000}" 51 1 > /tmp/hy.fa; rm -f /tmp/hy_ref.tsv /tmp/hy_refc.tsv
		for rep in $(seq "${HY_REPS:-1}"); do for run in ${HY_RUNS:-"1:gpu" "1:auto" "16:auto"}; do
			np=${run%%:*} be=${run#*:}; rm -f /tmp/hy_o.tsv /tmp/hy_c.tsv; s=$(date +%s.%N)
			mpirun -np $np --oversubscribe --bind-to none ./build-gpu/rktlcs /tmp/hy.fa -k 10 -t 1000 -tau 15 --backend $be -v \
				--candidates /tmp/hy_c.tsv -o /tmp/hy_o.tsv 2> /tmp/hy_e
			w=$(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.3f", e - s }')
			[ -e /tmp/hy_ref.tsv ] || { cp /tmp/hy_o.tsv /tmp/hy_ref.tsv; cp /tmp/hy_c.tsv /tmp/hy_refc.tsv; }
			cmp -s /tmp/hy_o.tsv /tmp/hy_ref.tsv && cmp -s /tmp/hy_c.tsv /tmp/hy_refc.tsv && same=same || { same=DIFFERS; rc=1; }
			echo "--- ${HY_N:-200000} reads np $np $be rep $rep: mpirun $w s ($same)"
			grep -E "claims|stages|ranks:" /tmp/hy_e | cut -c1-240
		done; done 2>&1 | tee "$OUT/rkthy.txt" ;;
	ranksrep)   # issue 57's lev miss: 1M x 150 bp 5% --path at np 1 and RREP_NP, REPS each, -v's stage lines
		./build-gpu/tests/rkt_genpairs 1000000 150 5 1 /tmp/rr_a.fa /tmp/rr_b.fa > /dev/null
		for rep in 1 2 3; do for np in 1 ${RREP_NP:-16}; do
			rm -f /tmp/rr_o.tsv; s=$(date +%s.%N)
			mpirun -np $np --oversubscribe --bind-to none ./build-gpu/rktlcs lev /tmp/rr_a.fa /tmp/rr_b.fa --path -v -o /tmp/rr_o.tsv 2> /tmp/rr_e
			echo "--- np $np rep $rep: mpirun $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.3f", e - s }') s"
			grep -E "stages|job starts|auto on rank 0" /tmp/rr_e
		done; done 2>&1 | tee "$OUT/ranksrep.txt" ;;
	calibcheck)   # calibrate's time and start_s on the host, then on the emulated machine (as calibemu) with
		# its -v log, and auto on its rates against both forced backends on the two jobs it missed at 322396e (2 runs each)
		export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
		mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY
		s=$(date +%s.%N); ./build-gpu/rktlcs calibrate --rates /tmp/cc_host.json -v 2> "$OUT/cc_host.log"
		echo "host calibrate: $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }') s"; grep -E 'table.s speed|start' "$OUT/cc_host.log" | cut -c 1-120
		nvidia-cuda-mps-control -d && echo "set_default_active_thread_percentage ${EMU_SM_PCT:-25}" | nvidia-cuda-mps-control
		./build-gpu/rktlcs --version > /dev/null 2>&1
		s=$(date +%s.%N); taskset -c 0-3 ./build-gpu/rktlcs calibrate --threads 4 --rates /tmp/cc_emu.json -v 2> "$OUT/cc_emu.log"
		echo "emulated calibrate: $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }') s"; grep -E 'table.s speed|start' "$OUT/cc_emu.log" | cut -c 1-120
		./build-gpu/tests/rkt_genpairs 1 200000 -1 4 /tmp/cc_la.fa /tmp/cc_lb.fa > /dev/null
		for j in "lev /tmp/cc_la.fa /tmp/cc_lb.fa" "rkt .deps/data/paper-reads/1k.fasta -k 2 -t 5 -tau 12"; do
			for v in "cpu|builtin" "gpu|builtin" "auto|/tmp/cc_emu.json" "cpu|builtin" "gpu|builtin" "auto|/tmp/cc_emu.json"; do
				IFS='|' read -r be rt <<< "$v"; rm -f /tmp/cc_o; s=$(date +%s.%N)
				RKTLCS_RATES=$rt taskset -c 0-3 ./build-gpu/rktlcs $j --backend $be --threads 4 -v -o /tmp/cc_o 2> /tmp/cc_e
				echo "$j $be: $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.3f", e - s }') s $(grep -o 'auto on rank 0.*' /tmp/cc_e)"
			done
		done 2>&1 | tee "$OUT/calibcheck.txt"
		echo quit | nvidia-cuda-mps-control ;;
	calib) KEEP=$OUT/calib jobs/bench-calibrate.sh build-gpu .deps/data "${CALIB_REPS:-1}" 2>&1 | tee "$OUT/calib.txt" || rc=1 ;;
	gz) bash jobs/bench-gz.sh build-gpu 16 2 2>&1 | tee "$OUT/gz.txt" || rc=1 ;;
	gzprobe)   # where lev --all's BGZF output spends its wall: -v's block line, plain against .gz
		./build-gpu/tests/rkt_genpairs 3000 150 -1 8 /tmp/gp_a.fa /tmp/gp_b.fa > /dev/null
		for v in "plain|o.tsv|" "gz|o.tsv.gz|" "gz passive|o.tsv.gz|OMP_WAIT_POLICY=passive" "plain passive|o.tsv|OMP_WAIT_POLICY=passive"; do
			IFS='|' read -r name o e <<< "$v"
			for rep in 1 2; do
				env $e /usr/bin/time -f "%e s wall %U user %S sys" ./build-gpu/rktlcs lev --all /tmp/gp_a.fa --backend cpu --threads 16 \
					-v -o /tmp/gp_$o 2> /tmp/gp_err
				echo "$name: $(tail -1 /tmp/gp_err) | $(grep -oE "of [0-9.]+ s: .*" /tmp/gp_err | tail -1)"
			done
		done 2>&1 | tee "$OUT/gzprobe.txt" ;;
	calibfirst)   # RKTLCS_CALIBRATE=auto on a close job (lev --all 3k reads, made short for the test)
		x=/tmp/cf; rm -rf $x; mkdir -p $x/xdg
		./build-gpu/tests/rkt_genpairs 3000 150 -1 8 $x/a.fa $x/b.fa > /dev/null
		./build-gpu/rktlcs lev --all $x/a.fa --backend cpu -q -o $x/ref.tsv
		s=$(date +%s.%N)
		RKTLCS_CALIBRATE=auto RKTLCS_CALIBRATE_MIN_S=0.1 XDG_CACHE_HOME=$x/xdg ./build-gpu/rktlcs lev --all $x/a.fa -v -o $x/o.tsv 2> $x/err1
		e=$(date +%s.%N)
		RKTLCS_CALIBRATE=auto RKTLCS_CALIBRATE_MIN_S=0.1 XDG_CACHE_HOME=$x/xdg ./build-gpu/rktlcs lev --all $x/a.fa -v -o $x/o2.tsv 2> $x/err2
		grep -E "calibrating|calibrate: wrote|auto's rates|auto on rank" $x/err1 | sed 's/^/  first: /'
		grep -E "calibrating|auto's rates|auto on rank" $x/err2 | sed 's/^/  second: /'
		f=$(ls $x/xdg/rktlcs/rates-*.json 2> /dev/null | head -1)
		if [ -n "$f" ] && grep -q "calibrating this machine first" $x/err1 && ! grep -q "calibrating" $x/err2 && grep -q "calibrated, " $x/err2 \
			&& cmp -s $x/ref.tsv $x/o.tsv && cmp -s $x/ref.tsv $x/o2.tsv; then
			echo "ok   first-use calibration: wrote $(basename "$f") in a job of $(awk -v a="$s" -v b="$e" 'BEGIN { printf "%.1f", b - a }') s; the next job reads it; outputs = cpu"
		else echo "FAIL first-use calibration"; tail -5 $x/err1; rc=1; fi ;;
	calibemu)   # a machine unlike the reference: the GPU at EMU_SM_PCT% of its SMs (CUDA MPS's active
		# thread percentage, which the runtime reports as the SM count) and the CPU at EMU_CPUS cores (taskset)
		export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
		mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY
		if ! nvidia-cuda-mps-control -d; then echo "FAIL no MPS daemon"; rc=1; continue; fi
		echo "set_default_active_thread_percentage ${EMU_SM_PCT:-25}" | nvidia-cuda-mps-control
		printf '#include <cstdio>\nint main(){int n=0;cudaDeviceGetAttribute(&n,cudaDevAttrMultiProcessorCount,0);printf("SMs seen: %%d\\n",n);}\n' > /tmp/sms.cu
		nvcc -o /tmp/sms /tmp/sms.cu > /dev/null 2>&1 && /tmp/sms
		cpus=$(( ${EMU_CPUS:-4} - 1 ))
		KEEP=$OUT/calibemu taskset -c 0-$cpus bash jobs/bench-calibrate.sh build-gpu .deps/data "${CALIB_REPS:-1}" "${EMU_CPUS:-4}" 2>&1 | tee "$OUT/calibemu.txt" || rc=1
		echo quit | nvidia-cuda-mps-control ;;
	lib) (cd build-gpu && ctest -R cli_lib -V > "$OUT/ctest-lib.log" 2>&1); r=$?
		grep -E '^[0-9]+: (ok|FAIL)|passed|failed|SKIP' "$OUT/ctest-lib.log" | sed 's/^[0-9]*: //'; [ $r -eq 0 ] || rc=1 ;;
	levbatch) jobs/bench-lev-batch.sh build-gpu 16 "${LEVBATCH_PAIRS:-1000000}" 3 2>&1 | tee "$OUT/levbatch.txt" || rc=1 ;;
	unit) ./build-gpu/tests/test_gpu ${UNIT_SETS:-520} 2>&1 | tail -25 || rc=1 ;;
	gpu) (cd build-gpu && ctest -L gpu -E gpu_stress -V > "$OUT/ctest-gpu.log" 2>&1); r=$?
		grep -E '^[0-9]+: (ok|FAIL)|passed|failed|SKIP' "$OUT/ctest-gpu.log" | sed 's/^[0-9]*: //' | tail -60; [ $r -eq 0 ] || rc=1 ;;
	sanitize)
		# every kernel under memcheck, racecheck, initcheck and synccheck: rkt support + candidates
		# (a device-memory cap forces several launches and chunks), hamming matrix and --max-dist
		head -400 .deps/data/paper-reads/1k.fasta > /tmp/s200.fa
		./build-gpu/rktlcs /tmp/s200.fa -k 3 -t 5 -tau 12 --backend cpu --candidates /tmp/san_c_ref.tsv -o /tmp/san_ref.tsv -q
		head -12 .deps/data/mers46_parsnp_core.fasta | cut -c1-3000 > /tmp/san_h.fa
		./build-gpu/rktlcs hamming /tmp/san_h.fa --backend cpu -q -o /tmp/san_h_ref.tsv
		./build-gpu/rktlcs hamming /tmp/san_h.fa --max-dist 20 --backend cpu -q -o /tmp/san_hp_ref.tsv
		# lev --all with every pair on the device (dpg_all.cu: tiles forced small by a device-memory
		# limit) and lev/lcs batches through the pair pipeline (a helper thread computes block k
		# while block k-1 is formatted): 300 mixed reads with a 5% copy each, 150k pairs of 150 bp (two blocks)
		./build-gpu/tests/rkt_genpairs 150 150 5 11 /tmp/san_la1.fa /tmp/san_la2.fa > /dev/null && cat /tmp/san_la1.fa /tmp/san_la2.fa > /tmp/san_la.fa
		./build-gpu/tests/rkt_genpairs 150000 150 5 12 /tmp/san_pa.fa /tmp/san_pb.fa > /dev/null
		RKTLCS_ALL_NOFILTER=1 ./build-gpu/rktlcs lev --all /tmp/san_la.fa --max-dist 12 --backend cpu -q -o /tmp/san_la_ref.tsv
		./build-gpu/rktlcs lev /tmp/san_pa.fa /tmp/san_pb.fa --backend cpu -q -o /tmp/san_lp_ref.tsv
		for tool in ${SAN_TOOLS:-memcheck racecheck initcheck synccheck}; do
			for w in ${SAN_WORK:-rkt rktonce rktipc ham hampairs}; do
				pre=() bin=./build-gpu/rktlcs
				case $w in
				rktrows) bin=./build-gpu/tests/test_gpu; pre=(env TEST_GPU_ROWS_ONLY=1)   # reads claimed by the GPU beside a CPU worker (rkt_hybrid.c), checked by the test itself
					args=(${SAN_ROWS_SETS:-6} 7 0); ref=; got= ;;
				rktipc) pre=(mpirun --oversubscribe -np 2 -x LD_LIBRARY_PATH -x RKTLCS_GPU_RANKS=all)  # walk-once shares summed between the devices
					args=(/tmp/s200.fa -k 3 -t 5 -tau 12 --backend gpu --candidates /tmp/san_c.tsv -o /tmp/san.tsv -q); ref=/tmp/san_c_ref.tsv; got=/tmp/san_c.tsv ;;
				rkt) args=(/tmp/s200.fa -k 3 -t 5 -tau 12 --backend gpu --device-memory 2M --candidates /tmp/san_c.tsv -o /tmp/san.tsv -q); ref=/tmp/san_c_ref.tsv; got=/tmp/san_c.tsv ;;
				rktonce) args=(/tmp/s200.fa -k 3 -t 5 -tau 12 --backend gpu --candidates /tmp/san_c.tsv -o /tmp/san.tsv -q); ref=/tmp/san_c_ref.tsv; got=/tmp/san_c.tsv ;;
				ham) args=(hamming /tmp/san_h.fa --backend gpu -q -o /tmp/san_h.tsv); ref=/tmp/san_h_ref.tsv; got=/tmp/san_h.tsv ;;
				hampairs) args=(hamming /tmp/san_h.fa --max-dist 20 --backend gpu -q -o /tmp/san_hp.tsv); ref=/tmp/san_hp_ref.tsv; got=/tmp/san_hp.tsv ;;
				levall) pre=(env RKTLCS_ALL_NOFILTER=1)
					args=(lev --all /tmp/san_la.fa --max-dist 12 --backend gpu --device-memory 2M -q -o /tmp/san_la.tsv); ref=/tmp/san_la_ref.tsv; got=/tmp/san_la.tsv ;;
				levpairs) args=(lev /tmp/san_pa.fa /tmp/san_pb.fa --backend gpu -q -o /tmp/san_lp.tsv); ref=/tmp/san_lp_ref.tsv; got=/tmp/san_lp.tsv ;;
				esac
				[ -z "$got" ] || rm -f "$got"
				sl=${SAN_LOGDIR:-$OUT}/sanitize-$tool-$w.log
				mkdir -p "$(dirname "$sl")"
				# initcheck cannot see another process initialise the memory a rank maps through CUDA
				# IPC (each rank's own initcheck covers its memset and kernels): API copies unchecked
				extra=(); [ "${pre:-}" = mpirun ] && [ $tool = initcheck ] && extra=(--check-api-memory-access no)
				"${pre[@]}" compute-sanitizer --tool $tool "${extra[@]}" --error-exitcode 9 --log-file "$sl$([ "${pre:-}" = mpirun ] && echo .%p)" "$bin" "${args[@]}"
				r=$?
				[ "${pre:-}" != mpirun ] || cat "$sl".* > "$sl" 2>/dev/null
				sum=$(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$sl" | head -2 | tr '\n' ' ')
				[ $r -eq 0 ] || cp "$sl" "$OUT/" 2>/dev/null
				if [ -z "$got" ]; then same="(checked by $(basename "$bin"))"
				else cmp -s "$ref" "$got" && same="output = cpu" || { same="OUTPUT DIFFERS"; rc=1; }; fi
				[ $r -eq 0 ] || rc=1
				printf 'sanitize %-9s %-8s exit %d  %s %s\n' $tool $w $r "$sum" "$same"
			done
		done ;;
	stress) bash tests/gpu_stress.sh ./build-gpu/rktlcs "$(command -v mpirun)" ./build-gpu/tests/rkt_genstress /tmp/stress \
			${STRESS_RKT:-520} ${STRESS_HAM:-64} ${STRESS_JOBS:-16} ${STRESS_SEED:-1} > "$OUT/stress.log" 2>&1 || rc=1; tail -14 "$OUT/stress.log" ;;
	stress-old)
		[ -x /tmp/old/build/rktlcs ] || { rm -rf /tmp/old && mkdir -p /tmp/old && cp -r CMakeLists.txt tests .deps/old/src /tmp/old/; } \
			&& cmake -S /tmp/old -B /tmp/old/build -DCMAKE_BUILD_TYPE=Release -DRKTLCS_CUDA=ON -DHTSLIB_ROOT="$R/usr" > "$OUT/build-old.log" 2>&1 \
			&& cmake --build /tmp/old/build -j16 --target rktlcs rkt_genstress >> "$OUT/build-old.log" 2>&1 || { echo "old build failed"; tail -5 "$OUT/build-old.log"; rc=1; continue; }
		bash tests/gpu_stress.sh /tmp/old/build/rktlcs "$(command -v mpirun)" /tmp/old/build/tests/rkt_genstress /tmp/stress-old \
			${STRESS_RKT:-520} 0 ${STRESS_JOBS:-16} > "$OUT/stress-old.log" 2>&1; tail -14 "$OUT/stress-old.log" ;;
	quick)
		for p in "1 1000 15" "3 1000 15" "10 1000 15" "1 100 30" "3 100 30" "10 100 30"; do
			set -- $p
			/usr/bin/time -f '%e s wall' ./build-gpu/rktlcs .deps/data/paper-reads/5k.fasta -k $1 -t $2 -tau $3 -o /tmp/q.tsv 2>&1 \
				| grep -oE 'kernels [0-9.]+ s|[0-9.]+ s wall' | tr '\n' ' '; echo " 5k k=$1 t=$2 tau=$3 len $(grep -v '^#' /tmp/q.tsv | sed -n 2p | cut -f4)"
		done ;;
	hamrandom) mkdir -p /tmp/thr && ./build-gpu/tests/test_ham random ./build-gpu/rktlcs /tmp/thr ${HAM_SETS:-200} 2>&1 | tail -5 || rc=1 ;;
	hambench) bash jobs/bench-ham-gpu.sh build-gpu ${HAM_N:-100000} 2>&1 | tee "$OUT/hambench.log" || rc=1 ;;
	bench) bash jobs/bench-rkt-gpu.sh build-gpu "${BENCH:-paper scale mplex}" 2> "$OUT/bench.err" | tee "$OUT/bench.log" || rc=1 ;;
	profile)  # one launch of a Rkt kernel under Nsight Compute (PROF_KERNEL: rg_support walks twice, rg_once once)
		f=${PROF_FILE:-/tmp/prof.fa}
		[ -n "${PROF_FILE:-}" ] || ./build-gpu/tests/rkt_genreads ${PROF_N:-100000} 51 1 > /tmp/prof.fa
		ncu --launch-count 1 --launch-skip ${PROF_SKIP:-0} --kernel-name regex:${PROF_KERNEL:-rg_support} --metrics ${NCU_METRICS:-sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__t_sector_hit_rate.pct,smsp__thread_inst_executed.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__sass_thread_inst_executed_op_integer_pred_on.sum,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active} \
			./build-gpu/rktlcs "$f" -k ${PROF_K:-3} -t 1000 -tau 15 --backend gpu -q -o /tmp/prof.tsv 2>&1 | grep -vE '^==PROF==|^\s*$' | tail -25 ;;
	dp) # GPU lev/lcs against the CPU (tests/test_gpu_dp.c) and the split pair on GPU ranks
		# the pipeline section (the long kernel under forced tunings) in a process of its own, one
		# line per comparison before it runs, so that a hang names its tuning
		TEST_GPU_DP_SECTIONS=pipeline TEST_GPU_DP_VERBOSE=1 timeout ${DP_TIMEOUT:-300} ./build-gpu/tests/test_gpu_dp ${DP_N:-2000} \
			> "$OUT/gpu_dp_pipeline.log" 2>&1 &
		pp=$!
		TEST_GPU_DP_SECTIONS=random,thresholds,wrap,slab,memory,bands,long,timings TEST_GPU_DP_VERBOSE=1 timeout ${DP_TIMEOUT:-300} \
			./build-gpu/tests/test_gpu_dp ${DP_N:-2000} > "$OUT/gpu_dp.log" 2>&1; r=$?
		wait $pp; r2=$?
		for f in gpu_dp_pipeline gpu_dp; do
			grep -E 'FAIL|SKIP|checks in|^   [a-z]' "$OUT/$f.log" | head -30
			[ "$f" = gpu_dp ] && x=$r || x=$r2
			echo "$f: exit $x$( [ $x -eq 124 ] && echo ", timed out after: $(grep '^   \[' "$OUT/$f.log" | tail -1)")"
		done
		[ $r -eq 0 ] && [ $r2 -eq 0 ] || rc=1
		timeout ${SPLIT_TIMEOUT:-240} bash tests/split.sh "$PWD/build-gpu/rktlcs" "$(command -v mpirun)" /tmp/gsplit ${SPLIT_BIG:-1000000} gpu \
			> "$OUT/gpu_split.log" 2>&1; r=$?
		grep -E 'FAIL|split \(' "$OUT/gpu_split.log" | head -20; echo "split.sh gpu: exit $r"; [ $r -eq 0 ] || rc=1 ;;
	dpsan) # the lev/lcs kernels under the four compute-sanitizer tools: test_gpu_dp at reduced sizes
		# (batch, long pipeline, bands, slabs, memory limits; every result against the CPU)
		# DPSAN_TOOLS: a subset of the tools; DPSAN_SECTIONS_<tool>: test_gpu_dp sections for one
		# tool (racecheck is the slowest by far: its multi-pass wrap section alone takes ~125 s on an H100)
		for tool in ${DPSAN_TOOLS:-memcheck racecheck initcheck synccheck}; do
			sl=${SAN_LOGDIR:-$OUT}/sanitize-$tool-dp.log
			mkdir -p "$(dirname "$sl")"
			sv=DPSAN_SECTIONS_$tool
			TEST_GPU_DP_SECTIONS=${!sv:-} TEST_GPU_DP_VERBOSE=1 timeout ${DPSAN_TIMEOUT:-330} compute-sanitizer --tool $tool \
				--error-exitcode 9 --print-limit 20 --log-file "$sl" ./build-gpu/tests/test_gpu_dp emu ${DPSAN_N:-20} > "$sl.out" 2>&1
			r=$?
			printf 'sanitize %-9s dp  exit %d  %s  %s\n' $tool $r "$(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$sl" | head -2 | tr '\n' ' ')" \
				"$(grep -E 'checks in|FAIL' "$sl.out" | head -3 | tr '\n' ' ')"
			[ $r -eq 124 ] && echo "   timed out after: $(grep '^   \[' "$sl.out" | tail -1)"
			[ $r -eq 0 ] || { rc=1; cp "$sl" "$sl.out" "$OUT/" 2>/dev/null; }
		done ;;
	dpbench) timeout ${DPBENCH_TIMEOUT:-240} ./build-gpu/tests/test_gpu_dp bench 2> "$OUT/dpbench.err" | tee "$OUT/dpbench.log" || rc=1 ;;
	dpprof) # the long lev/lcs kernel under Nsight Compute (one launch per case) and its SASS;
		# DPPROF: cases "MODE:LEN:RW" (MODE 0 lev, 1 lcs; RW 0: the driver's choice)
		command -v cuobjdump > /dev/null && cuobjdump -sass -fun dpg_long_kernel build-gpu/CMakeFiles/rk_gpu.dir/src/gpu/dpg_long_kernel.cu.o \
			> "$OUT/dpg_long.sass" 2>&1
		for c in ${DPPROF:-0:40000:0 0:1000000:0 1:1000000:0 0:10000000:0 1:10000000:0}; do
			IFS=: read -r m l w <<< "$c"
			ncu --launch-count 1 --kernel-name regex:dpg_long --section SpeedOfLight --section ComputeWorkloadAnalysis \
				--section InstructionStats --section WarpStateStats --section Occupancy --section SchedulerStats --section LaunchStats \
				./build-gpu/tests/test_gpu_dp one $m $l 0 0 $w > "$OUT/ncu-$m-$l-$w.txt" 2>&1
			echo "--- mode $m len $l rw $w"
			grep -E 'Duration|Executed Ipc A|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Achieved Active Warps|Registers Per|Block Size|Grid Size|Executed Instructions  |Stall|Theoretical Occ' "$OUT/ncu-$m-$l-$w.txt" | head -20
		done ;;
	gscale) # jobs/scale.sh over 1 and 2 GPUs (one rank each, GSCALE_THREADS host threads per rank):
		# Rkt-LCS on GSCALE_RKT synthetic reads (rkt_genreads N 51 3, k 3 t 1000 tau 15), hamming on
		# GSCALE_HAM x 30 kb (rkt_genaln, --max-dist 50); CSV in $OUT/scale (plots drawn at home)
		d=$OUT/scale; mkdir -p "$d"
		for n in ${GSCALE_RKT-200000}; do
			[ -s /tmp/r$n.fa ] || ./build-gpu/tests/rkt_genreads $n 51 3 > /tmp/r$n.fa
			RKTLCS=$PWD/build-gpu/rktlcs MODE=rkt INPUT=/tmp/r$n.fa LABEL=rkt-$n ARGS="-k 3 -t 1000 -tau 15" RANKS="${GSCALE_RANKS:-1 2}" \
				GPUS=1 THREADS=${GSCALE_THREADS:-16} OUTDIR=$d bash jobs/scale.sh || rc=1
		done
		for n in ${GSCALE_HAM-100000}; do
			[ -s /tmp/h$n.fa ] || ./build-gpu/tests/rkt_genaln $n 30000 1 1 > /tmp/h$n.fa
			RKTLCS=$PWD/build-gpu/rktlcs MODE=hamming INPUT=/tmp/h$n.fa LABEL=hamming-${n}x30k ARGS="--max-dist 50" RANKS="${GSCALE_RANKS:-1 2}" \
				GPUS=1 THREADS=${GSCALE_THREADS:-16} OUTDIR=$d bash jobs/scale.sh || rc=1
		done
		rm -f "$d"/out_*.tsv ;;
	splitbench) timeout ${SPLITBENCH_TIMEOUT:-400} bash jobs/bench-split.sh build-gpu ${SPLIT_LEN:-10000000} gpu "${SPLIT_NP:-2}" "$OUT/split" \
			2>&1 | tee "$OUT/splitbench.log" || rc=1
		rm -f "$OUT"/split/*.fa "$OUT"/split/*.tsv ;;
	readbench) bash jobs/bench-read.sh build-gpu 2>&1 | tail -20 | tee "$OUT/readbench.log" || rc=1 ;;
	*) echo "unknown stage $stage"; rc=1 ;;
	esac
done
exit $rc
