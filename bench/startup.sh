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
L=$(cd "${1:-emu/lib}" && pwd)
(cd "$L" && for n in libascendcl.so libacl_rt.so libacl_rt_impl.so libruntime.so libascend_hal.so; do
  [ -e $n ] || ln -sf libnpuemu.so $n; done)
B=$(mktemp -d); trap 'rm -rf "$B"' EXIT
cc -O2 -Wall -Werror -I emu/include -o $B/startup_phases bench/c/startup_phases.c -L "$L" -lascendcl
export LD_LIBRARY_PATH=$L NPUEMU_NODE=$B/node
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
