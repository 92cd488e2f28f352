package conformance

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSetEnv sources emu/set_env.sh and checks that the toolkit variables
// point at emu/, then builds hello_npu.c the way a CANN CMake project does:
// headers from $ASCEND_CANN_PACKAGE_PATH/include, libraries from
// $ASCEND_CANN_PACKAGE_PATH/lib64. With cmake on the machine it also
// configures and builds examples/cmake.
func TestSetEnv(t *testing.T) {
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	emuDir := filepath.Join(repo, "emu")
	if _, err := os.Stat(filepath.Join(emuDir, "lib", "libascendcl.so")); err != nil {
		t.Skip("emu/lib is not built; run `make lib`")
	}

	out, err := exec.Command("bash", "-c",
		`LD_LIBRARY_PATH=/x; . "$1" && . "$1" && env`, "bash", filepath.Join(emuDir, "set_env.sh")).Output()
	require.NoError(t, err)
	env := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			env[k] = v
		}
	}
	for _, k := range []string{"ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_CANN_PACKAGE_PATH"} {
		assert.Equal(t, emuDir, env[k], k)
	}
	assert.Equal(t, filepath.Join(emuDir, "opp"), env["ASCEND_OPP_PATH"])
	// Sourced twice, lib64 is prepended once and the old path is kept.
	assert.Equal(t, filepath.Join(emuDir, "lib64")+":/x", env["LD_LIBRARY_PATH"])

	pkg := env["ASCEND_CANN_PACKAGE_PATH"]
	src := filepath.Join(repo, "examples", "hello_npu.c")
	if _, err := os.Stat(src); err != nil {
		t.Skip("examples/hello_npu.c does not exist yet")
	}
	bin := filepath.Join(t.TempDir(), "hello_npu")
	cc := exec.Command(goEnvT(t, "CC"), "-Wall", "-Werror", "-I", filepath.Join(pkg, "include"), src,
		"-L", filepath.Join(pkg, "lib64"), "-lascendcl", "-o", bin)
	msg, err := cc.CombinedOutput()
	require.NoError(t, err, "%s", msg)

	if _, err := exec.LookPath("cmake"); err != nil {
		t.Log("cmake is not installed; the CMake configure step was not exercised")
		return
	}
	build := t.TempDir()
	script := `. "$1" && cmake -S "$2" -B "$3" >/dev/null && cmake --build "$3" >/dev/null`
	msg, err = exec.Command("bash", "-c", script, "bash", filepath.Join(emuDir, "set_env.sh"),
		filepath.Join(repo, "examples", "cmake"), build).CombinedOutput()
	require.NoError(t, err, "%s", msg)
}

func goEnvT(t *testing.T, key string) string {
	out, err := exec.Command("go", "env", key).Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}
