#!/bin/bash
# Known answers on the paper's reads, and the 1k reads against the brute force.
set -u
cli=$1 brute=$2 shared=$3 tmp=$4
mkdir -p "$tmp"
fail=0 pass=0
expect() {  # name, got, want
	if [ "$2" = "$3" ]; then pass=$((pass + 1)); echo "ok   $1: $2"; else fail=$((fail + 1)); echo "FAIL $1: got '$2' want '$3'"; fi
}
if [ ! -r "$shared/paper-reads/5k.fasta" ]; then
	echo "SKIPPED: the paper's 5k and 1k reads (known answers, the brute force): ../shared/data not found ($shared)"
else
# (the sanitizer build, which checks memory, keeps one 5k run: this one took it 17 s)
if [ -z "${RKTLCS_TEST_SANITIZE:-}" ]; then
r=$("$cli" "$shared/paper-reads/5k.fasta" -k 10 -t 100 -tau 30 -q | grep -v '^#' | sed -n 2p)
expect "5k k=10 t=100 tau=30 length" "$(echo "$r" | cut -f4)" 42
fi
r=$("$cli" "$shared/paper-reads/5k.fasta" -k 1 -t 1000 -tau 15 -q --candidates "$tmp/c.tsv" | grep -v '^#' | sed -n 2p)
expect "5k k=1 t=1000 tau=15 length" "$(echo "$r" | cut -f4)" 17
expect "5k k=1 t=1000 tau=15 adapter" "$(echo "$r" | cut -f6)" GAGATCGGAAGAGCACA
# "the longest candidates have length 17": every read at length 17 holds the adapter prefix
n17=$(grep -v '^#' "$tmp/c.tsv" | awk -F'\t' '$4 == 17' | wc -l)
nad=$(grep -v '^#' "$tmp/c.tsv" | awk -F'\t' '$4 == 17 && $6 ~ /GATCGGAAGAGC/' | wc -l)
expect "5k length-17 candidates are the adapter" "$nad" "$n17"
for p in "1 5 20" "3 20 25"; do
	set -- $p
	"$cli" "$shared/paper-reads/1k.fasta" -k $1 -t $2 -tau $3 --candidates "$tmp/cli_c.tsv" --occurrences -q | grep -v '^#' > "$tmp/cli.tsv"
	"$brute" "$shared/paper-reads/1k.fasta" -k $1 -t $2 -tau $3 --candidates "$tmp/bf_c.tsv" --occurrences > "$tmp/bf.tsv"
	grep -v '^#' "$tmp/cli_c.tsv" > "$tmp/cli_c2.tsv"
	if cmp -s "$tmp/cli.tsv" "$tmp/bf.tsv" && cmp -s "$tmp/cli_c2.tsv" "$tmp/bf_c.tsv"; then
		pass=$((pass + 1)); echo "ok   1k k=$1 t=$2 tau=$3 equals the brute force: $(sed -n 2p "$tmp/cli.tsv")"
	else fail=$((fail + 1)); echo "FAIL 1k k=$1 t=$2 tau=$3 differs from the brute force"; diff "$tmp/cli.tsv" "$tmp/bf.tsv" | head; fi
done
fi
# the README's sample job
sample=$(dirname "$0")/../data/sample/ERR127302_2k.fastq.gz
r=$("$cli" "$sample" -k 3 -t 10 -tau 15 -q | grep -v '^#' | sed -n 2p)
[ -n "$r" ] && { pass=$((pass + 1)); echo "ok   sample: $r"; } || { fail=$((fail + 1)); echo "FAIL sample gave no result"; }
echo "$pass passed, $fail failed"
[ $fail -eq 0 ] || exit 1
[ -r "$shared/paper-reads/5k.fasta" ] || exit 77  # only the sample ran: report it as skipped
