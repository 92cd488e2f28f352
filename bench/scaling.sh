#!/bin/bash
# scaling.sh: issue #15's many-core column (docs/benchmarks.md). Runs
# npuemu_bench and bench/c/launch_ab.c against one or more builds of the
# library on CPU sets of all, 8, 4 and 2 CPUs (taskset -c 0-K; sets larger
# than the host are skipped), the builds and the sets alternated, ROUNDS
# times (default 5), and on each set the machine's limits (bench/c/memcpy_mt.c; limits.c of
# ../shared/bench where LIMITS names it). PROFILE=1 adds one Go CPU profile
# per build of launch_ab's "s" and "m" modes on all CPUs (NPUEMU_CPUPROFILE).
#   OUT=DIR bench/scaling.sh NAME=LIBDIR [NAME=LIBDIR ...]
# ENV_NAME="VAR=value ..." runs build NAME's programs with those variables
# (e.g. two names for one folder, one with NPUEMU_THREADS=4); CPUSETS
# overrides the list of CPU counts (CPUSETS="16 2": the first round's
# two columns; an entry with a comma is a CPU list for taskset, e.g. "0,8"
# for two CPUs of different cores where 0,1 are one core's threads), N (50000) launch_ab's operations, EXTRA=1 adds
# replay_bench and svm_bench once per build and set, and NOCC=1 uses
# $PREBUILT even where there is a compiler.
# Run from the repository root. The programs are built with cc when the
# host has one, else taken from $PREBUILT (npuemu_bench launch_ab memcpy_mt
# replay_bench svm_bench limits bench_kernels.so, built elsewhere). Each LIBDIR holds libnpuemu.so
# and libnpuemu_core.so; the vendor names are linked here.
# Output: $OUT/raw.txt "cpus build program metric value unit [cpu_ns N]",
# $OUT/table.txt the median of each, $OUT/info.txt the host.
set -u
OUT=${OUT:-/tmp/scaling}; mkdir -p "$OUT"
RAW=$OUT/raw.txt; : > "$RAW"; : > "$OUT/err.txt"
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
B=$(mktemp -d)
NCPU=$(nproc)
{ echo "cpus=$NCPU $(uname -r)"; grep -m1 "model name" /proc/cpuinfo; lscpu 2>/dev/null | grep -i "numa\|socket\|thread"
  for c in 0 1; do echo "cpu$c siblings: $(cat /sys/devices/system/cpu/cpu$c/topology/thread_siblings_list 2>/dev/null)"; done; } > "$OUT/info.txt"
for b in "$@"; do
  d=${b#*=}
  (cd "$d" && for n in libascendcl.so libacl_rt.so libacl_rt_impl.so libruntime.so libascend_hal.so; do ln -sf libnpuemu.so $n; done)
done
BUILDS=""; for b in "$@"; do BUILDS="$BUILDS ${b%%=*}=$(cd "${b#*=}" && pwd)"; done
CC=$(command -v cc || command -v gcc || true); [ -n "${NOCC:-}" ] && CC=
if [ -n "$CC" ]; then
  $CC -O2 -Wall -Werror -o $B/memcpy_mt bench/c/memcpy_mt.c -lpthread
  for p in npuemu_bench launch_ab replay_bench svm_bench; do
    $CC -O2 -Wall -Werror -I emu/include -o $B/$p bench/c/$p.c -L "${1#*=}" -lascendcl -lpthread 2>>"$OUT/err.txt" || echo "build $p failed" >> "$OUT/err.txt"
  done
  $CC -shared -fPIC -O3 -march=native -I emu/include bench/c/bench_kernels.c -o $B/bench_kernels.so
  [ -n "${LIMITS:-}" ] && $CC -O2 -o $B/limits "$LIMITS" -lpthread
  export NPUEMU_BENCH_KERNELS=$B/bench_kernels.so
else
  cp "$PREBUILT"/* $B/; export NPUEMU_BENCH_KERNELS=$B/bench_kernels.so
fi
echo "cc=$CC" >> "$OUT/info.txt"
export KSO=$NPUEMU_BENCH_KERNELS
sets=""; command -v taskset >/dev/null || CPUSETS=$NCPU
for k in ${CPUSETS:-$NCPU 8 4 2}; do case $k in *,*) sets="$sets $k"; continue;; esac
  [ $k -le $NCPU ] && case " $sets " in *" $k "*) ;; *) sets="$sets $k";; esac; done
run() { # cpus build program args...
  local c=$1 v=$2 p=$3; shift 3
  local lib="" b
  for b in $BUILDS; do [ "${b%%=*}" = "$v" ] && lib=${b#*=}; done
  local e=ENV_$v pin=""
  case $c in *,*) pin="taskset -c $c";; *) [ $c -lt $NCPU ] && pin="taskset -c 0-$((c - 1))";; esac
  env ${!e:-} LD_LIBRARY_PATH=$lib timeout 120 $pin $B/$p "$@" 2>>"$OUT/err.txt" |
    sed "s/^/c$c $v $p /" >> "$RAW"
}
# Rounds outside, CPU sets inside: a host's speed drifts over tens of
# seconds (docs/benchmarks.md, "Fifteenth session"), so every set samples
# the same stretch of time.
for i in $(seq 1 "${ROUNDS:-5}"); do
  for c in $sets; do
    for b in $BUILDS; do
      v=${b%%=*}
      run $c $v npuemu_bench
      for m in s e h l m y; do run $c $v launch_ab $m ${N:-50000}; done
    done
    run $c none memcpy_mt
    [ -x $B/limits ] && run $c none limits
    echo "c$c round $i at $(el)s"
  done
done
if [ -n "${EXTRA:-}" ]; then # the replay and SVM benchmarks, once per build and set
  for c in $sets; do
    for b in $BUILDS; do run $c ${b%%=*} replay_bench; run $c ${b%%=*} svm_bench; done
  done
fi
if [ -n "${PROFILE:-}" ]; then
  for b in $BUILDS; do
    v=${b%%=*}
    for m in s m; do
      NPUEMU_CPUPROFILE=$OUT/prof_${v}_$m.pb.gz run $NCPU $v launch_ab $m 400000
    done
  done
fi
echo "done at $(el)s"
# launch_ab lines: "MODE wall VALUE UNIT cpu_ns N" -> metric la_MODE (wall) and la_MODE_cpu
awk '$3=="launch_ab"{print $1, $2, "la_"$4, $6; print $1, $2, "la_"$4"_cpu", $9; next} {print $1, $2, $4, $5}' "$RAW" |
awk '{k=$1" "$3; v[$2" "k]=v[$2" "k]" "$4; keys[k]=1; if(!($2 in seen)){seen[$2]=1; order[++nb]=$2}}
 function med(s,  x,n,p,q,t){n=split(s,x," "); if(n==0) return "-"
   for(p=1;p<=n;p++)for(q=p+1;q<=n;q++)if(x[q]+0<x[p]+0){t=x[p];x[p]=x[q];x[q]=t}
   return n%2?x[(n+1)/2]:(x[n/2]+x[n/2+1])/2}
 END{printf "%-5s %-34s", "0cpus", "metric"; for(j=1;j<=nb;j++) printf " %-12s", order[j]; print ""
   for(k in keys){split(k,a," "); printf "%-5s %-34s", a[1], a[2]
   for(j=1;j<=nb;j++) printf " %-12s", med(v[order[j]" "k]); print ""}}' | sort -k1,1V -k2 | sed 's/^0cpus/cpus /' | tee "$OUT/table.txt"
rm -rf "$B"
