#!/bin/bash
# compare-startup.sh: process start and end against two library folders
# (bench/c/startup_phases.c): ROUNDS (7) rounds, each N (100) spawned
# children with the base library, then N with the new one (alternated, so
# both sample the same stretch of a host whose speed drifts). Prints, per
# phase, the median of the rounds' medians and their range, in ms:
# exec_to_main, aclInit, SetDevice, Malloc, total (start_to_first_malloc_ms),
# teardown (free, reset, aclFinalize), lifetime (spawn to reaped), threads,
# faults (the child's page faults) and cpu (its CPU time, ms).
#   bench/compare-startup.sh BASE_LIB_DIR NEW_LIB_DIR
# Run from the repository root after `make lib`; needs cc.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 BASE_LIB_DIR NEW_LIB_DIR" >&2; exit 2; }
. "$(dirname "$0")/launch-ab-lib.sh"
vendor_names "$1" "$2"
B=$(mktemp -d); trap 'rm -rf "$B"' EXIT
# Both folders are copied the same way first: the same library read from
# the file the linker wrote and from a copy of it gave starts 50–90 page
# faults apart (this machine, ext4; equal again after the page cache was
# dropped), so the two must come into the page cache alike.
cp -a "$1/." "$B/base"; cp -a "$2/." "$B/new"
cc -O2 -Wall -Werror -I emu/include -o "$B/startup_phases" bench/c/startup_phases.c -L "$B/new" -lascendcl
export NPUEMU_NODE=$B/node
for r in $(seq 1 "${ROUNDS:-7}"); do
  for v in base new; do
    LD_LIBRARY_PATH=$B/$v "$B/startup_phases" "${N:-100}" $v >> "$B/out"
  done
done
printf "%-13s %22s %22s\n" phase "base: median (range)" "new: median (range)"
for ph in exec_to_main aclInit SetDevice Malloc total teardown lifetime threads faults cpu; do
  line=$(printf "%-13s" $ph)
  for v in base new; do
    line+=$(awk -v v=$v -v ph=$ph '$1 == v && $2 == ph { print $4 }' "$B/out" | sort -n |
      awk '{ a[NR] = $1 } END { printf " %8.3f (%.3f–%.3f)", a[int((NR + 1) / 2)], a[1], a[NR] }')
  done
  echo "$line"
done
