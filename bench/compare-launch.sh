#!/bin/bash
# compare-launch.sh: before/after of the launch path on a busy host. Runs
# bench/c/launch_ab.c against two library folders (each holding
# libnpuemu.so, or the usual symlinks), alternated ROUNDS times (default
# 11) for each workload, each build first in every other round, and prints the median wall time and the median
# CPU time per operation of each (the CPU time of every thread of the
# process: what a loaded machine does not inflate).
#   bench/compare-launch.sh BASE_LIB_DIR NEW_LIB_DIR
# MODES (default "e s y m") picks launch_ab modes, N (20000) their operations
# ("v", the vector add, wants an N of 10 to 50). The last two columns are
# the involuntary context switches of the process per second: threads
# preempting each other.
# Run from the repository root after `make lib` (headers from emu/include).
set -e
[ $# -eq 2 ] || { echo "usage: $0 BASE_LIB_DIR NEW_LIB_DIR" >&2; exit 2; }
. "$(dirname "$0")/launch-ab-lib.sh"
prepare_launch_ab "$1" "$2"
raw=$B/raw.txt
# run VARIANT LIBDIR MODE: one launch_ab process of that build.
run() { LD_LIBRARY_PATH=$2 "$B/launch_ab" $3 ${N:-20000} | sed "s/^/$1 /" >> "$raw"; }
for i in $(seq 1 "${ROUNDS:-11}"); do
  for m in ${MODES:-e s y m}; do
    # each build first in every other round (the second of a pair can run
    # slower: docs/benchmarks.md, "Twenty-second session")
    if [ $((i % 2)) = 1 ]; then run base "$1" $m; run new "$2" $m; else run new "$2" $m; run base "$1" $m; fi
  done
done
# lines: VARIANT MODE wall VALUE UNIT cpu_ns NS ivcsw_per_s K
awk '{w[$2" "$1]=w[$2" "$1]" "$4; c[$2" "$1]=c[$2" "$1]" "$7; v[$2" "$1]=v[$2" "$1]" "$9; u[$2]=$5}
function med(s,  x, n, p, q, t) { n = split(s, x, " ")
  for (p = 1; p <= n; p++) for (q = p + 1; q <= n; q++) if (x[q] < x[p]) { t = x[p]; x[p] = x[q]; x[q] = t }
  return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }
END { split("e s h l d n y c m v", ms, " ")
  split("launch_enqueue launch_sync hostargs_sync hostargs_enqueue devargs_sync devargs_enqueue sync_empty h2d_4KiB launch_mt4 vector_add_40blk", nm, " ")
  printf "%-16s %14s %14s %12s %12s %10s %10s  (medians of %d)\n", "workload", "wall base", "wall new", "cpu ns base", "cpu ns new", "ivcsw/s b", "ivcsw/s n", '"${ROUNDS:-11}"'
  for (i = 1; i <= 10; i++) { m = ms[i]; if (!(m" base" in w)) continue
    printf "%-16s %9.3f %-4s %9.3f %-4s %12.0f %12.0f %10.0f %10.0f\n", nm[i], med(w[m" base"]), substr(u[m], 1, 4), med(w[m" new"]), substr(u[m], 1, 4), med(c[m" base"]), med(c[m" new"]), med(v[m" base"]), med(v[m" new"]) } }' "$raw"
