#!/bin/bash
# count-locked.sh: locked (atomic read-modify-write) instructions per
# launch path operation. Each one waits for the core's store buffer to
# drain and takes its cache line exclusive: on a quiet host a launch +
# synchronize runs ~3 instructions a cycle, so its ~30 locked instructions
# (~20 cycles each) are a third of its time, a share the instruction
# count (count-launch-instr.sh) does not show. Counted, like it, by
# Valgrind's callgrind (per instruction, --dump-instr=yes): every executed
# instruction with a lock prefix or an xchg with a memory operand
# (implicitly locked), in every object of the process, at N1 and N2
# operations of bench/c/launch_ab.c, and printed as
# (count(N2) - count(N1)) / (N2 - N1), with the functions that execute
# most of them.
#   bench/count-locked.sh BASE_LIB_DIR NEW_LIB_DIR [MODES]
# MODES as count-launch-instr.sh's (default "s e"). TOP (default 12) is
# how many functions are listed per mode and library. Run from the
# repository root after `make lib`; needs valgrind and objdump.
set -e
[ $# -ge 2 ] || { echo "usage: $0 BASE_LIB_DIR NEW_LIB_DIR [MODES]" >&2; exit 2; }
for c in valgrind objdump; do command -v $c >/dev/null || { echo "$0: $c is not installed" >&2; exit 2; }; done
N1=${N1:-10000} N2=${N2:-30000}
. "$(dirname "$0")/launch-ab-lib.sh"
prepare_launch_ab "$1" "$2"
export GODEBUG=asyncpreemptoff=1 NPUEMU_NODE=${NPUEMU_NODE:-$B/node}
# locked OBJ: the addresses of OBJ's locked instructions, one per line.
locked() {
  objdump -d --no-show-raw-insn "$1" 2>/dev/null |
    awk '/^ *[0-9a-f]+:/ { a = $1; sub(":", "", a); i = $0; sub(/^ *[0-9a-f]+:[ \t]*/, "", i)
           if (i ~ /^lock / || (i ~ /^xchg/ && i ~ /\(/)) print "0x" a }'
}
# count FILE: "function count" of the locked instructions a callgrind
# output file (absolute positions, uncompressed names) executed.
count() {
  grep '^ob=' "$1" | sort -u | while IFS= read -r l; do
    ob=${l#ob=}
    locked "$ob" | sed "s|^|$ob\t|"
  done > "$B/locked"
  awk -F'\t' 'FNR == NR { lk[$1, $2] = 1; next }
    /^ob=/ { ob = substr($0, 4); next }
    /^fn=/ { fn = substr($0, 4); next }
    /^calls=/ { skip = 1; next }
    /^0x/ { if (skip) { skip = 0; next } split($0, w, " "); if ((ob, w[1]) in lk) c[fn] += w[3]; next }
    END { for (f in c) print f "\t" c[f] }' "$B/locked" "$1"
}
printf "%-6s %12s %12s  (locked instructions per operation)\n" mode base new
for m in ${3:-s e}; do
  line="$m"
  for v in "$1" "$2"; do
    for n in $N1 $N2; do
      LD_LIBRARY_PATH=$v valgrind --tool=callgrind --dump-instr=yes --compress-pos=no --compress-strings=no \
        --callgrind-out-file="$B/cg.$n" "$B/launch_ab" $m $n >/dev/null 2>&1
      count "$B/cg.$n" > "$B/c.$n"
    done
    awk -F'\t' -v n1=$N1 -v n2=$N2 -v top=${TOP:-12} -v tag="$m $(basename "$v")" '
      FNR == NR { a[$1] = $2; next } { b[$1] = $2 }
      END { for (f in b) { d = (b[f] - a[f]) / (n2 - n1); t += d; if (d >= 0.05) print d "\t" f > "/dev/stderr" }
            printf "%.2f\n", t }' "$B/c.$N1" "$B/c.$N2" 2> "$B/fns" > "$B/total"
    line="$line $(printf "%12s" "$(cat "$B/total")")"
    { echo "  $m, $v: per function"; sort -rn "$B/fns" | head -"${TOP:-12}" | awk -F'\t' '{ printf "    %6.2f  %s\n", $1, $2 }'; } >> "$B/detail"
  done
  echo "$line"
done
cat "$B/detail"
