# launch-ab-lib.sh: sourced by the scripts that run benchmark programs
# against two library folders, and by the start-up scripts
# (prepare_startup). Run from the repository root.

# vendor_names DIR...: adds the vendor library names each folder lacks,
# as links to its libnpuemu.so.
vendor_names() {
  local v n
  for v in "$@"; do
    (cd "$v" && for n in libascendcl.so libacl_rt.so libacl_rt_impl.so libruntime.so libascend_hal.so; do [ -e $n ] || ln -sf libnpuemu.so $n; done)
  done
}

# prepare_launch_ab BASE NEW: a temporary folder B (removed at exit), the
# vendor names in both folders, bench/c/launch_ab.c built there (linked
# against NEW; LD_LIBRARY_PATH picks the library at run time) with the
# benchmark kernels it loads (KSO, exported). Sets CC (default cc).
prepare_launch_ab() {
  B=$(mktemp -d)
  trap 'rm -rf "$B"' EXIT
  CC=${CC:-cc}
  vendor_names "$1" "$2"
  $CC -O2 -Wall -Werror -I emu/include -o "$B/launch_ab" bench/c/launch_ab.c -L "$2" -lascendcl -lpthread
  $CC -shared -fPIC -O3 -march=native -Wall -Werror -I emu/include bench/c/bench_kernels.c -o "$B/k.so"
  export KSO=$B/k.so
}

# prepare_startup LIBDIR: the vendor names in LIBDIR, a temporary folder B
# (removed at exit) with bench/c/startup_phases.c built there, and
# LD_LIBRARY_PATH and NPUEMU_NODE (a node of its own in B) exported for it.
prepare_startup() {
  local l
  l=$(cd "$1" && pwd)
  vendor_names "$l"
  B=$(mktemp -d)
  trap 'rm -rf "$B"' EXIT
  ${CC:-cc} -O2 -Wall -Werror -I emu/include -o "$B/startup_phases" bench/c/startup_phases.c -L "$l" -lascendcl
  export LD_LIBRARY_PATH=$l NPUEMU_NODE=$B/node
}
