#!/bin/bash
# The reader alone (issue 15): GB/s of parsing a plain FASTA file with 1..N threads, next to
# `cat FILE > /dev/null` (the disk/page-cache baseline) in the same run; gzip and BGZF too.
# Usage: jobs/bench-read.sh [BUILD_DIR] [SIZE_MB=1000]      (prints a table)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} mb=${2:-1000}
gen=$build/tests/rkt_genaln rb=$build/tests/rkt_readbench
[ -x "$gen" ] && [ -x "$rb" ] || { echo "build first" >&2; exit 1; }
f=${TMPDIR:-/tmp}/bench_read.$$.fa
"$gen" $((mb * 1000 / 30)) 30000 2 3 > "$f"
bytes=$(stat -c %s "$f")
printf '# machine: %s, %s cores; commit %s; file %.2f GB (plain FASTA, 30 kb records)\n' \
	"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$(nproc)" "${RKTLCS_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo none)}" "$(awk -v b=$bytes 'BEGIN { print b / 1e9 }')"
cat "$f" > /dev/null  # warm the page cache: both sides read from memory
t0=$(date +%s.%N); cat "$f" > /dev/null; t1=$(date +%s.%N)
printf '%-28s %8.3f s %7.2f GB/s\n' "cat > /dev/null (baseline)" "$(awk -v a=$t0 -v b=$t1 'BEGIN { print b - a }')" "$(awk -v a=$t0 -v b=$t1 -v n=$bytes 'BEGIN { print n / (b - a) / 1e9 }')"
for th in 1 2 4 8 16 32; do
	[ $th -le "$(nproc)" ] || break
	out=$("$rb" "$f" $th) || { echo "readbench failed" >&2; break; }
	printf '%-28s %8s s %7s GB/s\n' "rktlcs reader, $th thread(s)" "$(echo "$out" | awk '{ print $5 }')" "$(echo "$out" | awk '{ print $7 }')"
done
gzip -1 -c "$f" > "$f.gz"
out=$("$rb" "$f.gz" 1)
printf '%-28s %8s s %7s GB/s (of the plain bytes: %s)\n' "gzip input, 1 thread" "$(echo "$out" | awk '{ print $5 }')" \
	"$(echo "$out" | awk '{ print $7 }')" "$(echo "$out" | awk -v b=$bytes '{ printf "%.2f GB/s", b / $5 / 1e9 }')"
rm -f "$f" "$f.gz"
