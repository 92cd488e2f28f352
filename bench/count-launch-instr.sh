#!/bin/bash
# count-launch-instr.sh: instructions per launch path operation, counted
# by Valgrind's cachegrind (deterministic where wall and CPU times on a
# shared host are not). Runs bench/c/launch_ab.c against two library
# folders, each workload at N1 and N2 operations, and prints
# (count(N2) - count(N1)) / (N2 - N1): the whole process, and the
# emulator's own Go code (acl, rt/core, tsfw, libfake; the front library,
# built without line information, counts in the whole process only).
# The launch loop's lanes poll while they wait, so its whole-process count
# moves by a few percent from one run to the next; the emulator's own code
# on the launching thread does not.
#   bench/count-launch-instr.sh BASE_LIB_DIR NEW_LIB_DIR [MODES]
# MODES defaults to "s e" (launch + synchronize, launch loop); "h" and "l"
# are the same with aclrtLaunchKernelWithHostArgs, "d" and "n" with
# aclrtLaunchKernel; "y" is an
# empty stream synchronisation, "c" a 4 KiB synchronous host-to-device copy. Run from the
# repository root after `make lib`; needs valgrind.
set -e
[ $# -ge 2 ] || { echo "usage: $0 BASE_LIB_DIR NEW_LIB_DIR [MODES]" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed" >&2; exit 2; }
N1=${N1:-10000} N2=${N2:-30000}
. "$(dirname "$0")/launch-ab-lib.sh"
prepare_launch_ab "$1" "$2"
export GODEBUG=asyncpreemptoff=1 NPUEMU_NODE=${NPUEMU_NODE:-$B/node}
# sum FILE: "total own" instruction counts of a cachegrind output file.
sum() {
  awk '/^fl=/ { fl = substr($0, 4) } /^fn=/ { own = (fl ~ /libfake\// || $0 ~ /npuemu\/npuemu\/(acl|rt\/core|tsfw)\.|^fn=main\./) }
       /^[0-9]/ { t += $2; if (own) o += $2 } END { printf "%d %d\n", t, o }' "$1"
}
printf "%-6s %14s %14s %14s %14s  (instructions per operation)\n" mode "all base" "all new" "own base" "own new"
for m in ${3:-s e}; do
  line="$m"
  for v in "$1" "$2"; do
    for n in $N1 $N2; do
      LD_LIBRARY_PATH=$v valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$B/cg.$n" "$B/launch_ab" $m $n >/dev/null 2>&1
    done
    read -r t1 o1 < <(sum "$B/cg.$N1")
    read -r t2 o2 < <(sum "$B/cg.$N2")
    eval "all_$([ "$v" = "$1" ] && echo base || echo new)=$(( (t2 - t1) / (N2 - N1) )) own_$([ "$v" = "$1" ] && echo base || echo new)=$(( (o2 - o1) / (N2 - N1) ))"
  done
  printf "%-6s %14d %14d %14d %14d\n" "$m" "$all_base" "$all_new" "$own_base" "$own_new"
done
