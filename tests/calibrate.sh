#!/bin/bash
# `rktlcs calibrate` and auto's rates file (issue 60; docs/calibrate.md): the CPU's probes write a
# file of this machine that a later job's auto reads (-v says so, from --rates, RKTLCS_RATES or
# the default under XDG_CACHE_HOME); a truncated, corrupt, empty, foreign or other-version file
# is ignored with one line and the job's output is unchanged; auto's CPU thread choice follows
# the file; one process only.
# Usage: calibrate.sh RKTLCS MPIEXEC GENPAIRS TMPDIR
set -u
cli=$1 mpiexec=$2 gen=$3 tmp=$4
. "$(dirname "$0")/lib.sh"
t_begin "$tmp"
"$cli" calibrate --backend cpu --seconds 4 --rates r.json -v 2> cal.err; rc=$?
if [ $rc -eq 0 ] && python3 -c "
import json, os
r = json.load(open('r.json'))
assert r['format'] == 'rktlcs-rates' and r['format_version'] == 1, r
assert r['machine']['cpus'] == os.cpu_count(), r['machine']
for k in ('rkt', 'hamming', 'pairs', 'long', 'all'):
    x = r['rates'][k]
    assert x['cpu_rate'] > 0 and x['gpu_rate'] > 0 and 'cpu' in x['probes'], (k, x)
    assert x['cpu_path'] > 0 and x['gpu_path'] == 1 and x['gpu_path_fixed'] == 0, (k, x)
p = r['rates']['pairs']
assert 'cpu_path' in p['probes'] and 0.25 <= p['cpu_path'] <= 8, p
" 2> py.err; then ok "calibrate --backend cpu: r.json ($(grep -o 'wrote .*' cal.err))"
else bad "calibrate: exit $rc, $(tail -3 cal.err) $(tail -2 py.err)"; fi
"$gen" 200 150 5 1 a.fa b.fa > /dev/null
"$cli" lev a.fa b.fa --backend cpu -q -o ref.tsv
"$cli" lev a.fa b.fa -v --rates r.json -o o.tsv 2> err
grep -q "auto's rates: calibrated, r.json" err && cmp -s ref.tsv o.tsv && ok "--rates r.json: auto uses it" || bad "--rates: $(grep -i rates err)"
RKTLCS_RATES=r.json "$cli" lev a.fa b.fa -v -o o.tsv 2> err
grep -q "auto's rates: calibrated, r.json" err && ok "RKTLCS_RATES" || bad "RKTLCS_RATES: $(grep -i rates err)"
# the default file: written and read under XDG_CACHE_HOME
mkdir -p xdg
XDG_CACHE_HOME=$PWD/xdg RKTLCS_RATES= "$cli" calibrate --backend cpu --seconds 2 -q; rc=$?
f=$(ls xdg/rktlcs/rates-*.json 2> /dev/null)
XDG_CACHE_HOME=$PWD/xdg RKTLCS_RATES= "$cli" lev a.fa b.fa -v -o o.tsv 2> err
[ $rc -eq 0 ] && [ -n "$f" ] && grep -q "auto's rates: calibrated, $PWD/xdg/rktlcs/rates-" err && ok "the default file: ${f#$PWD/}" \
	|| bad "the default file: exit $rc, '$f', $(grep -i rates err)"
# auto's CPU thread choice follows the file: a long pair whose CPU estimate is short takes its
# threads from a look at the host (under 1 ms); with the file's CPU 1000x slower the same pair's
# estimate pays for a timed probe of its threads (rmpi_threads_free)
"$gen" 1 10000 5 3 la.fa lb.fa > /dev/null
sed 's/"cpu_rate": [0-9.e+-]*/"cpu_rate": 1e3/' r.json > slow.json
"$cli" lev la.fa lb.fa --backend auto -v --rates r.json -o t1.tsv 2> err1
"$cli" lev la.fa lb.fa --backend auto -v --rates slow.json -o t2.tsv 2> err2
! grep -q "of the wall" err1 && grep -q "CPU threads\? given .* of the wall" err2 && cmp -s t1.tsv t2.tsv \
	&& ok "a 10 kb pair's threads: a look with this machine's rates, a timed probe with a 1000x slower CPU's" \
	|| bad "thread choice: $(grep -h 'threads' err1 err2 | head -3)"
# bad files: one line, the built-in table, the same output, exit 0
head -c 300 r.json > trunc.json
: > empty.json
sed 's/"cpus": [0-9]*/"cpus": 9999/' r.json > foreign.json
sed 's/"version": "[^"]*"/"version": "0.0.1"/' r.json > oldver.json
sed 's/"cpu_rate": [0-9.e+-]*/"cpu_rate": -1/' r.json > negative.json
sed 's/"cpu_path": [0-9][0-9.e+-]*/"cpu_path": 0/' r.json > nopath.json
head -c 2000 /dev/urandom > noise.json
for b in trunc empty foreign oldver negative nopath noise missing; do
	"$cli" lev a.fa b.fa --rates $b.json -o o.tsv 2> err; rc=$?
	n=$(grep -c "the rates in $b.json are not used" err)
	[ $rc -eq 0 ] && [ "$n" = 1 ] && cmp -s ref.tsv o.tsv && ok "$b file: $(grep -o 'not used.*' err | cut -c 1-120)" \
		|| bad "$b file: exit $rc, $n lines, $(head -c 300 err)"
done
# one process: under mpirun it refuses, once
timeout 120 "$mpiexec" --oversubscribe -np 2 "$cli" calibrate --rates np.json > out 2> err; rc=$?
[ $rc -eq 1 ] && [ "$(grep -c 'calibrate runs as one process' err)" = 1 ] && [ ! -e np.json ] && ok "mpirun -np 2: refused once" \
	|| bad "mpirun -np 2: exit $rc, $(head -c 300 err)"
echo "calibrate: $pass passed, $fail failed"
[ $fail -eq 0 ]
