#!/bin/bash
# lev --all --max-dist D with its filter (exact segments, approximate pieces, or every pair, by
# the cost model, or forced) against every pair computed (RKTLCS_ALL_NOFILTER=1), rows byte for
# byte, for every D from 0 to 15: 3,000 real 72 bp reads (ERR127302) and generated sets made to
# break a filter: near-duplicates with 0 to 17 edits, homopolymers and short repeats, mixed
# lengths (1 to 200 bp), N's. The reference is computed once at D 15; the rows of a smaller D
# are its rows at distance <= D. Also under mpirun -np 2 (the split by sampled row costs).
set -u
cli=$1 mpiexec=$2 shared=$3 tmp=$4
mkdir -p "$tmp"
fail=0 pass=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# gen SEED KIND: FASTA on stdout. KIND dup: 250 random 72 bp reads, each with 0-6 copies
# carrying 0-17 edits (clustered or spread); low: homopolymers and di/trinucleotide repeats with
# edits, 30-120 bp; mixed: 1-200 bp, some copies, 1% N.
gen() {
	awk -v seed="$1" -v kind="$2" '
	function sym() { return substr("ACGTACGTACGTACGTACGTACGTN", int(rand() * (kind == "mixed" ? 25 : 24)) + 1, 1) }
	function rnd(l,   s, k) { s = ""; for (k = 0; k < l; k++) s = s sym(); return s }
	function low(l,   u, s) { u = substr("AAAAACACGCAGTTTGCA", int(rand() * 16) + 1, 1 + int(rand() * 3)); s = ""; while (length(s) < l) s = s u; return substr(s, 1, l) }
	function edit(s, e,   k, p, op, at, cl) {
		cl = rand() < 0.5; at = int(rand() * (length(s) + 1))
		for (k = 0; k < e; k++) {
			p = cl ? at + int(rand() * 7) - 3 : int(rand() * (length(s) + 1)); if (p < 0) p = 0; if (p > length(s)) p = length(s)
			op = int(rand() * 3)
			if (op == 0 && p < length(s)) s = substr(s, 1, p) sym() substr(s, p + 2)
			else if (op == 1) s = substr(s, 1, p) sym() substr(s, p + 1)
			else if (p < length(s)) s = substr(s, 1, p) substr(s, p + 2)
		}
		return s
	}
	BEGIN {
		srand(seed); n = 0
		for (b = 0; b < 250; b++) {
			if (kind == "dup") s = rnd(72)
			else if (kind == "low") s = rand() < 0.5 ? low(30 + int(rand() * 90)) : rnd(10) low(20 + int(rand() * 40)) rnd(10)
			else s = rnd(1 + int(rand() * 200))
			r[n++] = s
			for (c = int(rand() * (kind == "mixed" ? 3 : 7)); c > 0; c--) r[n++] = edit(s, int(rand() * 18))
		}
		for (i = n - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = r[i]; r[i] = r[j]; r[j] = t }
		for (i = 0; i < n; i++) printf(">r%d\n%s\n", i, r[i])
	}'
}

rows() { grep -v '^#' "$1"; }

# every D from 0 to 15; the sanitizer build checks memory, not every D: the forced plans' D
# (0, 5, 10, 15) and one between (358 s there with all sixteen)
Ds=$(seq 0 15)
[ -n "${RKTLCS_TEST_SANITIZE:-}" ] && Ds="0 3 5 10 15"
# check NAME FILE: every D 0..15 by the cost model, a few forced plans, and np 2 and 3
check() {
	local name=$1 in=$2 D plan
	RKTLCS_ALL_NOFILTER=1 "$cli" lev --all --max-dist 15 -q -o "$tmp/ref" "$in" || { fail=$((fail + 1)); echo "FAIL $name: the reference run"; return; }
	for D in $Ds; do
		rows "$tmp/ref" | awk -F'\t' -v D=$D 'NR == 1 || $5 <= D' > "$tmp/want"
		for plan in "" exact $((D / 2 + 1)) $((D / 2 + 3)); do
			[ -n "$plan" ] && [ $((D % 5)) -ne 0 ] && continue   # forced plans at D 0, 5, 10, 15
			RKTLCS_NEAR_PLAN=$plan "$cli" lev --all --max-dist $D -q -o "$tmp/got" "$in" 2> "$tmp/err"
			if rows "$tmp/got" | cmp -s - "$tmp/want"; then pass=$((pass + 1))
			else fail=$((fail + 1)); echo "FAIL $name D=$D plan '${plan:-auto}': $(rows "$tmp/got" | wc -l) rows, want $(wc -l < "$tmp/want")"; head -3 "$tmp/err"; fi
		done
	done
	# np 2 and 3: each rank builds one of the plans tried, and the one chosen is sent to the
	# others (at np 3 one rank builds none)
	local run np
	for run in 2:6 2:12 3:12 2:15; do
		np=${run%:*} D=${run#*:}
		rows "$tmp/ref" | awk -F'\t' -v D=$D 'NR == 1 || $5 <= D' > "$tmp/want"
		timeout 300 "$mpiexec" -np $np "$cli" lev --all --max-dist $D --threads 1 -q -o "$tmp/got" "$in"
		if rows "$tmp/got" | cmp -s - "$tmp/want"; then pass=$((pass + 1))
		else fail=$((fail + 1)); echo "FAIL $name D=$D np $np: $(rows "$tmp/got" | wc -l) rows, want $(wc -l < "$tmp/want")"; fi
	done
	echo "ok   $name: $(grep -c '^>' "$in") reads, $(rows "$tmp/ref" | tail -n +2 | wc -l) pairs within 15"
}

if [ -r "$shared/ERR127302_1_subset.fastq.gz" ]; then
	gzip -dc "$shared/ERR127302_1_subset.fastq.gz" | head -12000 | awk 'NR % 4 == 1 { print ">" substr($1, 2) } NR % 4 == 2' > "$tmp/err3k.fa"
	check "ERR127302 3,000 x 72 bp" "$tmp/err3k.fa"
else echo "SKIPPED: ERR127302 section: $shared not found (a checkout without ../shared/data; CI has it)"; fi
for kind in dup low mixed; do
	gen 7 $kind > "$tmp/$kind.fa"
	check "generated $kind" "$tmp/$kind.fa"
done
echo "near.sh: $pass passed, $fail failed"
[ $fail -eq 0 ]
