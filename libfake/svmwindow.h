/* svmwindow.h: the managed window reserved at load (svmwindow.c). Go checks
 * that these equal svm.ManagedBase and svm.ManagedSize. */
#ifndef NPUEMU_LIBFAKE_SVMWINDOW_H
#define NPUEMU_LIBFAKE_SVMWINDOW_H
#include <stdint.h>
#define NPU_SVM_WINDOW_BASE 0x90000000000ull
#define NPU_SVM_WINDOW_SIZE (3ull << 40)
extern uintptr_t npu_svm_window_base;
#endif
