#!/bin/bash
# pgo.sh: regenerates libfake/default.pgo, the CPU profile `go build`
# optimises the core with (profile-guided optimisation: the calls hot in
# the profile are inlined, hot interface calls devirtualised; the Go tool
# reads libfake/default.pgo for every build of ./libfake by itself).
# docs/internals.md "Profile-guided build" says when to run it.
#
# It builds the core without a profile into a temporary folder beside
# emu/lib's front, runs bench/c/launch_ab.c's workloads on it with
# NPUEMU_CPUPROFILE (libfake/cpuprofile.go), one process each, and merges
# their profiles, unsymbolised (the Go tool needs the functions' start
# lines, which pprof's symbolisation drops). SCALE (1) multiplies each
# workload's operation count (about 30 s in all at 1 here).
#   bench/pgo.sh
# Run from the repository root after `make lib`; needs cc
# (bench/launch-ab-lib.sh builds launch_ab).
set -eu
[ -e emu/lib/libnpuemu.so ] || { echo "$0: run make lib first" >&2; exit 2; }
. "$(dirname "$0")/launch-ab-lib.sh"
prepare_launch_ab emu/lib emu/lib # B, launch_ab and the kernels (KSO)
mkdir -p "$B/lib" "$B/prof"
go build -buildmode=c-shared -pgo=off -o "$B/lib/libnpuemu_core.so" ./libfake
rm -f "$B/lib/libnpuemu_core.h"
cp emu/lib/libnpuemu.so "$B/lib/"
vendor_names "$B/lib"
export LD_LIBRARY_PATH=$B/lib NPUEMU_NODE=$B/node
S=${SCALE:-1}
# launch + synchronize (three argument forms), launch loops (three), an
# idle synchronisation, small copies, four launching threads
for w in "s 8000000" "h 8000000" "d 8000000" "e 15000000" "l 15000000" "n 15000000" "y 30000000" "c 3000000" "m 4000000"; do
  set -- $w
  NPUEMU_CPUPROFILE=$B/prof/$1.prof "$B/launch_ab" "$1" $(($2 * S))
done
go tool pprof -symbolize=none -proto "$B"/prof/*.prof > "$B/default.pgo"
mv "$B/default.pgo" libfake/default.pgo
echo "wrote libfake/default.pgo ($(wc -c < libfake/default.pgo) bytes); make lib uses it"
