package main

import (
	"context"
	"path/filepath"
	"slices"
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

// The userfaultfd-wp host fault rate sits next to the mprotect one, and
// after them the platform's floor for a host fault (no npuemu: a signal and
// one mprotect, with 2 MiB and 4 KiB granules). None has a target of its
// own: the first answers the same goal in another mode, the floors say what
// the goal can reach on the machine at hand (docs/svm.md).
func init() {
	rows := []Row{
		{Metric: svmUffdRate, Unit: "faults/s", Program: svmBench},
		{Metric: "svm_host_fault_floor", Unit: "faults/s", Program: svmBench},
		{Metric: "svm_host_fault_floor_4KiB", Unit: "faults/s", Program: svmBench},
	}
	for i, r := range catalogue {
		if r.Metric == "svm_host_fault_rate" {
			catalogue = slices.Insert(catalogue, i+1, rows...)
			return
		}
	}
	catalogue = append(catalogue, rows...)
}

// svmUffdRate is svm_bench's host fault rate in userfaultfd-wp mode; where
// the kernel refuses the mode the program does not print it.
const svmUffdRate = "svm_host_fault_rate_uffd"
