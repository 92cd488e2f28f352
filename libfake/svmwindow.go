package main

/*
#include "svmwindow.h"
*/
import "C"

import "github.com/npuemu/npuemu/svm"

// The window constants of svmwindow.h must be svm's.
var (
	_ = [1]struct{}{}[C.NPU_SVM_WINDOW_BASE-uint64(svm.ManagedBase)]
	_ = [1]struct{}{}[C.NPU_SVM_WINDOW_SIZE-svm.ManagedSize]
)

func init() {
	svm.AdoptWindow(uintptr(C.npu_svm_window_base), svm.ManagedSize)
}
