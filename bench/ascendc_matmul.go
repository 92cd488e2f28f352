package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// buildAscendcMatmul builds bench/ascendc_matmul/matmul_bench.cpp, the
// issue #11 Matmul benchmark (1024^3 fp16 through the Ascend C Matmul API
// on two AIV cores), with the toolkit's bisheng driver, as a user builds an
// Ascend C program. Its metrics: ascendc_matmul_gflops, ascendc_matmul_ms.
func (h *harness) buildAscendcMatmul(ctx context.Context, out string) (*program, error) {
	lib := filepath.Join(h.root, "emu", "lib")
	if err := libraryBuilt(h.root); err != nil {
		return nil, err
	}
	driver := filepath.Join(h.root, "emu", "compiler", "ccec_compiler", "bin", "bisheng")
	if _, err := os.Stat(driver); err != nil {
		return nil, fmt.Errorf("%s is missing: build the toolkit first with `make lib`", driver)
	}
	exe := filepath.Join(out, "ascendc_matmul_bench")
	src := filepath.Join(h.root, "bench", "ascendc_matmul", "matmul_bench.cpp")
	args := []string{"-O2", src, "-o", exe, "-L", lib, "-lascendcl", "-ltiling_api", "-lplatform", "-lregister", "-lascendalog"}
	cmd := exec.CommandContext(ctx, driver, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s: %v\n%s", driver, strings.Join(args, " "), err, tail(stderr.String()))
	}
	return &program{path: exe, env: libraryEnv(lib)}, nil
}
