#!/bin/bash
# pkeys.sh: the protection keys of device memory on a CPU that has them
# (docs/hardening.md, "Protection keys"), as one prepared call on the device
# machine: memory_protect_host with its output, every conformance case with
# NPUEMU_PKEYS=1 (failures again with NPUEMU_PKEYS=0:
# conformance/run-cases.sh), and the cost — bench/scaling.sh on 16 and 2
# CPUs of emu/lib with keys, without, and of BEFORE_LIBDIR when given.
#   OUT=DIR bench/pkeys.sh [BEFORE_LIBDIR]
# On the device machine: make lib here, carry emu/lib, emu/compiler and
# emu/bin (the Ascend C and npu-smi cases need them) and BEFORE_LIBDIR;
# needs cc there. About two minutes.
set -u
OUT=${OUT:-/tmp/pkeys}
mkdir -p "$OUT"
grep -o -w 'pku\|ospke' /proc/cpuinfo | sort | uniq -c
(cd emu/lib && for n in libascendcl.so libacl_rt.so libacl_rt_impl.so libruntime.so libascend_hal.so; do
  [ -e $n ] || ln -sf libnpuemu.so $n; done)
echo "== memory_protect_host"
B=$(mktemp -d)
cc -g -O1 -Wall -Werror -I emu/include -I conformance/cases -o "$B/mph" conformance/cases/memory_protect_host.c \
  -L emu/lib -lascendcl -lpthread -ldl
NPUEMU_NODE=$B/node NPUEMU_PROTECT=1 NPUEMU_PKEYS=1 LD_LIBRARY_PATH=emu/lib timeout 20 "$B/mph"
echo "rc=$?"
echo "== every case with NPUEMU_PKEYS=1"
CASE_ENV=NPUEMU_PKEYS=1 P=${P:-12} timeout "${CASES_S:-100}" bash conformance/run-cases.sh > "$OUT/cases.txt" 2> "$OUT/cases.err"
awk '{print $2, $3}' "$OUT/cases.txt" | sort | uniq -c
grep -v " 0 *$\| 77 *$" "$OUT/cases.txt"
echo "== cost: keys / NPUEMU_PKEYS=0${1:+ / before}"
export ENV_keys="NPUEMU_PKEYS=1" ENV_nokeys="NPUEMU_PKEYS=0"
OUT=$OUT/scaling ROUNDS=${ROUNDS:-5} CPUSETS="16 2" timeout "${SCALING_S:-95}" bash bench/scaling.sh \
  keys=emu/lib nokeys=emu/lib ${1:+before=$1} > "$OUT/scaling.log" 2>&1
grep -E "launch_|la_[eshly] |sync_empty|h2d_4KiB|cross_queue|start_to" "$OUT/scaling/table.txt"
rm -rf "$B"
