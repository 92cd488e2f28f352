package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The Ascend C benchmarks of issue #11: programs built by the toolkit's
// bisheng driver as a user builds them (vector add, Matmul), and the build
// time of one sample kernel.

// ascendcDriver is the driver `make lib` installs.
func (h *harness) ascendcDriver() (string, error) {
	driver := filepath.Join(h.root, "emu", "compiler", "ccec_compiler", "bin", "bisheng")
	if _, err := os.Stat(driver); err != nil {
		return "", fmt.Errorf("%s is missing: build the toolkit first with `make lib`", driver)
	}
	return driver, nil
}

// buildAscendc builds the Ascend C benchmark programs.
func (h *harness) buildAscendc(ctx context.Context, out string, quick bool) ([]*program, error) {
	vadd, err := h.buildAscendcVadd(ctx, out)
	if err != nil {
		return nil, err
	}
	mm, err := h.buildAscendcMatmul(ctx, out) // ascendc_matmul.go
	if err != nil {
		return nil, err
	}
	progs := []*program{vadd, mm}
	if quick {
		for _, p := range progs {
			p.args = []string{"--quick"}
		}
	}
	return progs, nil
}

// buildAscendcVadd builds bench/ascendc_vadd/vadd_bench.cpp (TPipe/TQue/
// DataCopy/Add, 8 blocks, 16 Mi floats and halfs, launched with <<<>>>).
// Its metrics: ascendc_vector_add_16Mi_GBps, ascendc_vector_add_16Mi_half_GBps.
func (h *harness) buildAscendcVadd(ctx context.Context, out string) (*program, error) {
	lib := filepath.Join(h.root, "emu", "lib")
	if err := libraryBuilt(h.root); err != nil {
		return nil, err
	}
	driver, err := h.ascendcDriver()
	if err != nil {
		return nil, err
	}
	exe := filepath.Join(out, "ascendc_vadd_bench")
	src := filepath.Join(h.root, "bench", "ascendc_vadd", "vadd_bench.cpp")
	args := []string{"-O2", "-Wall", "-Werror", src, "-o", exe, "-L", lib, "-lascendcl"}
	cmd := exec.CommandContext(ctx, driver, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s: %v\n%s", driver, strings.Join(args, " "), err, tail(stderr.String()))
	}
	return &program{path: exe, env: libraryEnv(lib)}, nil
}

// ascendcBuildSource is the sample kernel whose build is timed: the
// tiling-struct Add of ../shared/ascendc-samples, compiled with the options
// its ascendc_library gives the driver; bench/ascendc_vadd/vadd_bench.cpp
// when the samples are not beside the repository.
func (h *harness) ascendcBuildSource() (string, []string) {
	sample := filepath.Join(h.root, "..", "shared", "ascendc-samples", "add_tiling_struct", "add_custom.cpp")
	if _, err := os.Stat(sample); err == nil {
		return sample, []string{"-g", "-O2", "-std=c++17", "-fPIC", "--npu-arch=dav-2201"}
	}
	return filepath.Join(h.root, "bench", "ascendc_vadd", "vadd_bench.cpp"), []string{"-O2", "-fPIC"}
}

// collectAscendcBuild times one `bisheng -c` of the sample kernel (both
// passes, the embedding) and adds ascendc_build_kernel_s (wall) and
// ascendc_build_kernel_cpu_s (CPU of all its processes) to s.
func (h *harness) collectAscendcBuild(ctx context.Context, out string, s Series) error {
	driver, err := h.ascendcDriver()
	if err != nil {
		return err
	}
	src, flags := h.ascendcBuildSource()
	obj := filepath.Join(out, "ascendc_build_probe.o")
	args := append(flags, "-c", src, "-o", obj)
	cmd := exec.CommandContext(ctx, driver, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	t0 := time.Now()
	err = cmd.Run()
	d := time.Since(t0)
	os.Remove(obj)
	if err != nil {
		return fmt.Errorf("%s %s: %v\n%s", driver, strings.Join(args, " "), err, tail(stderr.String()))
	}
	// the CPU time of the driver and its compilers (both passes), which a
	// busy machine does not inflate as it does the wall time
	cpu := (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	return s.Add(map[string]Sample{
		"ascendc_build_kernel_s":     {Value: d.Seconds(), Unit: "s"},
		"ascendc_build_kernel_cpu_s": {Value: cpu, Unit: "s"},
	})
}
