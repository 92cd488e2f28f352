#!/bin/bash
# monitor-ab.sh: how often the Go runtime's monitor (sysmon) polls and
# preempts in a launch workload, before/after (docs/kernels.md, "The
# runtime's monitor and long runs of blocks"). Runs bench/c/launch_ab.c
# MODE N REPS against two library folders, alternated ROUNDS times (each
# build first in every other round), under uprobes on the core's
# runtime.retake (the monitor's passes over the Ps) and
# runtime.preemptone (its preemption requests), and prints per build the
# medians over the processes of: the workload's figure over all its
# repetitions (for "v": GB/s of all kernels, bytes over time), the CPU
# time per repetition (all threads, ms), involuntary switches a second,
# monitor passes and preemption requests per process.
#   bench/monitor-ab.sh BASE_LIB_DIR NEW_LIB_DIR
# MODE (v), N (1), REPS (100), ROUNDS (21). Default: one 40-block vector
# add then a synchronisation, 100 times: the synchronising thread runs
# blocks itself. Run from the repository root after `make lib`, as root
# (uprobes); needs perf and cc.
set -e
[ $# -eq 2 ] || { echo "usage: $0 BASE_LIB_DIR NEW_LIB_DIR" >&2; exit 2; }
command -v perf >/dev/null || { echo "$0: perf is not installed" >&2; exit 2; }
. "$(dirname "$0")/launch-ab-lib.sh"
prepare_launch_ab "$1" "$2"
export NPUEMU_NODE=$B/node
M=${MODE:-v} N=${N:-1} R=${REPS:-100}
# probes: ab_base_retake, ab_base_preempt, ab_new_retake, ab_new_preempt
trap 'perf probe -q -d "probe_libnpuemu_core:ab_*" 2>/dev/null; rm -rf "$B"' EXIT
perf probe -q -d "probe_libnpuemu_core:ab_*" 2>/dev/null || true
for v in base new; do
  d=$([ $v = base ] && echo "$1" || echo "$2")
  perf probe -q -x "$(cd "$d" && pwd)/libnpuemu_core.so" --add "ab_${v}_retake=runtime.retake"
  perf probe -q -x "$(cd "$d" && pwd)/libnpuemu_core.so" --add "ab_${v}_preempt=runtime.preemptone"
done
raw=$B/raw.txt
# run VARIANT LIBDIR: one process; one line "VARIANT figure cpu_ms ivcsw retakes preempts".
run() {
  LD_LIBRARY_PATH=$2 perf stat -x, -o "$B/stat" -e "probe_libnpuemu_core:ab_$1_retake" -e "probe_libnpuemu_core:ab_$1_preempt" \
    "$B/launch_ab" "$M" "$N" "$R" > "$B/out"
  # lines: MODE wall VALUE UNIT cpu_ns NS ivcsw_per_s K. The figure of all
  # repetitions: a rate (GB/s, M/s) is averaged harmonically, a time
  # arithmetically.
  awk -v v="$1" -v re="$(grep _retake "$B/stat" | cut -d, -f1)" -v pr="$(grep _preempt "$B/stat" | cut -d, -f1)" '
    { n++; c += $6; k += $8; if ($4 ~ /\/s$/) h += 1 / $3; else h += $3 }
    END { f = ($4 ~ /\/s$/) ? n / h : h / n; printf "%s %.3f %.3f %.0f %s %s\n", v, f, c / n / 1e6, k / n, re, pr }' "$B/out" >> "$raw"
}
for i in $(seq 1 "${ROUNDS:-21}"); do
  if [ $((i % 2)) = 1 ]; then run base "$1"; run new "$2"; else run new "$2"; run base "$1"; fi
done
awk 'function med(s,  x, n, p, q, t) { n = split(s, x, " ")
  for (p = 1; p <= n; p++) for (q = p + 1; q <= n; q++) if (x[q] < x[p]) { t = x[p]; x[p] = x[q]; x[q] = t }
  return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }
  { for (j = 2; j <= 6; j++) col[$1, j] = col[$1, j] " " $j }
  END { printf "%-5s %12s %12s %10s %10s %10s  (medians of '"${ROUNDS:-21}"' processes of launch_ab '"$M $N $R"')\n", "build", "figure", "cpu ms/rep", "ivcsw/s", "retakes", "preempts"
    for (b = 0; b < 2; b++) { v = b ? "new" : "base"
      printf "%-5s %12.3f %12.3f %10.0f %10.0f %10.0f\n", v, med(col[v, 2]), med(col[v, 3]), med(col[v, 4]), med(col[v, 5]), med(col[v, 6]) } }' "$raw"
