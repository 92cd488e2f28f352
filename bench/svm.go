package main

import (
	"context"
	"path/filepath"
)

// svmBench is the program name of bench/c/svm_bench.c.
const svmBench = "svm_bench"

// buildSVM compiles svm_bench.c (managed memory: fault service and
// migration) the way buildReplay compiles replay_bench.c. It is compiled by
// absolute path: it finds bench_kernels.c next to itself through __FILE__.
func (h *harness) buildSVM(ctx context.Context, out string) (*program, error) {
	lib := filepath.Join(h.root, "emu", "lib")
	inc := filepath.Join(h.root, "emu", "include")
	if err := libraryBuilt(h.root); err != nil {
		return nil, err
	}
	exe := filepath.Join(out, svmBench)
	src := filepath.Join(h.root, "bench", "c", svmBench+".c")
	if err := h.compile(ctx, "-O2", "-Wall", "-Werror", "-I", inc, "-o", exe, src, "-L", lib, "-lascendcl"); err != nil {
		return nil, err
	}
	return &program{path: exe, env: libraryEnv(lib)}, nil
}
