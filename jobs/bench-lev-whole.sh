#!/bin/bash
# lev batches as users run them (issue 58's whole-process target): N pairs of 150 bp from FASTA
# at 1, 5 and 15%, distance and CIGAR, each backend, best of REPS: the wall (direct, and under
# `mpirun -np 1` for the distances), the read and compute stages of --stats, and -v's block
# line (values, formatting). RKTLCS_HUGE=0 is the baseline in the same job (no huge pages
# asked for, the tree before); mpi_on is `mpirun -np 1` with MPI started all the same
# (RKTLCS_FORCE_MPI=1, the tree before 470ba62). LW_HUGE picks the huge-page settings. LW_BASE:
# a binary of the tree before, run beside each distance row in the same job, alternating
# (columns base and b_mpirun: its direct wall and `mpirun -np 1`). Prints one table.
# Usage: jobs/bench-lev-whole.sh [BUILD_DIR] [THREADS] [PAIRS] [REPS] [BACKENDS] [DIVERGENCES]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} th=${2:-$(nproc)} n=${3:-1000000} reps=${4:-3} bes=${5:-cpu gpu} divs=${6:-1 5 15}
cli=$build/rktlcs gen=$build/tests/rkt_genpairs
"$cli" --version | grep -q '^gpu: CUDA, [1-9]' || bes=cpu
export HWLOC_COMPONENTS=${HWLOC_COMPONENTS:--opencl}   # as the README tells GPU nodes
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '# CPU %s x %s, %s threads, best of %s; THP %s; commit %s\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" \
	"$(nproc)" "$th" "$reps" "$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)" "${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
printf '%-16s %-4s %-5s %-5s %7s %7s %7s %7s %7s %7s %7s %7s %8s\n' job be path huge wall read compute values format mpirun mpi_on base b_mpirun
one() {  # args...: one run; sets t rd co va fm
	rm -f "$tmp/o.tsv" "$tmp/s.json"
	local t0; t0=$(date +%s.%N)
	"$cli" lev "$tmp/a.fa" "$tmp/b.fa" "$@" --threads "$th" -v -o "$tmp/o.tsv" --stats "$tmp/s.json" 2> "$tmp/err" || { tail -2 "$tmp/err"; exit 1; }
	t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
	rd=$(grep -o '"read": *[0-9.e+-]*' "$tmp/s.json" | grep -o '[0-9.e+-]*$')
	co=$(grep -o '"compute": *[0-9.e+-]*' "$tmp/s.json" | grep -o '[0-9.e+-]*$')
	va=$(grep -oE '([0-9.]+) s (computing|waiting for) values' "$tmp/err" | head -1 | cut -d' ' -f1)
	fm=$(grep -oE '([0-9.]+) s formatting' "$tmp/err" | head -1 | cut -d' ' -f1)
}
for d in $divs; do
	"$gen" "$n" 150 "$d" 7 "$tmp/a.fa" "$tmp/b.fa" > /dev/null
	for be in $bes; do for path in "" --path; do for huge in ${LW_HUGE:-0 1}; do
		best=9e9 line=
		for r in $(seq "$reps"); do
			RKTLCS_HUGE=$huge one --backend "$be" $path
			awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }' && { best=$t; line=$(printf '%7.3f %7.3f %7.3f %7s %7s' "$t" "$rd" "$co" "${va:--}" "${fm:--}"); }
		done
		cp "$tmp/o.tsv" "$tmp/o.$huge"
		mp=- mf=- bw=- bm=-
		if [ -z "$path" ] && command -v mpirun > /dev/null; then
			mp=9e9 mf=9e9
			[ -n "${LW_BASE:-}" ] && bw=9e9 bm=9e9
			for r in $(seq "$reps"); do for force in 0 1 base basempi; do   # 1: MPI started in a world of one (the tree before)
				case $force in base*) [ -n "${LW_BASE:-}" ] || continue ;; esac
				rm -f "$tmp/o.tsv"; t0=$(date +%s.%N)
				case $force in
				base) RKTLCS_HUGE=$huge "$LW_BASE" lev "$tmp/a.fa" "$tmp/b.fa" --backend "$be" --threads "$th" -q -o "$tmp/o.tsv" || exit 1 ;;
				basempi) RKTLCS_HUGE=$huge mpirun -np 1 --bind-to none "$LW_BASE" lev "$tmp/a.fa" "$tmp/b.fa" --backend "$be" --threads "$th" -q -o "$tmp/o.tsv" || exit 1 ;;
				*) RKTLCS_HUGE=$huge mpirun -np 1 --bind-to none -x RKTLCS_FORCE_MPI=$([ $force = 1 ] && echo 1) "$cli" lev "$tmp/a.fa" "$tmp/b.fa" --backend "$be" --threads "$th" -q -o "$tmp/o.tsv" || exit 1 ;;
				esac
				t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
				cmp -s "$tmp/o.tsv" "$tmp/o.$huge" || echo "    MPIRUN OR BASE OUTPUT DIFFERS ($force)"
				case $force in
				1) awk -v t="$t" -v b="$mf" 'BEGIN { exit !(t < b) }' && mf=$t ;;
				0) awk -v t="$t" -v b="$mp" 'BEGIN { exit !(t < b) }' && mp=$t ;;
				base) awk -v t="$t" -v b="$bw" 'BEGIN { exit !(t < b) }' && bw=$t ;;
				basempi) awk -v t="$t" -v b="$bm" 'BEGIN { exit !(t < b) }' && bm=$t ;;
				esac
			done; done
		fi
		printf '%-16s %-4s %-5s %-5s %s %7s %7s %7s %8s\n' "${n}x150 $d%" "$be" "${path:+cigar}" "$huge" "$line" "$mp" "$mf" "$bw" "$bm"
		[ "$be" = gpu ] && grep -oE 'reads on the device: .*' "$tmp/err" | sed 's/^/    /'
	done
	[ ! -e "$tmp/o.0" ] || cmp -s "$tmp/o.0" "$tmp/o.1" || echo "    OUTPUTS DIFFER (huge 0 / 1)"
	if [ "$be" = cpu ]; then cp "$tmp/o.1" "$tmp/o.cpu${path}"
	elif [ ! -e "$tmp/o.cpu${path}" ]; then echo "    (no CPU run in this job to compare with)"
	else cmp -s "$tmp/o.1" "$tmp/o.cpu${path}" || echo "    CPU AND GPU OUTPUTS DIFFER"; fi
	done; done
done
