#!/bin/bash
# device-check.sh: what is left to measure on a many-core machine, as one
# prepared call of the device tool (docs/benchmarks.md, "Sixteenth
# session"): bench/pkeys.sh (the protection keys: memory_protect_host,
# every conformance case with keys, and launch figures on 16 and on 2 CPUs
# of emu/lib with keys, without, and of BEFORE_LIBDIR), then
# bench/startup.sh (start-up phases, teardown, and the TLB-shootdown and
# call-function interrupts per start, on all CPUs and on two) of emu/lib
# and of BEFORE_LIBDIR, then, where perf is installed, bench/startup-tlb.sh
# (what sent those interrupts) on all CPUs and on two, then
# bench/cgroup-lanes.sh (kernels in a cgroup of 2 CPUs' quota: the lanes
# at the limit against one per CPU), then bench/host-phases.sh (whether
# that host's slow launch + synchronize phases are the CPU's, and what
# they do to reference loops).
#   OUT=DIR bench/device-check.sh [BEFORE_LIBDIR]
# Here: `make lib`, and BEFORE_LIBDIR (an ignored folder, e.g. devrun/base)
# holding an older build's libnpuemu.so and libnpuemu_core.so. The device
# call carries emu/lib, emu/compiler, emu/bin and BEFORE_LIBDIR and needs
# about four minutes (give it timeout_s 420). Run from the repository root.
set -u
OUT=${OUT:-/tmp/device-check}
mkdir -p "$OUT"
echo "== protection keys and launch figures (bench/pkeys.sh)"
OUT=$OUT/pkeys bash bench/pkeys.sh ${1:+"$1"}
for d in emu/lib ${1:+"$1"}; do
  echo "== start-up of $d (bench/startup.sh)"
  ROUNDS=${STARTUP_ROUNDS:-2} N=${STARTUP_N:-100} timeout "${STARTUP_S:-60}" bash bench/startup.sh "$d" |
    grep -E " (aclInit|total|teardown|lifetime) median|interrupts per start" | tee -a "$OUT/startup.txt"
done
if command -v perf >/dev/null; then
  for c in "" 0,1; do
    echo "== what interrupts the other CPUs at start-up, CPUs ${c:-all} (bench/startup-tlb.sh)"
    CPUS=$c timeout 60 bash bench/startup-tlb.sh emu/lib | tee -a "$OUT/startup-tlb.txt"
  done
fi
echo "== kernels in a 2-CPU cgroup: lanes at the limit against one per CPU (bench/cgroup-lanes.sh)"
QUOTA=2 ROUNDS=${CGROUP_ROUNDS:-5} timeout 90 bash bench/cgroup-lanes.sh emu/lib | tee "$OUT/cgroup-lanes.txt"
echo "== the host's slow phases (bench/host-phases.sh)"
REPS=${PHASE_REPS:-1500} timeout 60 bash bench/host-phases.sh emu/lib | tee "$OUT/host-phases.txt"
