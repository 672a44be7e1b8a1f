#!/bin/bash
# SPEC section 2 through the CLI: the same reads as plain, gzip, BGZF, stdin, CRLF,
# multi-line FASTA, FASTQ, no final newline and a 70 kB line all give the same result.
set -u
cli=$1 data=$2 tmp=$3 testio=$4
mkdir -p "$tmp"; rm -f "$tmp"/*
fail=0 pass=0
# reference: 40 reads of the paper plus one 70 kB read holding one of them
head -n 80 "$data/../../data/sample/paper_1k_head.fa" > "$tmp/ref.fa" 2>/dev/null || true
if [ ! -s "$tmp/ref.fa" ]; then echo "missing reference reads"; exit 1; fi
{ cat "$tmp/ref.fa"; printf '>long\n'; for i in $(seq 1 700); do printf 'ACGTTGCAAC'; done; sed -n 2p "$tmp/ref.fa"; } > "$tmp/plain.fa"
run() { "$cli" "$@" -k 2 -t 3 -tau 12 --candidates "$tmp/c.tsv" -q | grep -v '^#' > "$tmp/o.tsv"; grep -v '^#' "$tmp/c.tsv" >> "$tmp/o.tsv"; }
check() {
	if cmp -s "$tmp/o.tsv" "$tmp/want.tsv"; then pass=$((pass + 1)); echo "ok   $1"
	else fail=$((fail + 1)); echo "FAIL $1"; diff "$tmp/o.tsv" "$tmp/want.tsv" | head -5; fi
}
run "$tmp/plain.fa"; cp "$tmp/o.tsv" "$tmp/want.tsv"
grep -q . "$tmp/want.tsv" || { echo "FAIL empty reference output"; exit 1; }
gzip -c "$tmp/plain.fa" > "$tmp/x.gz"; run "$tmp/x.gz"; check gzip
"$testio" bgzf "$tmp/plain.fa" "$tmp/x.bgz"; run "$tmp/x.bgz"; check bgzf
run - < "$tmp/plain.fa"; check stdin
gzip -c "$tmp/plain.fa" | run -; check stdin-gzip
sed 's/$/\r/' "$tmp/plain.fa" > "$tmp/crlf.fa"; run "$tmp/crlf.fa"; check crlf
awk '/^>/ {print; next} {for (i = 1; i <= length($0); i += 13) print substr($0, i, 13)}' "$tmp/plain.fa" > "$tmp/multi.fa"; run "$tmp/multi.fa"; check multi-line
printf '%s' "$(cat "$tmp/plain.fa")" > "$tmp/nonl.fa"; run "$tmp/nonl.fa"; check no-final-newline
awk '/^>/ {n = substr($1, 2); next} {q = $0; gsub(/./, "I", q); print "@" n " x"; print; print "+"; print q}' "$tmp/plain.fa" > "$tmp/x.fq"; run "$tmp/x.fq"; check fastq
tr 'ACGT' 'acgu' < "$tmp/plain.fa" | sed 's/^>\(.*\)/>\1/' | awk '/^>/ {print; next} {print}' > "$tmp/lower.fa"
sed -i '/^>/ s/[acgu]/X/g' "$tmp/lower.fa"; sed -i 's/^>.*$//' "$tmp/lower.fa"
# lowercase + U: rebuild with the original headers
paste -d '\n' <(grep '^>' "$tmp/plain.fa") <(grep -v '^>' "$tmp/plain.fa" | tr 'ACGT' 'acgu') > "$tmp/lower.fa"; run "$tmp/lower.fa"; check lowercase-U
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
