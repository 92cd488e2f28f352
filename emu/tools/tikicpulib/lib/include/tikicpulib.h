/* tikicpulib.h — npuemu: the vendor's CPU-debug library is not provided.
 * RUN_MODE=cpu builds configure (find_package(tikicpulib) finds npuemu's
 * package) but this header stops their compile with the reason; build with
 * RUN_MODE=npu instead, which runs the kernels on the emulator.
 * docs/ascendc-build.md. */
#error "npuemu: RUN_MODE=cpu (tikicpulib, ICPU_RUN_KF) is not emulated; build with RUN_MODE=npu (run.sh -r npu), which runs the kernel on npuemu"
