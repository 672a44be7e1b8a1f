#!/bin/bash
# Set up, build and run the whole test suite: the release build (all tests) and an
# AddressSanitizer+UBSan build (unit tests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
(cd build && ctest --output-on-failure -j2)
scripts/setup.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRKTLCS_SANITIZE=ON -DRKTLCS_CUDA=OFF
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -L unit)
