#!/bin/bash
# compare-libs.sh: runs the benchmark programs against two builds of the
# library (base/ and new/, each holding a libnpuemu.so, and its libnpuemu_core.so
# when it is a front library: docs/internals.md), alternated, 5 times
# each (ROUNDS), on all CPUs and then under `taskset -c 0,1`, plus limits.c;
# raw "config build metric value unit" lines go to $OUT/raw.txt and the
# medians to $OUT/table.txt. Used for docs/benchmarks.md, "Issue #15", on a
# machine without Go: lay out a folder as
#   DIR/run.sh (this file)  DIR/base/libnpuemu.so  DIR/new/libnpuemu.so
#   DIR/src/bench/c/*.c  DIR/src/emu/include  DIR/limits.c
#   DIR/prebuilt/ (npuemu_bench, replay_bench, svm_bench, limits and
#                  bench_kernels.so built elsewhere, used without a compiler)
# and run `OUT=/some/dir bash DIR/run.sh`. QUICK=1 passes --quick.
D=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
RAW=$OUT/raw.txt; : > "$RAW"
T0=$(date +%s); Q=${QUICK:+--quick}
el() { echo $(( $(date +%s) - T0 )); }
CC=$(command -v cc || command -v gcc || true)
echo "cpus=$(nproc) cc=$CC $(uname -r)" | tee "$OUT/info.txt"
grep -m1 "model name" /proc/cpuinfo >> "$OUT/info.txt"; lscpu 2>/dev/null | grep -i "numa\|socket\|thread" >> "$OUT/info.txt"
for v in base new; do (cd "$D/$v" && for n in libascendcl.so libacl_rt.so libacl_rt_impl.so libruntime.so libascend_hal.so; do ln -sf libnpuemu.so $n; done); done
B=/tmp/devb; mkdir -p $B
if [ -n "$CC" ]; then
  for p in npuemu_bench replay_bench svm_bench; do
    $CC -O2 -Wall -Werror -I "$D/src/emu/include" -o $B/$p "$D/src/bench/c/$p.c" -L "$D/new" -lascendcl -lpthread || echo "build $p failed"
  done
  $CC -O2 -o $B/limits "$D/limits.c" -lpthread
else
  cp "$D/prebuilt/"* $B/; export NPUEMU_BENCH_KERNELS=$D/prebuilt/bench_kernels.so
fi
run() { # cfg variant prog args
  local cfg=$1 v=$2 p=$3; shift 3
  local pre=""; [ "$cfg" = c2 ] && pre="taskset -c 0,1"
  if [ "$v" = none ]; then $pre timeout 60 $B/$p "$@" 2>>"$OUT/err.txt" | sed "s/^/$cfg $v /" >> "$RAW"
  else LD_LIBRARY_PATH=$D/$v $pre timeout 90 $B/$p "$@" 2>>"$OUT/err.txt" | sed "s/^/$cfg $v /" >> "$RAW"; fi
}
for cfg in c16 c2; do
  for i in $(seq 1 ${ROUNDS:-5}); do
    [ $(el) -gt 330 ] && break
    run $cfg base npuemu_bench $Q; run $cfg new npuemu_bench $Q
    echo "$cfg round $i at $(el)s"
  done
  for i in 1 2 3; do run $cfg none limits; done
done
for cfg in c16 c2; do
  [ $(el) -gt 360 ] && break
  for v in base new; do run $cfg $v replay_bench $Q; run $cfg $v svm_bench $Q; done
done
echo "done at $(el)s"
awk '{k=$1" "$3; v[$2" "k]=v[$2" "k]" "$4; keys[k]=1}
 END{for(k in keys){split(k,a," "); printf "%-4s %-32s", a[1], a[2];
   for(j=0;j<3;j++){vv=(j==0?"base":(j==1?"new":"none")); s=v[vv" "k]; n=split(s,x," ");
     if(n==0){printf " %-12s","-";continue}
     for(p=1;p<=n;p++)for(q=p+1;q<=n;q++)if(x[q]<x[p]){t=x[p];x[p]=x[q];x[q]=t}
     printf " %-12s", (n%2?x[(n+1)/2]:(x[n/2]+x[n/2+1])/2)} print ""}}' "$RAW" | sort | tee "$OUT/table.txt"
