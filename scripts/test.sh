#!/bin/bash
# Set up, build and run the whole test suite: the release build (all tests), an
# AddressSanitizer+UBSan build (unit and CLI tests), and each fuzz target for FUZZ_SECONDS
# (default 60) under libFuzzer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
(cd build && ctest --output-on-failure -j2)
# cmake --install gives a working rktlcs and job scripts that name it
inst=$(mktemp -d)
cmake --install build --prefix "$inst" > /dev/null
"$inst/bin/rktlcs" --version | head -1
grep -q "$inst/bin/rktlcs" "$inst/share/rktlcs/jobs/rktlcs-slurm.sh"
rm -rf "$inst"
scripts/setup.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRKTLCS_SANITIZE=ON -DRKTLCS_CUDA=OFF
# leaks are checked in the unit and the CLI tests (tests/lsan.supp names what is not ours)
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -L unit)
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j2 -L cli)
CC=clang RK_TARGETS="fuzz_input fuzz_rkt fuzz_ham fuzz_lev fuzz_lcs" scripts/setup.sh build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRKTLCS_FUZZ=ON -DRKTLCS_CUDA=OFF
bash tests/fuzz/run.sh build-fuzz "${FUZZ_SECONDS:-60}"
