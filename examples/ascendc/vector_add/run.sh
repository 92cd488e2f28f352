#!/bin/bash
# Builds and runs the Ascend C vector add with its CMake project, from the
# repository root (`make demo` calls it after `make lib`). BUILD_DIR
# overrides the build directory (default build/ascendc_vector_add).
set -e
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
source "$repo/emu/bin/setenv.bash"
build="${BUILD_DIR:-$repo/build/ascendc_vector_add}"
cmake -S "$repo/examples/ascendc/vector_add" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j 2
"$build/vector_add"
