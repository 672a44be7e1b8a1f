# What the shell tests share (sourced, not run): a fresh work directory to run in, mpirun as
# root, and the ok/bad lines with their counts.
# Usage: . "$(dirname "$0")/lib.sh"; t_begin "$tmp"   (before any cd: $0 may be relative)
t_begin() {
	rm -rf "$1"; mkdir -p "$1"
	cd "$1" || exit 1
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	fail=0 pass=0
}
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
