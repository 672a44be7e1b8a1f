#!/bin/bash
# Strong and weak scaling of any mode over MPI ranks (CPU) or GPUs (one rank per GPU).
# Runs the mode at each size with --stats, checks that every output equals the first run's
# (strong scaling: the output must not depend on the rank count), and writes
#   OUTDIR/scale.csv   mode,input,kind,ranks,gpus,threads,wall_s,compute_s,efficiency,mpirun_s,items,max_rss_mb
#                      (wall_s: in-process, --stats; mpirun_s: the whole mpirun; max_rss_mb: the largest
#                      rank's peak RSS; items: sequences of a weak point)
#   OUTDIR/scale.png, scale.svg   time and efficiency against ranks, with the ideal lines
# Works from any directory. Variables:
#   RKTLCS   the binary [rktlcs on PATH]          MODE    rkt, hamming, lev, lcs [rkt]
#   INPUT    input file(s) (strong scaling)       ARGS    the mode's options
#   RANKS    rank counts ["1 2"]                  GPUS    1: one rank per GPU, --backend gpu [0: CPU]
#   THREADS  threads per rank [CPU: 1; GPU: the tool's default, the node's cores over its ranks]
#   KIND    strong or weak [strong]
#   WEAK_GEN weak scaling: a command printing the input for N items, with {n} for N
#            (e.g. "rkt_genreads {n} 51 3"); WEAK_UNIT items per rank [10000]
#   WEAK_SCALE  linear: WEAK_UNIT x ranks items; sqrt: WEAK_UNIT x sqrt(ranks), the same pairs
#            per rank for the all-pairs modes [linear]. Weak efficiency is T1 / Tp times the
#            work per rank at p over that at 1, the work being items^2 (every mode here
#            compares all pairs; lev/lcs pairs are not studied weak)
#   LABEL    a name for the input in the CSV      OUTDIR  [scale-out]
#   MPIRUN   [mpirun --oversubscribe --bind-to none]   T1  wall of the first point, from an earlier run
#   WEAK_DIR where weak inputs are written and kept [OUTDIR]
#   NGPU     the node's GPUs [nvidia-smi -L]: ranks beyond them share them, and the strong
#            efficiency counts GPUs, not ranks
set -uo pipefail
RKTLCS=${RKTLCS:-$(command -v rktlcs || true)}
[ -x "$RKTLCS" ] || [ -n "${PLOT_ONLY:-}" ] || { echo "set RKTLCS=/path/to/rktlcs" >&2; exit 1; }
MODE=${MODE:-rkt} RANKS=${RANKS:-1 2} GPUS=${GPUS:-0} THREADS=${THREADS:-} KIND=${KIND:-strong}
OUTDIR=${OUTDIR:-scale-out} MPIRUN=${MPIRUN:-mpirun --oversubscribe --bind-to none}
mkdir -p "$OUTDIR"
csv=$OUTDIR/scale.csv
[ -s "$csv" ] || echo "mode,input,kind,ranks,gpus,threads,wall_s,compute_s,efficiency,mpirun_s,items,max_rss_mb" > "$csv"
backend=cpu; [ "$GPUS" = 1 ] && backend=gpu
ngpu=${NGPU:-$(nvidia-smi -L 2> /dev/null | grep -c '^GPU')}; [ "$ngpu" -gt 0 ] 2> /dev/null || ngpu=1
[ -n "$THREADS" ] || [ "$GPUS" = 1 ] || THREADS=1
t1=${T1:-}   # T1: the first point's wall from an earlier run, to go on with a study in pieces
ref=""
# PLOT_ONLY=1: only draw OUTDIR/scale.png / .svg from OUTDIR/scale.csv (e.g. one copied back from
# a GPU host without gnuplot)
[ -n "${PLOT_ONLY:-}" ] && RANKS=""
for p in $RANKS; do
	in=${INPUT:-}
	if [ "$KIND" = weak ]; then
		n=$(( ${WEAK_UNIT:-10000} * p ))
		[ "${WEAK_SCALE:-linear}" = sqrt ] && n=$(awk -v u="${WEAK_UNIT:-10000}" -v p="$p" 'BEGIN { printf "%d", u * sqrt(p) + 0.5 }')
		in=${WEAK_DIR:-$OUTDIR}/weak_$n.fa
		[ -s "$in" ] || eval "${WEAK_GEN//\{n\}/$n}" > "$in"
	fi
	[ -n "$in" ] || { echo "set INPUT (or KIND=weak with WEAK_GEN)" >&2; exit 1; }
	# shellcheck disable=SC2086  # INPUT, ARGS and MPIRUN are lists of words
	s0=$(date +%s.%N)
	$MPIRUN -np "$p" "$RKTLCS" $MODE $in ${ARGS:-} --backend $backend ${THREADS:+--threads "$THREADS"} -q \
		--stats "$OUTDIR/stats_$p.json" -o "$OUTDIR/out_$p.tsv" || { echo "the run on $p ranks failed" >&2; exit 1; }
	mp=$(awk -v a="$s0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
	rss=$(grep -o '"rank_peak_rss_mb":\[[^]]*' "$OUTDIR/stats_$p.json" | sed 's/.*\[//' | tr ',' '\n' | sort -g | tail -1)
	wall=$(grep -o '"wall":[0-9.e+-]*' "$OUTDIR/stats_$p.json" | cut -d: -f2)
	comp=$(grep -o '"compute":[0-9.e+-]*' "$OUTDIR/stats_$p.json" | cut -d: -f2)
	if [ "$KIND" = strong ]; then
		if [ -z "$ref" ]; then ref=$OUTDIR/out_$p.tsv
		else cmp -s "$ref" "$OUTDIR/out_$p.tsv" || { echo "the output on $p ranks differs from the first run's" >&2; exit 1; }; fi
	fi
	[ -n "$t1" ] || t1=$wall
	# GPUs at work: one per rank up to the node's count (more ranks share them); the strong
	# efficiency is per GPU there, per rank on CPUs
	gp=0 res=$p
	[ "$GPUS" = 1 ] && { gp=$(( p < ngpu ? p : ngpu )); res=$gp; }
	n1=${n1:-${N1:-${n:-1}}}   # N1: the first point's items, with T1
	eff=$(awk -v t1="$t1" -v tp="$wall" -v r="$res" -v k="$KIND" -v n="${n:-1}" -v n1="$n1" \
		'BEGIN { printf "%.3f", k == "strong" ? t1 / (r * tp) : t1 / tp * (n / n1) ^ 2 / r }')
	label=${LABEL:-$(basename "${in%% *}")}
	[ "$KIND" = weak ] && label=${LABEL:-${WEAK_UNIT:-10000}-per-rank}
	echo "$MODE,$label,$KIND,$p,$gp,${THREADS:-default},$wall,$comp,$eff,$mp,${n:-},${rss:-}" | tee -a "$csv"
done
# plots: one line per (mode, input, kind, backend) series of the CSV
if command -v gnuplot > /dev/null; then
	awk -F, 'NR > 1 { key = $1 " " $2 " " $3 ($5 > 0 ? " gpu" : " cpu"); print key > "'"$OUTDIR"'/series_" gensub(/[^A-Za-z0-9_.-]/, "_", "g", key) ".dat"; print $4, $7, $9 >> "'"$OUTDIR"'/series_" gensub(/[^A-Za-z0-9_.-]/, "_", "g", key) ".dat" }' "$csv" 2> /dev/null
	for term in "pngcairo size 1100,450" "svg size 1100,450"; do
		ext=png; [[ $term == svg* ]] && ext=svg
		files=$(ls "$OUTDIR"/series_*.dat 2>/dev/null)
		[ -n "$files" ] || break
		{
			echo "set terminal $term noenhanced; set output '$OUTDIR/scale.$ext'; set multiplot layout 1,2"
			echo "set key top right font ',9'; set grid; set xlabel 'ranks (GPUs)'; set logscale xy 2; set ylabel 'wall time (s)'"
			echo "set title 'time (dashed: ideal; strong T1/p, weak T1)'"
			plot="plot "
			for f in $files; do
				t=$(head -1 "$f"); t1f=$(sed -n 2p "$f" | awk '{ print $2 * $1 }')
				case $t in *" weak "*) ideal="$t1f" ;; *) ideal="$t1f / x" ;; esac
				plot+="'$f' every ::1 using 1:2 with linespoints title '$t', $ideal with lines dt 2 notitle, "
			done
			echo "${plot%, }"
			echo "unset logscale y; set logscale x 2; set yrange [0:1.2]; set ylabel 'parallel efficiency'; set title 'efficiency (ideal = 1)'"
			plot="plot 1 with lines dt 2 lc 'black' title 'ideal', "
			for f in $files; do plot+="'$f' every ::1 using 1:3 with linespoints title '$(head -1 "$f")', "; done
			echo "${plot%, }"
			echo "unset multiplot"
		} | gnuplot 2> "$OUTDIR/gnuplot.log" || echo "gnuplot failed: $(tail -2 "$OUTDIR/gnuplot.log")" >&2
	done
	rm -f "$OUTDIR"/series_*.dat
	ls "$OUTDIR"/scale.png "$OUTDIR"/scale.svg 2>/dev/null
fi
