#!/bin/bash
# One huge pair split across ranks (docs/lev.md, "One pair on many ranks"): a random pair of
# LEN bp (unrelated sequences: the hardest case, the path crosses every slab; DIV=P: B is A
# with P% point edits instead, where the ranks' plan takes fewer ranks) under lev and
# lcs, distance / length alone and with --path, on 1 rank (the baseline: no split) and on each
# rank count of NP. Every output must equal the 1-rank one. Prints a table (wall of the whole
# mpirun and the in-process wall from --stats, speed-up over 1 rank), a per-rank table (slab
# rows, the pipelines to the middle row and from the cut: busy / fill, path piece), and writes
#   OUTDIR/split.csv        mode,len,backend,ranks,wall_s,inproc_s,speedup
#   OUTDIR/split_ranks.csv  mode,ranks,rank,rows,meet_busy,meet_fill,meet_wall,sub_busy,sub_fill,sub_wall,trace
#   OUTDIR/split.png        per-rank time bars: fill (waiting), busy, the rest (with gnuplot)
# BACKEND gpu: one rank per GPU by node-local rank (ranks > GPUs share them); cpu: THREADS each.
# Usage: jobs/bench-split.sh BUILD_DIR [LEN=10000000] [BACKEND=gpu] [NP="2"] [OUTDIR=split-out]
#        env MODES ["lev lcs"], PATHS ["0 1"], THREADS [1], REPS [1: runs of each, the median reported], DIV [-1],
#        MPIRUN [mpirun --oversubscribe --bind-to none]
set -uo pipefail
build=${1:-build} len=${2:-10000000} backend=${3:-gpu} nps=${4:-2} out=${5:-split-out}
cli=$build/rktlcs gen=$build/tests/rkt_genpairs
MODES=${MODES:-lev lcs} PATHS=${PATHS:-0 1} THREADS=${THREADS:-1} REPS=${REPS:-1}
MPIRUN=${MPIRUN:-mpirun --oversubscribe --bind-to none}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"
plot() {  # one bar per (run, rank): to the middle fill, busy; from the cut fill, busy; path piece
	command -v gnuplot > /dev/null && [ "$(wc -l < "$out/split_ranks.csv")" -gt 1 ] || return 0
	awk -F, 'NR > 1 { printf "\"%s np%s r%s\" %s %s %s %s %s\n", $1, $2, $3, $6, $5, $9, $8, $11 }' "$out/split_ranks.csv" > "$out/split_ranks.dat"
	gnuplot <<-EOF
	set terminal pngcairo size 1100,520 noenhanced
	set output "$out/split.png"
	set title "One pair split across ranks: where each rank's time goes"
	set style data histograms
	set style histogram rowstacked
	set style fill solid 0.85 border -1
	set boxwidth 0.7
	set ylabel "seconds"
	set xtics rotate by -35 font ",8"
	set key outside right
	plot "$out/split_ranks.dat" using 2:xtic(1) title "to the middle: fill", '' using 3 title "to the middle: busy", \
	     '' using 4 title "from the cut: fill", '' using 5 title "from the cut: busy", '' using 6 title "path piece"
	EOF
	[ -s "$out/split.png" ] && echo "plot: $out/split.png"
}
# PLOT_ONLY=1: redraw OUTDIR/split.png from OUTDIR/split_ranks.csv (e.g. copied back from a GPU host without gnuplot)
[ -n "${PLOT_ONLY:-}" ] && { plot; exit 0; }
[ -x "$cli" ] && [ -x "$gen" ] || { echo "bench-split: no $cli or $gen" >&2; exit 1; }
DIV=${DIV:--1}
[ -s "$out/a.fa" ] && [ "$(cat "$out/len" 2> /dev/null)" = "$len $DIV" ] \
	|| { "$gen" 1 "$len" "$DIV" 7 "$out/a.fa" "$out/b.fa" && echo "$len $DIV" > "$out/len"; } || exit 1
echo "mode,len,backend,ranks,wall_s,inproc_s,speedup" > "$out/split.csv"
echo "mode,ranks,rank,rows,meet_busy,meet_fill,meet_wall,sub_busy,sub_fill,sub_wall,trace" > "$out/split_ranks.csv"
dev=$([ "$backend" = gpu ] && command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs)
printf '# %s; CPU %s x %s cores; backend %s, %s thread(s)/rank; B %s; load %s; commit %s\n' "${dev:-no GPU}" \
	"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$(nproc)" "$backend" "$THREADS" \
	"$([ "$DIV" = -1 ] && echo unrelated || echo "$DIV% edits of A")" "$(cut -d' ' -f1-3 /proc/loadavg)" \
	"${RKTLCS_COMMIT:-$(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null)}"
arr() { grep -o "\"$1\":\[[^]]*\]" "$2" | sed 's/.*\[//; s/\]//' | tr ',' ' '; }
rc=0
for m in $MODES; do
	for p in $PATHS; do
		extra=""; [ "$p" = 1 ] && extra="--path"
		[ "$p" = 1 ] && [ "$m" = lcs ] && extra="--path --seq"
		lab="$m${extra:+ $extra}"
		t1=""
		for np in 1 $nps; do
			st=$out/stats_${m}_${p}_$np.json o=$out/out_${m}_${p}_$np.tsv
			# REPS runs, the median's in-process and wall time (one H200 of two varies by a few %)
			runs="" r=0
			for ((q = 0; q < REPS && r == 0; q++)); do
				s0=$(date +%s.%N)
				# shellcheck disable=SC2086  # MPIRUN and extra are lists of words
				$MPIRUN -np "$np" "$cli" "$m" "$out/a.fa" "$out/b.fa" $extra --backend "$backend" --threads "$THREADS" -q \
					-o "$o" --stats "$st" 2> "$out/err_${m}_${p}_$np.log"
				r=$?
				[ $r -eq 0 ] && runs+="$(grep -o '"wall":[0-9.e+-]*' "$st" | cut -d: -f2) $(awk -v a="$s0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')"$'\n'
			done
			if [ $r -ne 0 ]; then echo "FAIL $lab np=$np: exit $r: $(head -c 300 "$out/err_${m}_${p}_$np.log")"; rc=1; continue; fi
			read -r inproc wall <<< "$(printf '%s' "$runs" | sort -g | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }')"
			[ -n "$t1" ] || t1=$inproc
			same="="; [ "$np" = 1 ] || cmp -s "$out/out_${m}_${p}_1.tsv" "$o" || { same="OUTPUT DIFFERS"; rc=1; }
			sp=$(awk -v a="$t1" -v b="$inproc" 'BEGIN { printf "%.2f", a / b }')
			printf '%-16s %4s bp  np=%d  wall %7.2f s  in-process %7.2f s  speed-up %5sx  %s\n' "$lab" "$len" "$np" "$wall" "$inproc" "$sp" "$same"
			echo "$lab,$len,$backend,$np,$wall,$inproc,$sp" >> "$out/split.csv"
			if grep -q '"split"' "$st"; then
				read -ra rows <<< "$(arr rows "$st")"; read -ra fb <<< "$(arr meet_busy "$st")"; read -ra ff <<< "$(arr meet_fill "$st")"
				read -ra fw <<< "$(arr meet_wall "$st")"; read -ra rb <<< "$(arr sub_busy "$st")"; read -ra rf <<< "$(arr sub_fill "$st")"
				read -ra rw <<< "$(arr sub_wall "$st")"; read -ra tr <<< "$(arr trace "$st")"; read -ra sa <<< "$(arr sample "$st")"
				for ((r = 0; r < np; r++)); do
					echo "$lab,$np,$r,${rows[r]},${fb[r]},${ff[r]},${fw[r]},${rb[r]},${rf[r]},${rw[r]},${tr[r]}" >> "$out/split_ranks.csv"
					printf '    rank %d: %9s rows  to the middle: busy %6.2f s fill %5.2f s of %6.2f s  from the cut: busy %6.2f s fill %5.2f s of %6.2f s  path piece %6.2f s  sample %5.2f s\n' \
						"$r" "${rows[r]}" "${fb[r]}" "${ff[r]}" "${fw[r]}" "${rb[r]}" "${rf[r]}" "${rw[r]}" "${tr[r]}" "${sa[r]:-0}"
				done
			fi
		done
	done
done
plot
exit $rc
