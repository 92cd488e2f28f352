#!/bin/bash
# compare-bench.sh: npuemu_bench --kernels (the launch and vector-add
# metrics of docs/benchmarks.md) against two library folders, alternated
# ROUNDS times (default 5), on this machine; prints the median of each
# metric per build; each build goes first in every other round. Used for
# docs/benchmarks.md, "Issue #15, third round".
#   bench/compare-bench.sh BASE_LIB_DIR NEW_LIB_DIR
# Run from the repository root after `make lib`. NPUEMU_LAUNCH_BATCH and
# the other variables are passed through to both builds. ALL=1 runs every
# metric of npuemu_bench (copies, synchronisation, streams), not only the
# kernel workloads. Each build gets a node directory of its own unless
# NPUEMU_NODE is set.
set -e
[ $# -eq 2 ] || { echo "usage: $0 BASE_LIB_DIR NEW_LIB_DIR" >&2; exit 2; }
B=$(mktemp -d); trap 'rm -rf "$B"' EXIT
CC=${CC:-cc}
. "$(dirname "$0")/launch-ab-lib.sh"
vendor_names "$1" "$2"
$CC -O2 -Wall -Werror -I emu/include -o "$B/npuemu_bench" bench/c/npuemu_bench.c -L "$2" -lascendcl -lpthread
$CC -shared -fPIC -O3 -march=native -Wall -Werror -I emu/include bench/c/bench_kernels.c -o "$B/k.so"
export NPUEMU_BENCH_KERNELS=$B/k.so
raw=$B/raw.txt
which=--kernels
[ "${ALL:-0}" = 1 ] && which=
# run VARIANT LIBDIR: one npuemu_bench process of that build.
run() { NPUEMU_NODE=${NPUEMU_NODE:-cmp$1} LD_LIBRARY_PATH=$2 "$B/npuemu_bench" $which 2>/dev/null | sed "s/^/$1 /" >> "$raw"; }
for i in $(seq 1 "${ROUNDS:-5}"); do
  # Each build goes first in every other round: the second process of a
  # pair started right after the first ran its launch figures ~20 % slower
  # here (docs/benchmarks.md, "Twenty-second session").
  if [ $((i % 2)) = 1 ]; then run base "$1"; run new "$2"; else run new "$2"; run base "$1"; fi
done
# lines: VARIANT METRIC VALUE UNIT
awk '{v[$2" "$1]=v[$2" "$1]" "$3; u[$2]=$4; keys[$2]=1}
function med(s,  x, n, p, q, t) { n = split(s, x, " ")
  for (p = 1; p <= n; p++) for (q = p + 1; q <= n; q++) if (x[q] + 0 < x[p] + 0) { t = x[p]; x[p] = x[q]; x[q] = t }
  return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }
END { printf "%-28s %14s %14s  %s (medians of %d)\n", "metric", "base", "new", "unit", '"${ROUNDS:-5}"'
  for (k in keys) printf "%-28s %14.4g %14.4g  %s\n", k, med(v[k" base"]), med(v[k" new"]), u[k] }' "$raw" | sort
