#!/bin/bash
# auto on a host whose cores other work keeps busy (issue 29): each job with --backend cpu, gpu,
# auto with the probe of the CPU's threads off (RKTLCS_PROBE=0, the baseline: auto before
# src/mpi/plan/probe.c) and auto as built, under L busy processes, one per load level given.
#   jobs/bench-load.sh BUILD_DIR [LOADS] [RUNS]     e.g. jobs/bench-load.sh build "0 8 16 32" 3
# BUILD_DIR holds rktlcs and tests/rkt_genpairs. Whole-process wall, median of RUNS (in turn);
# "pick" is auto's choice, "share" what the probe measures (-v, RKTLCS_PROBE=1), "x" auto's wall over the faster
# of cpu and gpu. Every output is compared with the CPU's. Needs a GPU for the gpu column.
set -u
build=${1:?usage: jobs/bench-load.sh BUILD_DIR [LOADS] [RUNS]}
loads=${2:-"0 8 16 32"}
runs=${3:-3}
R=$build/rktlcs G=$build/tests/rkt_genpairs O=${4:-}
base() { if [ -n "$O" ]; then "$@"; else RKTLCS_PROBE=0 "$@"; fi; }
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null; rm -rf "$tmp"' EXIT
$G 1 10000000 1 7 "$tmp/a10.fa" "$tmp/b10.fa" > /dev/null
$G 1 1000000 1 4 "$tmp/a1.fa" "$tmp/b1.fa" > /dev/null
$G 1 100000 1 5 "$tmp/a01.fa" "$tmp/b01.fa" > /dev/null
$G 1000000 150 5 3 "$tmp/sa.fa" "$tmp/sb.fa" > /dev/null
wall() {   # wall of one run, output to $1
	local o=$1; shift; rm -f "$o"
	local t0 t1; t0=$(date +%s.%N); timeout 120 "$@" -o "$o" > /dev/null 2> "$tmp/err"; local rc=$?; t1=$(date +%s.%N)
	[ $rc = 0 ] && awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' || echo fail
}
ratio() { awk -v a="$1" -v g="$2" -v c="$3" 'BEGIN { m = g < c ? g : c; if (a == "fail" || m <= 0) print "-"; else printf "%.2f", a / m }'; }
med() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
row() {
	local lab=$1 load=$2; shift 2
	[ -n "${ROWS:-}" ] && ! grep -qE "$ROWS" <<< "$lab" && return
	local c=() g=() a=() oc=() oa=() ob=${O:-$R}
	for i in $(seq "$runs"); do
		c+=($(wall "$tmp/o.cpu" $R "$@" --backend cpu)); g+=($(wall "$tmp/o.gpu" $R "$@" --backend gpu))
		a+=($(wall "$tmp/o.a" $R "$@"))
		oc+=($(base wall "$tmp/o.oc" $ob "$@" --backend cpu)); oa+=($(base wall "$tmp/o.oa" $ob "$@"))
	done
	rm -f "$tmp/o.v"; $R "$@" -v -o "$tmp/o.v" > /dev/null 2> "$tmp/v"
	rm -f "$tmp/o.v"; RKTLCS_PROBE=1 $R "$@" -v -o "$tmp/o.v" > /dev/null 2> "$tmp/v1"
	local pick share same=yes
	pick=$(grep -oE 'cpu [^:]*: the [A-Z]+' "$tmp/v" | grep -oE '[A-Z]+$' | tail -1)
	share=$(grep -oE 'given [0-9.]+ of the wall' "$tmp/v1" | grep -oE '[0-9.]+' | head -1)
	for o in gpu a oc oa; do cmp -s <(grep -v '^#' "$tmp/o.cpu") <(grep -v '^#' "$tmp/o.$o") || same=NO; done
	local mc mg ma moc moa; mc=$(printf '%s\n' "${c[@]}" | med); mg=$(printf '%s\n' "${g[@]}" | med)
	ma=$(printf '%s\n' "${a[@]}" | med); moc=$(printf '%s\n' "${oc[@]}" | med); moa=$(printf '%s\n' "${oa[@]}" | med)
	printf '%-24s %4s %7s %7s %7s %7s %7s %5s %5s %5s %5s %s\n' "$lab" "$load" "$mc" "$mg" "$ma" "$moc" "$moa" "${pick:--}" "${share:--}" \
		"$(ratio "$ma" "$mg" "$mc")" "$(ratio "$moa" "$mg" "$moc")" $same
}
printf '%-24s %4s %7s %7s %7s %7s %7s %5s %5s %5s %5s %s\n' job load cpu gpu auto "old cpu" "old auto" pick share x ox same
for L in $loads; do
	pids=()
	for i in $(seq "$L"); do (while :; do :; done) & pids+=($!); done
	sleep 1
	row "lev 10 Mb pair at 1%" "$L" lev "$tmp/a10.fa" "$tmp/b10.fa"
	row "lcs 10 Mb pair at 1%" "$L" lcs "$tmp/a10.fa" "$tmp/b10.fa"
	row "lev 1 Mb pair at 1%" "$L" lev "$tmp/a1.fa" "$tmp/b1.fa"
	row "lcs 1 Mb pair at 1%" "$L" lcs "$tmp/a1.fa" "$tmp/b1.fa"
	row "lev 100 kb pair at 1%" "$L" lev "$tmp/a01.fa" "$tmp/b01.fa"
	row "lev 1M pairs 150 bp 5%" "$L" lev "$tmp/sa.fa" "$tmp/sb.fa"
	row "lcs 1M pairs 150 bp 5%" "$L" lcs "$tmp/sa.fa" "$tmp/sb.fa"
	[ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2> /dev/null; wait "${pids[@]}" 2> /dev/null
done
