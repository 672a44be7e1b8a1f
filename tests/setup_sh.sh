#!/bin/bash
# scripts/setup.sh and scripts/run-sample.sh (issue 33) against fake apt-get, dpkg, systemctl,
# cmake, mpirun and id, so that nothing is installed or built: run-sample.sh installs the build
# and run dependencies alone (no clang, SLURM, munge, gnuplot, edlib), without recommended
# packages; --test (scripts/test.sh) adds the test extras; a service that the install brought
# in is disabled at boot, one installed before is left alone; as non-root with packages
# missing, it says what to do and stops before apt.
# Usage: setup_sh.sh SOURCE_DIR TMPDIR
set -u
src=$1 tmp=$2
rm -rf "$tmp"; mkdir -p "$tmp/bin"
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
log=$tmp/log
fake() { printf '#!/bin/bash\n%s\n' "$2" > "$tmp/bin/$1"; chmod +x "$tmp/bin/$1"; }
fake id 'echo "$FAKE_UID"'
fake apt-get 'echo "apt-get $*" >> '"$log"'; [ "$1" = install ] && touch '"$tmp"'/done; exit 0'
# every package is missing; the install brings munge (a service) in, slurmd was there before
fake dpkg 'case $1 in -s) exit 1 ;; -L) case $2 in munge) echo /lib/systemd/system/munge.service ;; slurmd) echo /lib/systemd/system/slurmd.service ;; esac ;; esac'
fake dpkg-query 'printf "installed bash\ninstalled slurmd\nconfig-files gone\n"; [ -e '"$tmp"'/done ] && printf "installed munge\n"; exit 0'
for c in systemctl deb-systemd-helper update-rc.d mpirun; do fake $c 'echo "'$c' $*" >> '"$log"; done
fake cmake 'echo "cmake $*" >> '"$log"'; [ "$1" = -S ] && echo "-- The C compiler identification is GNU" && echo "-- rktlcs: CUDA backend ON"; exit 0'

run() {  # uid command...
	rm -f "$log" "$tmp/done"; touch "$log"
	FAKE_UID=$1 PATH="$tmp/bin:$PATH" "${@:2}" > "$tmp/out" 2> "$tmp/err"
}
# run-sample.sh as root
run 0 bash "$src/scripts/run-sample.sh"; rc=$?
inst=$(grep '^apt-get install' "$log")
echo "  $inst"
[ $rc -eq 0 ] && ok "run-sample.sh: exit 0" || { bad "run-sample.sh: exit $rc"; cat "$tmp/err"; }
[[ $inst == *--no-install-recommends* ]] && ok "no recommended packages" || bad "apt-get install without --no-install-recommends"
for p in build-essential cmake make pkg-config libhts-dev zlib1g-dev libopenmpi-dev openmpi-bin; do
	[[ " $inst " == *" $p "* ]] || bad "run-sample.sh does not install $p"
done
extra=$(echo "$inst" | tr ' ' '\n' | grep -E 'clang|slurm|munge|gnuplot|edlib|wfa|libomp|python|tabix')
[ -z "$extra" ] && ok "run-sample.sh installs no test extras" || bad "run-sample.sh installs test extras: $extra"
grep -q '^systemctl disable munge.service$' "$log" && ok "munge (new) disabled at boot: $(grep disabled "$tmp/out")" || bad "munge not disabled"
grep -q 'slurmd' "$log" && bad "slurmd (installed before) touched" || ok "slurmd (installed before) left alone"
grep -q '^cmake -S . -B build' "$log" && grep -q '^mpirun --oversubscribe -np 2 build/rktlcs' "$log" && ok "built and ran the sample" || bad "no build or run"
# the tool alone (issue 62): no test programs configured or built
grep -q '^cmake -S . -B build .*-DBUILD_TESTING=OFF' "$log" && grep -qE '^cmake --build build .*--target rktlcs rktlcs_man$' "$log" \
	&& ok "run-sample.sh builds the tool alone: $(grep -- '--target' "$log")" || bad "run-sample.sh builds more than the tool: $(grep '^cmake' "$log" | tr '\n' ' ')"
grep -q '^-- rktlcs: CUDA backend' "$tmp/out" && ! grep -q 'compiler identification' "$tmp/out" && ok "CMake's rktlcs notices shown, the rest not" || bad "CMake's rktlcs notice hidden"
grep -q 'MODE --help' "$tmp/out" && ok "its last lines point to MODE --help" || bad "run-sample.sh does not point to MODE --help: $(tail -2 "$tmp/out")"
grep -q 'stage_release' "$src/scripts/test.sh" && grep -q 'setup.sh --test build -DBUILD_TESTING=ON' "$src/scripts/test.sh" \
	&& ok "test.sh turns the tests on again in the same build directory" || bad "test.sh does not pass -DBUILD_TESTING=ON"
# the test set-up adds the extras
run 0 bash "$src/scripts/setup.sh" --test "$tmp/b"
inst=$(grep '^apt-get install' "$log")
for p in clang slurmd munge gnuplot-nox libedlib-dev cmake; do [[ " $inst " == *" $p "* ]] || bad "--test does not install $p"; done
[[ $inst == *--no-install-recommends* ]] && ok "--test: the extras too, no recommended packages" || bad "--test: recommends"
[ "$(bash "$src/scripts/setup.sh" --list | wc -l)" -lt "$(bash "$src/scripts/setup.sh" --test --list | wc -l)" ] && ok "--list: $(bash "$src/scripts/setup.sh" --list | tr '\n' ' ')" || bad "--list"
# non-root: a message naming what to do, no apt, exit 1
run 1000 bash "$src/scripts/run-sample.sh"; rc=$?
cat "$tmp/err"
[ $rc -eq 1 ] && ok "non-root: exit 1" || bad "non-root: exit $rc"
grep -q 'Run it as root' "$tmp/err" && grep -q 'apt-get install --no-install-recommends build-essential' "$tmp/err" && ok "non-root: says what to do" || bad "non-root message"
[ ! -s "$log" ] && ok "non-root: apt, cmake, mpirun not run" || bad "non-root ran: $(cat "$log")"
echo "setup_sh: $pass passed, $fail failed"
[ $fail -eq 0 ]
