#!/bin/bash
# Set up, build and run the whole test suite, in stages: the release build (all tests), its
# cmake --install, an AddressSanitizer+UBSan build (unit tests, then CLI tests) and each fuzz
# target for FUZZ_SECONDS (default 60) under libFuzzer. Every stage runs even when an earlier
# one failed; the end is a table of the stages, the tests that were skipped and why (a test
# that cannot run its real component here, e.g. no GPU, no ../shared/data, no SLURM daemons,
# exits 77 after a line "SKIPPED: reason"), and a non-zero exit naming the failed stages.
# RKTLCS_STAGES="release asan_cli" runs only the stages named.
#
# Sourced (tests/stages.sh), it defines the functions and runs nothing.

all_stages="release install asan_unit asan_cli fuzz"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# ctest in build directory $1 with the arguments after it; its skipped tests go to $skips
# ("stage: test: reason"). ctest names them in its summary ("(Skipped)"); the reason is the
# first "SKIPPED" line of the test's output, which ctest keeps in LastTest.log.
ctest_in() {
	local dir=$1; shift
	local r out
	out=$(mktemp)
	# "|| echo": under set -e a failing ctest would end the group before its status is kept,
	# and its times and skips would be lost
	{ (cd "$dir" && ctest "$@") && echo 0 > "$out.rc" || echo $? > "$out.rc"; } | tee "$out"
	r=$(cat "$out.rc")
	# "SECONDS stage: test" for the summary's slowest tests; neither list may end the stage (set -e)
	sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) \.+.* ([0-9.]+) sec$/\2 '"${cur_stage:-ctest}"': \1/p' "$out" >> "$times" || true
	ctest_skips "$out" "$dir/Testing/Temporary/LastTest.log" >> "$skips" || true
	rm -f "$out" "$out.rc"
	return "$r"
}

# ctest_skips CTEST_STDOUT LASTTEST_LOG: one "stage: test: reason" line per skipped test
ctest_skips() {
	awk -v stage="${cur_stage:-ctest}" '
		FNR == NR { if ($0 ~ /^[ \t]*[0-9]+ - .* \(Skipped\)$/) { n = $0; sub(/^[ \t]*[0-9]+ - /, "", n); sub(/ \(Skipped\)$/, "", n); skip[n] = 1; order[++k] = n }; next }
		/^[0-9]+\/[0-9]+ Testing: / { name = $0; sub(/^[0-9]+\/[0-9]+ Testing: /, "", name); inout = 0; next }
		/^Output:$/ { inout = 1; next }
		/^<end of output>$/ { inout = 0; next }
		inout && (name in skip) && !(name in why) && /SKIP/ { r = $0; sub(/^.*SKIP(PED)?:? */, "", r); why[name] = r }
		END { for (i = 1; i <= k; i++) print stage ": " order[i] ": " (order[i] in why ? why[order[i]] : "(its output has no SKIPPED line)") }
	' "$1" "$2" 2> /dev/null
}

# one ctest job more than the CPUs: a part of the CLI tests waits (SLURM daemons, signals,
# ranks that idle in a plan), and the costliest start first (COST in tests/CMakeLists.txt)
ctest_jobs() { echo $(($(nproc 2> /dev/null || echo 2) + 1)); }

stage_release() {
	# ON by name: run-sample.sh configures the same build directory with the tests off
	scripts/setup.sh --test build -DBUILD_TESTING=ON
	ctest_in build --output-on-failure -j"$(ctest_jobs)"
}

# cmake --install gives a working rktlcs, job scripts that name it, the man page and the docs
stage_install() {
	local inst r=0
	inst=$(mktemp -d)
	cmake --install build --prefix "$inst" > /dev/null
	"$inst/bin/rktlcs" --version | head -1
	grep -q "$inst/bin/rktlcs" "$inst/share/rktlcs/jobs/rktlcs-slurm.sh" || { echo "job script does not name $inst/bin/rktlcs"; r=1; }
	[ -s "$inst/share/man/man1/rktlcs.1" ] || { echo "no man page in $inst/share/man/man1"; r=1; }
	[ -s "$inst/share/doc/rktlcs/rkt.md" ] || { echo "no docs in $inst/share/doc/rktlcs"; r=1; }
	stage_install_lib "$inst" || r=1
	rm -rf "$inst"
	return $r
}

# the library as users take it (docs/library.md): the C example built with pkg-config and the
# Python example run with only the install's prefix on the paths; both print what the command says
stage_install_lib() {
	local inst=$1 ex=docs/examples w out want pcp
	w=$(mktemp -d)
	pcp=$(echo "$inst"/lib*/pkgconfig "$inst"/lib/*/pkgconfig | tr ' ' ':')
	cc "$ex/lib_example.c" $(PKG_CONFIG_PATH=$pcp pkg-config --cflags --libs rktlcs) -o "$w/ex" \
		|| { echo "the C example does not build against the install"; rm -rf "$w"; return 1; }
	out=$("$w/ex") || { echo "the C example failed"; rm -rf "$w"; return 1; }
	printf '>r\nACGTTGCA\n' > "$w/a.fa"; printf '>g\nTTTTACGTAGCATTTT\n' > "$w/b.fa"
	want=$("$inst/bin/rktlcs" lev "$w/a.fa" "$w/b.fa" --mode infix --path -q | tail -1 | cut -f5,7,8)
	[ "$(echo "$out" | head -1 | cut -f2,3,5)" = "$want" ] || { echo "the C example says '$out', the command '$want'"; rm -rf "$w"; return 1; }
	echo "C example against the install: $(echo "$out" | tr '\t\n' '  ')"
	# the static library, with what pkg-config --static adds (the CUDA runtime where built)
	cc "$ex/lib_example.c" $(PKG_CONFIG_PATH=$pcp pkg-config --cflags rktlcs) "$inst"/lib*/librktlcs.a \
		$(PKG_CONFIG_PATH=$pcp pkg-config --static --libs rktlcs | sed 's/ -lrktlcs / /') -o "$w/exs" && [ "$("$w/exs")" = "$out" ] \
		|| { echo "the C example linked with librktlcs.a fails"; rm -rf "$w"; return 1; }
	# the CMake package: find_package(rktlcs) and its target
	mkdir -p "$w/cm" && cp "$ex/lib_example.c" "$w/cm/" && printf '%s\n' 'cmake_minimum_required(VERSION 3.18)' \
		'project(ex C)' 'find_package(rktlcs REQUIRED)' 'add_executable(ex lib_example.c)' \
		'target_link_libraries(ex PRIVATE rktlcs::rktlcs)' > "$w/cm/CMakeLists.txt"
	cmake -S "$w/cm" -B "$w/cm/b" -DCMAKE_PREFIX_PATH="$inst" > "$w/cm.log" 2>&1 && cmake --build "$w/cm/b" >> "$w/cm.log" 2>&1 \
		&& [ "$("$w/cm/b/ex")" = "$out" ] || { echo "find_package(rktlcs) fails:"; tail -5 "$w/cm.log"; rm -rf "$w"; return 1; }
	echo "the static library and find_package(rktlcs) give the same"
	if command -v python3 > /dev/null; then
		out=$(cd "$w" && env -u RKTLCS_LIB PYTHONPATH="$inst/lib/python3/dist-packages" python3 "$OLDPWD/$ex/lib_example.py") \
			|| { echo "import rktlcs from the install failed"; rm -rf "$w"; return 1; }
		[ "$(echo "$out" | head -1 | cut -f2,3,5)" = "$want" ] || { echo "the Python example says '$out', the command '$want'"; rm -rf "$w"; return 1; }
		echo "Python example against the install: $(echo "$out" | head -2 | tr '\t\n' '  ')"
	fi
	rm -rf "$w"
}

# leaks are checked in the unit and the CLI tests (tests/lsan.supp names what is not ours)
stage_asan_unit() {
	scripts/setup.sh --test build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRKTLCS_SANITIZE=ON -DRKTLCS_CUDA=OFF
	ASAN_OPTIONS=detect_leaks=1 ctest_in build-asan --output-on-failure -j2 -L unit
}

stage_asan_cli() {
	[ -x build-asan/rktlcs ] || scripts/setup.sh --test build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRKTLCS_SANITIZE=ON -DRKTLCS_CUDA=OFF
	ASAN_OPTIONS=detect_leaks=1 ctest_in build-asan --output-on-failure -j"$(ctest_jobs)" -L cli
}

stage_fuzz() {
	# line tables, not full debug information: a crash's stack still names its lines, and the
	# build takes less of the stage (executions per second unchanged)
	CC=clang RK_TARGETS="fuzz_input fuzz_rkt fuzz_ham fuzz_lev fuzz_lcs" scripts/setup.sh --test build-fuzz \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" -DRKTLCS_FUZZ=ON -DRKTLCS_CUDA=OFF
	bash tests/fuzz/run.sh build-fuzz "${FUZZ_SECONDS:-60}"
}

# Run each stage named in $1 (a subshell with set -e: a failing command ends its stage, not
# the run), then the summary; returns 1 when a stage failed.
run_stages() {
	local s r t0 failed="" line
	skips=$(mktemp) times=$(mktemp)
	declare -A res secs
	for s in $1; do
		if ! declare -F "stage_$s" > /dev/null; then echo "test.sh: unknown stage '$s' (stages: $all_stages)"; res[$s]=FAILED; secs[$s]=0; failed="$failed $s"; continue; fi
		echo "=== stage $s"
		cur_stage=$s t0=$SECONDS r=0
		# not "|| r=$?": in a condition, set -e is off inside the subshell too
		set +e
		( set -euo pipefail; "stage_$s" )
		r=$?
		secs[$s]=$((SECONDS - t0))
		if [ $r -eq 0 ]; then res[$s]=passed; else res[$s]=FAILED; failed="$failed $s"; fi
		echo "=== stage $s: ${res[$s]} (exit $r, ${secs[$s]} s)"
	done
	echo
	echo "=== summary"
	printf '%-10s %-7s %s\n' stage result time
	for s in $1; do printf '%-10s %-7s %d:%02d\n' "$s" "${res[$s]}" $((secs[$s] / 60)) $((secs[$s] % 60)); done
	if [ -s "$times" ]; then
		echo "slowest tests:"
		sort -rn "$times" | head -5 | while read -r t name; do printf '  %7.1f s  %s\n' "$t" "$name"; done
	fi
	rm -f "$times"
	if [ -s "$skips" ]; then
		echo "skipped tests ($(wc -l < "$skips")):"
		while IFS= read -r line; do echo "  $line"; done < "$skips"
	else echo "skipped tests: none"; fi
	rm -f "$skips"
	if [ -n "$failed" ]; then echo "test.sh: FAILED stages:$failed"; return 1; fi
	echo "test.sh: all stages passed"
}

main() {
	cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
	# a minimal root (mmdebstrap minbase, some containers) has no /etc/hosts: Open MPI then waits
	# ~5 s on the host name at every launch of 3 or more ranks, and the MPI tests take ~10x longer
	[ -e /etc/hosts ] || echo "test.sh: warning: no /etc/hosts: every mpirun waits ~5 s for the host name, the MPI tests take ~10x longer (README, Troubleshooting)"
	run_stages "${RKTLCS_STAGES:-$all_stages}"
}

[ "${BASH_SOURCE[0]}" = "$0" ] && main "$@"
