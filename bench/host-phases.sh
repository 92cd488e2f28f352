#!/bin/bash
# host-phases.sh: is a slow launch + synchronize the host's doing or the
# process's? (docs/benchmarks.md, "Twenty-second session".) Runs two
# bench/c/phase_probe.c processes at once, both pinned to one CPU (CPU, 0),
# each alternating 2000 operations with a fixed ALU-bound loop, REPS (400)
# times, and prints:
# - for probe A (launch + synchronize): the share of its repetitions in a
#   slow phase (thread CPU time per operation over SLOW (1.4) times its
#   10th percentile), and the median times of the operation and of the
#   four reference loops (ALU: a dependent chain; ILP: independent sums
#   from L1; LOCK: atomic adds; L2: dependent loads over 256 KiB) in the
#   fast and in the slow ones;
# - for probe B (MODE_B: s, the same workload, or y, empty
#   synchronisations, or e, launches in a row): the median of its
#   operation time while A was fast and while A was slow, and how often B
#   was itself slow in each.
# If the slow phases are the process's (its layout, its threads, the Go
# runtime's state), B is slow no more often while A is slow than while A
# is fast; if they are the CPU's, B is slow at the same moments.
#   bench/host-phases.sh [LIBDIR]     LIBDIR holds libnpuemu.so (emu/lib)
# Run from the repository root after `make lib`; needs cc and taskset.
set -eu
command -v taskset >/dev/null || { echo "$0: taskset is not installed" >&2; exit 2; }
. "$(dirname "$0")/launch-ab-lib.sh"
L=$(cd "${1:-emu/lib}" && pwd)
vendor_names "$L"
B=$(mktemp -d); trap 'rm -rf "$B"' EXIT
CC=${CC:-cc}
$CC -O2 -Wall -Werror -I emu/include -o "$B/phase_probe" bench/c/phase_probe.c -L "$L" -lascendcl
$CC -shared -fPIC -O3 -march=native -Wall -Werror -I emu/include bench/c/bench_kernels.c -o "$B/k.so"
export KSO=$B/k.so LD_LIBRARY_PATH=$L
REPS=${REPS:-400} CPU=${CPU:-0} MODE_B=${MODE_B:-s}
NPUEMU_NODE=$B/nodeA taskset -c "$CPU" "$B/phase_probe" "$REPS" s > "$B/a" &
NPUEMU_NODE=$B/nodeB taskset -c "$CPU" "$B/phase_probe" "$REPS" "$MODE_B" > "$B/b"
wait
awk -v slow="${SLOW:-1.4}" -v mb="$MODE_B" '
function pct(arr, n, q,   i, j, t, x) { for (i = 1; i <= n; i++) x[i] = arr[i]
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
  return n ? x[int((n - 1) * q) + 1] : 0 }
function ref(name, f, nf, s, ns,   a, b) { a = pct(f, nf, .5); b = pct(s, ns, .5)
  printf "  %s: %.1f us fast, %.1f us slow (x%.2f)\n", name, a, b, ns && a ? b / a : 0 }
FNR == NR { na++; at[na] = $1; aop[na] = $2; for (k = 3; k <= 6; k++) aref[k, na] = $k; next }
{ nb++; bt[nb] = $1; bop[nb] = $2 }
END {
  athr = slow * pct(aop, na, 0.1); bthr = slow * pct(bop, nb, 0.1)
  for (i = 1; i <= na; i++)
    if (aop[i] > athr) { ns++; s_op[ns] = aop[i]; s3[ns] = aref[3, i]; s4[ns] = aref[4, i]; s5[ns] = aref[5, i]; s6[ns] = aref[6, i] }
    else { nf++; f_op[nf] = aop[i]; f3[nf] = aref[3, i]; f4[nf] = aref[4, i]; f5[nf] = aref[5, i]; f6[nf] = aref[6, i] }
  # each B repetition against the A repetition that was running when it ended
  j = 1
  for (i = 1; i <= nb; i++) {
    while (j < na && at[j] < bt[i]) j++
    if (bt[i] > at[na] || (j == 1 && bt[i] < at[1] - 5)) continue
    if (aop[j] > athr) { nbs++; bs[nbs] = bop[i]; if (bop[i] > bthr) bss++ } else { nbf++; bf[nbf] = bop[i]; if (bop[i] > bthr) bfs++ }
  }
  printf "probe A (launch + synchronize), %d repetitions of 2000 on CPU '"$CPU"':\n", na
  printf "  slow phases: %d of %d repetitions (%.1f %%)\n", ns, na, 100 * ns / na
  printf "  per operation: %.0f ns fast, %.0f ns slow (x%.2f)\n", pct(f_op, nf, .5), pct(s_op, ns, .5), ns ? pct(s_op, ns, .5) / pct(f_op, nf, .5) : 0
  ref("ALU loop", f3, nf, s3, ns); ref("ILP loop", f4, nf, s4, ns); ref("LOCK loop", f5, nf, s5, ns); ref("L2 chase", f6, nf, s6, ns)
  printf "probe B (mode %s), %d repetitions:\n", mb, nb
  printf "  while A fast: %.0f ns per operation, slow itself in %d of %d\n", pct(bf, nbf, .5), bfs, nbf
  printf "  while A slow: %.0f ns per operation, slow itself in %d of %d\n", pct(bs, nbs, .5), bss, nbs
}' "$B/a" "$B/b"
