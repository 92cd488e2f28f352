# launch-ab-lib.sh: sourced by the scripts that run bench/c/launch_ab.c
# against two library folders (compare-launch.sh, count-launch-instr.sh,
# count-locked.sh). build_launch_ab BASE NEW adds the vendor library names
# each folder lacks (links to libnpuemu.so), then builds launch_ab (linked
# against NEW; LD_LIBRARY_PATH picks the library at run time) and the
# benchmark kernels into $B, and exports KSO for launch_ab. Needs B and
# CC set, and the repository root as the working directory.
build_launch_ab() {
  local v n
  for v in "$1" "$2"; do
    (cd "$v" && for n in libascendcl.so libacl_rt.so libacl_rt_impl.so libruntime.so libascend_hal.so; do [ -e $n ] || ln -sf libnpuemu.so $n; done)
  done
  $CC -O2 -Wall -Werror -I emu/include -o "$B/launch_ab" bench/c/launch_ab.c -L "$2" -lascendcl -lpthread
  $CC -shared -fPIC -O3 -march=native -Wall -Werror -I emu/include bench/c/bench_kernels.c -o "$B/k.so"
  export KSO=$B/k.so
}
