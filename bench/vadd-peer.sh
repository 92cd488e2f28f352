#!/bin/bash
# vadd-peer.sh: the 40-block vector add beside PoCL's, the two processes
# alternated ROUNDS (7) times, optionally with HOG (0) processes of
# `yes > /dev/null` keeping CPUs busy the whole time (docs/benchmarks.md,
# "Twenty-second session"). `go run ./bench` measures the two programs one
# after the other, seconds apart, so a busy spell can fall on one only;
# here each pair runs back to back under the same load. npuemu's side is
# bench/c/launch_ab.c's mode v (vector_add_40blk_16Mi_GBps's loop: 10
# launches of 40 blocks, then a synchronisation); PoCL's is the whole of
# ocl_peer.c, whose vector add is its last workload. A third program,
# bench/c/vadd_raw.c, runs the same 40 slices on one thread per CPU over
# files of /dev/shm, without npuemu: what the host reaches on such memory.
# Prints the three medians and npuemu's ratios to the other two.
#   bench/vadd-peer.sh [LIBDIR]     LIBDIR holds libnpuemu.so (emu/lib)
# Run from the repository root after `make lib` and bench/install-pocl.sh;
# PEER_DIR (../shared/bench) holds ocl_peer.c.
set -eu
. "$(dirname "$0")/launch-ab-lib.sh"
L=$(cd "${1:-emu/lib}" && pwd)
prepare_launch_ab "$L" "$L" # B, launch_ab, KSO
${CC:-cc} -O2 -o "$B/ocl_peer" "${PEER_DIR:-../shared/bench}/ocl_peer.c" -lOpenCL
${CC:-cc} -O3 -march=native -pthread -Wall -Werror -o "$B/vadd_raw" bench/c/vadd_raw.c
# A node of its own in /dev/shm, where `go run ./bench`'s default node is:
# the file system behind device memory sets its page size (docs/benchmarks.md,
# "Twenty-second session").
export NPUEMU_NODE=vaddpeer$$
hogs=()
for _ in $(seq 1 "${HOG:-0}"); do yes > /dev/null & hogs+=($!); done
trap 'for h in ${hogs[@]+"${hogs[@]}"}; do kill "$h"; done; rm -rf "$B" "/dev/shm/npuemu-$NPUEMU_NODE"' EXIT
for _ in $(seq 1 "${ROUNDS:-7}"); do
  LD_LIBRARY_PATH=$L "$B/launch_ab" v 10 | awk '{print "npuemu", $3}'
  "$B/ocl_peer" | awk '/^vector_add_16Mi_GBps/ {print "pocl", $2}'
  "$B/vadd_raw" /dev/shm | awk '{print "raw", $3}'
done > "$B/raw"
awk 'function med(s,  x, n, p, q, t) { n = split(s, x, " ")
  for (p = 1; p <= n; p++) for (q = p + 1; q <= n; q++) if (x[q] < x[p]) { t = x[p]; x[p] = x[q]; x[q] = t }
  return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }
  { v[$1] = v[$1] " " $2 }
  END { a = med(v["npuemu"]); b = med(v["pocl"]); c = med(v["raw"])
    printf "vector add, 16 Mi floats, medians of %d rounds, %d busy CPUs: npuemu (40 blocks) %.2f GB/s, PoCL %.2f GB/s (%.2fx), the host without npuemu %.2f GB/s (%.2fx)\n", '"${ROUNDS:-7}"', '"${HOG:-0}"', a, b, b ? a / b : 0, c, c ? a / c : 0 }' "$B/raw"
