#!/bin/bash
# run-cases.sh: every case of conformance/cases compiled and run the way the
# Go runner does (conformance/target.go: its compiler flags, the case's
# link, env and a private node; NPUEMU_* of the caller removed), for hosts
# with a C compiler and no Go (the device machine: docs/hardening.md,
# "Protection keys"). P cases at a time (default 8); one line per case,
# "NAME RC [ENV]" (0 pass, 77 skip, 124 timeout after 60 s, BUILD: did not
# compile), the output tails of failures on stderr. CASE_ENV ("K=V ...") is
# added to every case's environment after its own env, as the runner's
# ExtraEnv (e.g. CASE_ENV=NPUEMU_PKEYS=1); each failure is run once more
# with RERUN_ENV after that (default NPUEMU_PKEYS=0) to tell a setting's
# failure from the host's. Run from the repository root after `make lib` (or with
# emu/lib carried there). It does not read the `needs:` directives: a case
# that needs what the host lacks skips itself or fails.
#   conformance/run-cases.sh > results.txt
R=$PWD
L=$R/emu/lib
W=$(mktemp -d)
one() {
  local f=$1 x=${2:-} n d env link cc node rc
  n=$(basename "${f%.*}")
  d=$W/$n${x:+-rerun}
  mkdir -p "$d"
  directive() { sed -n "s@^\(/\*\| \*\) $1: \(.*\)@\2@p" "$f" | head -1 | sed 's@ *\*/$@@'; }
  env=$(directive env)
  link=$(directive link)
  [ -z "$link" ] && link=-lascendcl
  cc=cc
  case $f in *.cc) cc=c++ ;; esac
  if ! $cc -g -O1 -Wall -Werror -Wno-deprecated-declarations -I "$R/emu/include" -I "$(dirname "$f")" \
      -o "$d/bin" "$f" -L "$L" $link -lpthread -ldl > "$d/build.txt" 2>&1; then
    echo "$n BUILD $x"
    return
  fi
  node=NPUEMU_NODE=/dev/shm/npuemu-runcases-$$-$n
  case "$env" in *NPUEMU_NODE=*) node= ;; esac
  (cd "$d" && env $(env | grep -o '^NPUEMU_[A-Z_]*' | sed 's/^/-u /') LD_LIBRARY_PATH="$L" $node $env ${CASE_ENV:-} $x \
    timeout 60 ./bin > out.txt 2> err.txt)
  rc=$?
  rm -rf "/dev/shm/npuemu-runcases-$$-$n"
  echo "$n $rc $x"
  if [ $rc != 0 ] && [ $rc != 77 ]; then
    { tail -5 "$d/out.txt"; tail -5 "$d/err.txt"; } | sed "s/^/  $n: /" >&2
  fi
}
export -f one
export R L W CASE_ENV
ls "$R"/conformance/cases/*.c "$R"/conformance/cases/*.cc | xargs -P "${P:-8}" -I{} bash -c 'one {}' | sort > "$W/res.txt"
cat "$W/res.txt"
awk '$2 != 0 && $2 != 77 && $2 != "BUILD" {print $1}' "$W/res.txt" | while read -r n; do
  one "$(ls "$R"/conformance/cases/"$n".c* | head -1)" "${RERUN_ENV:-NPUEMU_PKEYS=0}"
done
rm -rf "$W"
