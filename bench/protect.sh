#!/bin/bash
# protect.sh: device memory protection on vs off (docs/hardening.md). Builds
# bench/c/protect_bench.c and examples/kernels/oob.c against emu/, runs the
# program ROUNDS times (default 5) with NPUEMU_PROTECT=1 and =0 alternated,
# and prints the median of each metric per setting and the ratio on/off.
set -e
R=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cc -O2 -Wall -Werror -I "$R/emu/include" -o "$T/protect_bench" "$R/bench/c/protect_bench.c" -L "$R/emu/lib" -lascendcl
cc -O2 -shared -fPIC -I "$R/emu/include" -o "$T/oob.so" "$R/examples/kernels/oob.c"
for i in $(seq 1 "${ROUNDS:-5}"); do
  for p in 1 0; do
    NPUEMU_PROTECT=$p LD_LIBRARY_PATH="$R/emu/lib" "$T/protect_bench" "$T/oob.so" | sed "s/^/$p /"
  done
done > "$T/raw"
med() { grep "^$1 $2 " "$T/raw" | awk '{print $3}' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for m in $(awk '{print $2}' "$T/raw" | sort -u); do
  on=$(med 1 "$m"); off=$(med 0 "$m"); unit=$(grep -m1 " $m " "$T/raw" | awk '{print $4}')
  awk -v m="$m" -v on="$on" -v off="$off" -v u="$unit" 'BEGIN { printf "%-18s on %10.3f %s  off %10.3f %s  on/off %.2f\n", m, on, u, off, u, on / off }'
done
