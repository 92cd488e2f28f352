package conformance

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The real DCMI client of the end-to-end test: the DCMI layer
// (devmanager/dcmi) of Huawei's open-source Ascend npu-exporter, which the
// device plugins share. By default the pin HAMi's ascend-device-plugin
// uses, fetched through the Go module proxy; NPUEMU_ASCEND_COMMON=<dir of
// mind-cluster's component/ascend-common> uses a local checkout instead.
const (
	e2eModule     = "huawei.com/npu-exporter/v6"
	e2eReplace    = "gitee.com/ascend/ascend-npu-exporter/v6 v6.0.0-RC3"
	e2eVersion    = "v6.0.0-RC3"
	e2eCommonEnv  = "NPUEMU_ASCEND_COMMON"
	e2eHoldDevice = 3
	e2eHoldMiB    = 128
)

// e2eClient is the client program: it drives DcManager as the device
// plugin does (dlopen of libdcmi.so found through LD_LIBRARY_PATH with the
// vendor's ownership checks, dcmi_init, enumeration, per-chip queries) and
// prints one line per card.
const e2eClient = `package main

import (
	"fmt"
	"os"

	"MODULE/devmanager/dcmi"
)

func main() {
	var m dcmi.DcManager
	if err := m.DcInit(); err != nil {
		fmt.Println("init:", err)
		os.Exit(1)
	}
	defer m.DcShutDown()
	n, cards, err := m.DcGetCardList()
	if err != nil {
		fmt.Println("cards:", err)
		os.Exit(1)
	}
	fmt.Println("cards", n)
	for _, c := range cards {
		chip, err := m.DcGetChipInfo(c, 0)
		if err != nil {
			fmt.Println("chip:", err)
			os.Exit(1)
		}
		hbm, err := m.DcGetHbmInfo(c, 0)
		if err != nil {
			fmt.Println("hbm:", err)
			os.Exit(1)
		}
		health, err := m.DcGetDeviceHealth(c, 0)
		if err != nil {
			fmt.Println("health:", err)
			os.Exit(1)
		}
		procs, err := m.DcGetDevProcessInfo(c, 0)
		if err != nil {
			fmt.Println("procs:", err)
			os.Exit(1)
		}
		fmt.Printf("card %d %s %d %d %d", c, chip.Name, hbm.MemorySize, hbm.Usage, health)
		for _, p := range procs.DevProcArray {
			fmt.Printf(" %d:%.0f", p.Pid, p.MemUsage)
		}
		fmt.Println()
	}
}
`

// e2eHolder holds device memory until its stdin closes.
const e2eHolder = `#include <stdio.h>
#include "acl/acl.h"
int main(void) {
    void *p;
    if (aclInit(NULL) || aclrtSetDevice(DEV) || aclrtMalloc(&p, (size_t)MIB << 20, ACL_MEM_MALLOC_HUGE_FIRST)) {
        printf("error %s\n", aclGetRecentErrMsg());
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    while (getchar() != EOF) {
    }
    return 0;
}
`

// TestDCMIClientE2E builds the real client against libdcmi.so installed by
// make install-driver and checks that it reads the emulated node: eight
// 910B3 chips, and a process holding memory on one of them, listed with
// its pid and size.
func TestDCMIClientE2E(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds a Go module; not with -short")
	}
	if os.Geteuid() != 0 {
		t.Skip("the DCMI client accepts libdcmi.so only from root-owned files and directories: run as root")
	}
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	lib := filepath.Join(repo, "emu", "lib")
	if _, err := os.Stat(filepath.Join(lib, "libascendcl.so")); err != nil {
		t.Fatalf("run `make lib` first")
	}

	// the client module
	work := t.TempDir()
	gomod := "module dcmie2e\n\ngo 1.21\n\nrequire " + e2eModule + " " + e2eVersion + "\n\nreplace " + e2eModule + " => " + e2eReplace + "\n"
	module := e2eModule
	if dir := os.Getenv(e2eCommonEnv); dir != "" {
		module = "ascend-common"
		gomod = "module dcmie2e\n\ngo 1.21\n\nrequire ascend-common v0.0.0\n\nreplace ascend-common => " + dir + "\n"
	}
	require.NoError(t, os.WriteFile(filepath.Join(work, "go.mod"), []byte(gomod), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(work, "main.go"), []byte(strings.ReplaceAll(e2eClient, "MODULE", module)), 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tidy := exec.CommandContext(ctx, "go", "mod", "tidy")
	tidy.Dir = work
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Skipf("cannot fetch the DCMI client %s (set %s to a mind-cluster ascend-common checkout to use one): %s",
			module, e2eCommonEnv, lastLine(string(out)))
	}
	client := filepath.Join(work, "client")
	build := exec.CommandContext(ctx, "go", "build", "-o", client, ".")
	build.Dir = work
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "building the DCMI client: %s", out)

	// libdcmi.so where the client accepts it: real root-owned files in
	// directories nobody else may write
	prefix := filepath.Join(repo, "build", "e2e-driver")
	out, err = exec.Command("make", "-s", "-C", repo, "install-driver", "PREFIX="+prefix).CombinedOutput()
	require.NoError(t, err, string(out))
	defer os.RemoveAll(prefix)

	// a process holding memory on one chip
	node := fmt.Sprintf("dcmi-e2e-%d", os.Getpid())
	defer os.RemoveAll("/dev/shm/npuemu-" + node)
	holderSrc := filepath.Join(work, "holder.c")
	require.NoError(t, os.WriteFile(holderSrc, []byte(e2eHolder), 0o644))
	holderBin := filepath.Join(work, "holder")
	out, err = exec.Command("gcc", "-O1", "-I", filepath.Join(repo, "emu", "include"),
		fmt.Sprintf("-DDEV=%d", e2eHoldDevice), fmt.Sprintf("-DMIB=%d", e2eHoldMiB),
		"-o", holderBin, holderSrc, "-L", lib, "-lascendcl").CombinedOutput()
	require.NoError(t, err, string(out))
	holder := exec.Command(holderBin)
	holder.Env = append(os.Environ(), "LD_LIBRARY_PATH="+lib, "NPUEMU_NODE="+node)
	stdin, err := holder.StdinPipe()
	require.NoError(t, err)
	stdout, err := holder.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, holder.Start())
	defer func() { stdin.Close(); holder.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "ready\n", line)

	run := exec.CommandContext(ctx, client)
	run.Env = append(os.Environ(), "LD_LIBRARY_PATH="+filepath.Join(prefix, "lib64", "driver"), "NPUEMU_NODE="+node)
	out, err = run.CombinedOutput()
	require.NoError(t, err, "the DCMI client failed: %s", out)
	cards := map[int][]string{}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) >= 6 && f[0] == "card" {
			id, _ := strconv.Atoi(f[1])
			cards[id] = f[2:]
		}
	}
	require.Len(t, cards, 8, "client output: %s", out)
	for id, f := range cards {
		assert.Equal(t, "910B3", f[0], "card %d", id)
		assert.Equal(t, "0", f[3], "card %d health", id)
	}
	held := false
	for _, p := range cards[e2eHoldDevice][4:] {
		pid, mb, _ := strings.Cut(p, ":")
		n, _ := strconv.Atoi(mb)
		if pid == strconv.Itoa(holder.Process.Pid) && n >= e2eHoldMiB {
			held = true
		}
	}
	assert.True(t, held, "card %d does not list the holder %d: %v", e2eHoldDevice, holder.Process.Pid, cards[e2eHoldDevice])
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
