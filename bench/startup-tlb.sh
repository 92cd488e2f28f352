#!/bin/bash
# startup-tlb.sh: what makes a process start interrupt the machine's other
# CPUs (docs/benchmarks.md, "Nineteenth session"). A TLB flush of a
# process's memory must interrupt every other CPU its threads have run on,
# so the more CPUs a start spreads over, the more interrupts it sends
# (bench/startup.sh counts those the CPUs received). This records the
# kernel's tlb:tlb_flush events, with call chains, over N (20) children of
# bench/c/startup_phases.c (aclInit, aclrtSetDevice, aclrtMalloc and
# teardown, then exit), and prints, per start, the flushes that sent
# interrupts ("remote IPI send"), by what caused them in the kernel (a
# write to a page first read, which replaces the shared zero page: "COW";
# munmap; mprotect; ...) and by the user code that did it (the Go runtime,
# the Go standard library, npuemu's own Go code, libc, the loader).
#   bench/startup-tlb.sh [LIBDIR]    LIBDIR as bench/startup.sh's (emu/lib)
# CPUS (all) pins the children with taskset -c CPUS. Run from the
# repository root as root (or with perf_event_paranoid -1); needs cc and
# perf (bench/launch-ab-lib.sh builds startup_phases).
set -eu
command -v perf >/dev/null || { echo "$0: perf is not installed" >&2; exit 2; }
. "$(dirname "$0")/launch-ab-lib.sh"
prepare_startup "${1:-emu/lib}" # B, startup_phases, the environment
N=${N:-20}
pin=""; [ -n "${CPUS:-}" ] && pin="taskset -c $CPUS"
$pin perf record -q -g -e tlb:tlb_flush -o $B/perf.data -- $B/startup_phases $N tlb >/dev/null
perf script -i $B/perf.data 2>/dev/null | awk -v n=$N '
  function done_ev() {
    if (ev && send && pid != parent) { k = (cause == "" ? "other" : cause) " | " (user == "" ? "kernel only" : user); c[k]++; total++ }
    ev = 0
  }
  /tlb:tlb_flush:/ {
    done_ev(); ev = 1; send = ($0 ~ /remote IPI send/); pid = $2; if (parent == "") parent = pid
    cause = ""; user = ""; next
  }
  ev && NF >= 2 {
    sym = $2; sub(/\+0x[0-9a-f]+$/, "", sym); dso = $NF
    if (dso ~ /kallsyms/) {
      if (cause != "") next
      if (sym == "do_wp_page") cause = "COW (write after a read)"
      else if (sym ~ /munmap|vms_clear_ptes/) cause = "munmap"
      else if (sym ~ /mprotect/) cause = "mprotect"
      else if (sym ~ /madvise/) cause = "madvise"
      else if (sym ~ /execve|load_elf_binary|setup_arg_pages/) cause = "exec"
      else if (sym ~ /exit_mmap|do_exit/) cause = "exit"
    } else if (user == "") {
      if (sym ~ /^(internal\/runtime\/syscall|syscall\.)/) next # the wrapper: its caller did it
      if (dso ~ /libnpuemu_core/) user = (sym ~ /^runtime\./ ? "Go runtime" : sym ~ /npuemu/ ? "npuemu (Go): " sym : "Go library: " sym)
      else if (dso ~ /libc\.so/) user = "libc"
      else if (dso ~ /ld-linux/) user = "loader"
      else if (sym != "[unknown]") { d = dso; gsub(/[()]/, "", d); sub(/.*\//, "", d); user = d }
    }
    next
  }
  /^$/ { done_ev() }
  END {
    done_ev()
    printf "flushes that interrupted other CPUs, per start (%d starts): %.2f\n", n, total / n
    for (k in c) printf "%8.2f  %s\n", c[k] / n, k | "sort -rn"
  }'
