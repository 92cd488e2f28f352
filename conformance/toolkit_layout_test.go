package conformance

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toolkitPaths are what vendor run scripts, CMake modules and build files
// look for under the toolkit root (docs/ascendc-build.md, "The toolkit
// layout"); each must resolve after `make lib`.
var toolkitPaths = []string{
	"bin/setenv.bash",
	"set_env.sh",
	"include/acl/acl.h",
	"lib64/libascendcl.so",
	"runtime/include/acl/acl.h",
	"runtime/lib64/libascendcl.so",
	"runtime/lib64/libruntime.so",
	"runtime/lib64/stub/libascendcl.so",
	"acllib/include/acl/acl.h",
	"acllib/lib64/libascendcl.so",
	"x86_64-linux/ccec_compiler/bin/bisheng",
	"x86_64-linux/include/acl/acl.h",
	"x86_64-linux/lib64/libascendcl.so",
	"compiler/ccec_compiler/bin/bisheng",
	"compiler/ccec_compiler/bin/ccec",
	"tools/ccec_compiler/bin/ccec",
	"compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake",
	"compiler/tikcpp/ascendc_kernel_cmake/ASCConfig.cmake",
	"tools/tikcpp/ascendc_kernel_cmake/ascendc.cmake",
	"compiler/tikcpp/tikcfw/kernel_operator.h",
	"tools/tikicpulib/lib/cmake/tikicpulibConfig.cmake",
	"tools/tikicpulib/lib/include/tikicpulib.h",
	"lib64/libnpuemu_cpu_trampoline.so",
	"lib64/libtiling_api.so",
	"lib64/libplatform.so",
	"lib64/libregister.so",
	"lib64/libascendalog.so",
	// link names: libraries programs link without calling
	"lib64/libacl_op_compiler.so",
	"lib64/libruntime_camodel.so",
	"lib64/libc_sec.so",
}

// TestToolkitLayout: every path exists; the driver answers; DVPP's header is
// absent on purpose; setenv.bash, sourced from anywhere, points the
// environment at the toolkit.
func TestToolkitLayout(t *testing.T) {
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	root := filepath.Join(repo, "emu")
	if _, err := os.Stat(filepath.Join(root, "compiler/ccec_compiler/bin/bisheng")); err != nil {
		t.Fatalf("the toolkit is not built: run `make lib` first (%v)", err)
	}
	for _, p := range toolkitPaths {
		_, err := os.Stat(filepath.Join(root, p))
		assert.NoError(t, err, "toolkit path %s", p)
	}
	_, err = os.Stat(filepath.Join(root, "include/acl/ops/acl_dvpp.h"))
	assert.True(t, os.IsNotExist(err), "acl/ops/acl_dvpp.h must stay absent while DVPP is not emulated (docs/ascendc-build.md)")

	out, err := exec.Command(filepath.Join(root, "compiler/ccec_compiler/bin/ccec"), "--version").Output()
	require.NoError(t, err)
	assert.Contains(t, string(out), "npuemu")

	script := `source "$1/bin/setenv.bash" && echo "$ASCEND_HOME_PATH|$ASCEND_TOOLKIT_HOME|$ASCEND_CANN_PACKAGE_PATH" && command -v ccec bisheng && echo "$LD_LIBRARY_PATH"`
	cmd := exec.Command("bash", "-c", script, "bash", root)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH=", "PATH=/usr/bin:/bin")
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, 4, "%s", out)
	assert.Equal(t, root+"|"+root+"|"+root, lines[0])
	assert.Equal(t, filepath.Join(root, "compiler/ccec_compiler/bin/ccec"), lines[1])
	assert.Equal(t, filepath.Join(root, "compiler/ccec_compiler/bin/bisheng"), lines[2])
	assert.Contains(t, strings.Split(lines[3], ":"), filepath.Join(root, "lib64"))
}

// sourceLine is a `source FILE` / `. FILE` line of a shell script.
var sourceLine = regexp.MustCompile(`(?m)^\s*(?:source|\.)\s+(\S+)`)

// TestSampleScriptsFindTheirSources: every file the samples' run scripts
// source, with their toolkit-root variables set to emu/, exists.
func TestSampleScriptsFindTheirSources(t *testing.T) {
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	root := filepath.Join(repo, "emu")
	scripts, _ := filepath.Glob(filepath.Join(repo, "..", "shared", "ascendc-samples", "*", "run.sh"))
	if len(scripts) == 0 {
		t.Skip("no ../shared/ascendc-samples/*/run.sh beside the repository")
	}
	rootVar := regexp.MustCompile(`\$\{?_?ASCEND_[A-Z_]*\}?`)
	n := 0
	for _, s := range scripts {
		data, err := os.ReadFile(s)
		require.NoError(t, err)
		for _, m := range sourceLine.FindAllStringSubmatch(string(data), -1) {
			p := rootVar.ReplaceAllString(m[1], root)
			if !strings.HasPrefix(p, root) {
				continue // not a toolkit file
			}
			n++
			_, err := os.Stat(p)
			assert.NoError(t, err, "%s sources %s", s, m[1])
		}
	}
	assert.Greater(t, n, 0, "the samples' scripts source the toolkit's setenv.bash")
}
