#!/bin/bash
# cgroup-lanes.sh: kernels in a container whose CPU limit is below the
# machine's CPUs (docs/kernels.md, "Host threads"). Puts each run of
# bench/c/launch_ab.c in a CPU cgroup with a quota of QUOTA CPUs (default
# 2) and compares the default host lanes (the limit, tsfw/threads.go)
# with one lane per CPU of the machine (NPUEMU_THREADS=$(nproc): the
# default before the lanes followed the limit), alternated ROUNDS times
# (default 7), for MODES (default "v e s": the 40-block vector add, the
# launch loop, launch + synchronize). Prints the median wall and CPU time
# of each, and how often the group was throttled. MANY sets the second
# variant's lanes instead of $(nproc) (e.g. 16 on a small machine).
#   bench/cgroup-lanes.sh [LIBDIR]     LIBDIR defaults to emu/lib
# Needs root and a writable cgroup file system (v2, or v1's cpu
# controller); run from the repository root after `make lib`. On a machine
# with no more CPUs than QUOTA both variants are the same.
set -eu
. "$(dirname "$0")/launch-ab-lib.sh"
lib=${1:-emu/lib}
prepare_launch_ab "$lib" "$lib"
q=${QUOTA:-2} period=100000
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  cg=/sys/fs/cgroup/npuemu-lanes.$$
  mkdir "$cg"
  echo "$((q * period)) $period" > "$cg/cpu.max"
elif [ -d /sys/fs/cgroup/cpu ]; then
  cg=/sys/fs/cgroup/cpu/npuemu-lanes.$$
  mkdir "$cg"
  echo $period > "$cg/cpu.cfs_period_us"
  echo $((q * period)) > "$cg/cpu.cfs_quota_us"
else
  echo "$0: no cgroup file system to write" >&2; exit 2
fi
throttled() { awk '/^nr_throttled/ {print $2}' "$cg/cpu.stat"; }
trap 'rmdir "$cg" 2>/dev/null; rm -rf "$B"' EXIT
all=${MANY:-$(nproc)}
echo "machine: $(nproc) CPUs; group: $q CPUs of quota; lanes: default (the limit) against NPUEMU_THREADS=$all"
export LD_LIBRARY_PATH=$lib NPUEMU_NODE=$B/node
raw=$B/raw.txt
n_of() { case $1 in v) echo 10 ;; *) echo 100000 ;; esac; }
for i in $(seq 1 "${ROUNDS:-7}"); do
  for m in ${MODES:-v e s}; do
    sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' _ "$cg" "$B/launch_ab" $m $(n_of $m) | sed 's/^/limit /' >> "$raw"
    sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec env NPUEMU_THREADS='"$all"' "$@"' _ "$cg" "$B/launch_ab" $m $(n_of $m) | sed 's/^/all /' >> "$raw"
  done
done
echo "throttled periods of the group: $(throttled)"
# lines: VARIANT MODE wall VALUE UNIT cpu_ns NS ivcsw_per_s K
awk '{k=$2" "$1; w[k]=w[k]" "$4; c[k]=c[k]" "$7; u[$2]=$5}
function med(s,  x, n, p, q, t) { n = split(s, x, " ")
  for (p = 1; p <= n; p++) for (q = p + 1; q <= n; q++) if (x[q] + 0 < x[p] + 0) { t = x[p]; x[p] = x[q]; x[q] = t }
  return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }
END { printf "%-5s %-14s %14s %14s %12s %12s\n", "mode", "unit", "wall limit", "wall all", "cpu limit", "cpu all"
  for (m in u) printf "%-5s %-14s %14.3f %14.3f %12.0f %12.0f\n", m, u[m], med(w[m" limit"]), med(w[m" all"]), med(c[m" limit"]), med(c[m" all"]) }' "$raw"
