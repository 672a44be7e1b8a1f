# What the shell tests share (sourced, not run): a fresh work directory to run in, mpirun as
# root, and the ok/bad lines with their counts.
# Usage: . "$(dirname "$0")/lib.sh"; t_begin "$tmp"   (before any cd: $0 may be relative)
t_begin() {
	rm -rf "$1"; mkdir -p "$1"
	cd "$1" || exit 1
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	fail=0 pass=0
}
# T_TIMES=1: each line starts with the seconds since the previous one (to find the slow checks)
t_mark() { [ -n "${T_TIMES:-}" ] || return 0; printf '[%4d s] ' $((SECONDS - ${t_last:-0})); t_last=$SECONDS; }
ok() { pass=$((pass + 1)); t_mark; echo "ok   $*"; }
bad() { fail=$((fail + 1)); t_mark; echo "FAIL $*"; }
