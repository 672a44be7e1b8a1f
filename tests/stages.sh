#!/bin/bash
# scripts/test.sh's stage runner (issue 33), cheaply: the script is sourced (it then runs
# nothing) and its five stages are replaced by fakes, while the runner, the stage list and the
# ctest wrapper are the script's own. A failing stage must not stop the later ones, a failing
# command must end its own stage, the summary must name every stage's result and the failed
# ones, the exit must be non-zero, and a ctest run (a small project: a test that passes, one
# that skips with 77 after "SKIPPED: reason", as tests/slurm.sh does when slurmd cannot start,
# and one that skips saying nothing) must have its skipped tests listed with their reasons.
# Usage: stages.sh SOURCE_DIR TMPDIR CMAKE
set -u
src=$1 tmp=$2 cmake=$3
rm -rf "$tmp"; mkdir -p "$tmp"
export PATH=$(dirname "$cmake"):$PATH
fail=0 pass=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# shellcheck source=../scripts/test.sh
. "$src/scripts/test.sh"
[ "$all_stages" = "release install asan_unit asan_cli fuzz" ] && ok "stages: $all_stages" || bad "stages: '$all_stages'"

mkdir -p "$tmp/proj"
cat > "$tmp/proj/CMakeLists.txt" << 'EOF'
cmake_minimum_required(VERSION 3.16)
project(fake NONE)
enable_testing()
add_test(NAME fine COMMAND sh -c "echo fine")
add_test(NAME no_slurmd COMMAND sh -c "echo 'SKIPPED: slurmd cannot start here (no /sys/fs/cgroup)'; exit 77")
add_test(NAME mute COMMAND sh -c "exit 77")
add_test(NAME broken COMMAND sh -c "echo broken; exit 1")
set_tests_properties(no_slurmd mute PROPERTIES SKIP_RETURN_CODE 77)
EOF
"$cmake" -S "$tmp/proj" -B "$tmp/proj/b" > /dev/null || bad "configure the fake project"

stage_release() { ctest_in "$tmp/proj/b" -E broken; touch "$tmp/release.ran"; }
stage_install() { echo "fake install fails"; return 3; }
stage_asan_unit() { touch "$tmp/asan_unit.ran"; ctest_in "$tmp/proj/b" -R broken; touch "$tmp/asan_unit.after_ctest"; }
stage_asan_cli() { false; touch "$tmp/asan_cli.after_false"; }
stage_fuzz() { touch "$tmp/fuzz.ran"; }
run_stages "$all_stages" > "$tmp/out" 2>&1; rc=$?
cat "$tmp/out"
echo "---"
[ $rc -ne 0 ] && ok "exit $rc" || bad "exit 0 with failed stages"
[ -e "$tmp/release.ran" ] && [ -e "$tmp/asan_unit.ran" ] && [ -e "$tmp/fuzz.ran" ] && ok "the stages after a failed one ran" || bad "a stage did not run"
[ ! -e "$tmp/asan_cli.after_false" ] && ok "a failing command ends its stage" || bad "the stage went on after a failing command"
[ ! -e "$tmp/asan_unit.after_ctest" ] && ok "a failing ctest ends its stage" || bad "the stage went on after a failing ctest"
grep -q '^test.sh: FAILED stages: install asan_unit asan_cli$' "$tmp/out" && ok "the failed stages named" || bad "the failed stages not named"
for want in "release +passed" "install +FAILED" "asan_unit +FAILED" "asan_cli +FAILED" "fuzz +passed"; do
	grep -A6 '^=== summary' "$tmp/out" | grep -Eq "^$want " && ok "summary: $want" || bad "summary has no '$want'"
done
grep -q '^  release: no_slurmd: slurmd cannot start here (no /sys/fs/cgroup)$' "$tmp/out" && ok "a skipped test listed with its reason" || bad "skipped test or reason missing"
grep -q '^  release: mute: (its output has no SKIPPED line)$' "$tmp/out" && ok "a skipped test without a reason listed" || bad "the mute skipped test not listed"
grep -q 'fine' "$tmp/out" && ! grep -q '^  release: fine' "$tmp/out" && ok "the passed test not listed as skipped" || bad "fine"

# all passing: exit 0; an unknown stage fails
stage_install() { :; }
stage_asan_cli() { :; }
run_stages "install asan_cli" > "$tmp/out2" 2>&1 && grep -q 'all stages passed' "$tmp/out2" && grep -q 'skipped tests: none' "$tmp/out2" \
	&& ok "all passing: exit 0" || { bad "all passing"; cat "$tmp/out2"; }
run_stages "nosuch" > "$tmp/out3" 2>&1 && bad "unknown stage: exit 0" || { grep -q "unknown stage 'nosuch'" "$tmp/out3" && ok "unknown stage: $(head -1 "$tmp/out3")" || bad "unknown stage message"; }
# CI still runs the same command
grep -q '^exec bash scripts/test.sh$' "$src/.ci/run" && ok ".ci/run calls scripts/test.sh" || bad ".ci/run"
echo "stages: $pass passed, $fail failed"
[ $fail -eq 0 ]
