#!/bin/bash
# startup.sh: where start_to_first_malloc_ms goes, on all CPUs and on two
# (bench/c/startup_phases.c; docs/benchmarks.md, "Fifteenth session"). For
# each of ROUNDS (3) rounds and each CPU set (all, then taskset -c 0-1), N
# (100) spawned children, with GOMAXPROCS as the process would have it and
# with GOMAXPROCS=2; around each batch the kernel's TLB-shootdown and
# function-call interrupt counts (/proc/interrupts: TLB, CAL), whose
# difference / N is what one start cost the other CPUs.
#   bench/startup.sh [LIBDIR]     LIBDIR holds libnpuemu.so and libnpuemu_core.so (emu/lib)
# Run from the repository root; needs cc.
set -eu
. "$(dirname "$0")/launch-ab-lib.sh"
prepare_startup "${1:-emu/lib}" # B, startup_phases, the environment
N=${N:-100}
irq() { awk '/TLB|CAL/{s=0; for(i=2;i<=NF;i++) if($i ~ /^[0-9]+$/) s+=$i; printf "%s ", s}' /proc/interrupts; }
for r in $(seq 1 "${ROUNDS:-3}"); do
  for set in all 0-1; do
    for g in default 2; do
      pin=""; [ $set != all ] && pin="taskset -c $set"
      e=""; [ $g != default ] && e="GOMAXPROCS=$g"
      a=($(irq)); env $e $pin $B/startup_phases $N "r$r cpus=$set gomaxprocs=$g" > $B/out; b=($(irq))
      cat $B/out
      [ ${#a[@]} -eq 2 ] && echo "r$r cpus=$set gomaxprocs=$g interrupts per start: CAL $(( (b[0] - a[0]) / N )) TLB $(( (b[1] - a[1]) / N ))"
    done
  done
done
