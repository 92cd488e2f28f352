package emu

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nodeFormatStructs pairs each Go mirror with its C struct.
var nodeFormatStructs = []struct {
	c   string
	typ reflect.Type
}{
	{"npuemu_node_header", reflect.TypeOf(NodeHeader{})},
	{"npuemu_node_device", reflect.TypeOf(NodeDevice{})},
	{"npuemu_node_proc", reflect.TypeOf(NodeProc{})},
	{"npuemu_node_ipc", reflect.TypeOf(NodeIPC{})},
	{"npuemu_node_event", reflect.TypeOf(NodeEvent{})},
	{"npuemu_node_notify", reflect.TypeOf(NodeNotify{})},
	{"npuemu_node_import", reflect.TypeOf(NodeImport{})},
	{"npuemu_node_vnpu", reflect.TypeOf(NodeVNPU{})},
}

// TestNodeFormatLayout compiles a C program that prints the size of every
// struct of npuemu/node_format.h and the offset and size of every field,
// and compares them with the Go mirror; it also checks the constants.
func TestNodeFormatLayout(t *testing.T) {
	cc := goEnvCC(t)
	var b strings.Builder
	b.WriteString("#include <stdio.h>\n#include \"npuemu/node_format.h\"\n#define F(s, f) printf(#s \".\" #f \" %zu %zu\\n\", offsetof(struct s, f), sizeof(((struct s *)0)->f))\nint main(void) {\n")
	var want []string
	for _, s := range nodeFormatStructs {
		fmt.Fprintf(&b, "printf(\"%s %%zu %%zu\\n\", sizeof(struct %s), _Alignof(struct %s));\n", s.c, s.c, s.c)
		want = append(want, fmt.Sprintf("%s %d %d", s.c, s.typ.Size(), s.typ.Align()))
		for i := 0; i < s.typ.NumField(); i++ {
			f := s.typ.Field(i)
			name := f.Tag.Get("c")
			require.NotEmpty(t, name, "%s.%s has no c tag", s.typ.Name(), f.Name)
			fmt.Fprintf(&b, "F(%s, %s);\n", s.c, name)
			want = append(want, fmt.Sprintf("%s.%s %d %d", s.c, name, f.Offset, f.Type.Size()))
		}
	}
	consts := map[string]uint64{
		"NPUEMU_NODE_MAGIC": NodeMagic, "NPUEMU_NODE_VERSION": NodeVersion,
		"NPUEMU_NODE_MAX_DEVICES": NodeMaxDevices, "NPUEMU_NODE_MAX_PROCS": NodeMaxProcs,
		"NPUEMU_NODE_MAX_IPC": NodeMaxIPC, "NPUEMU_NODE_MAX_EVENTS": NodeMaxEvents,
		"NPUEMU_NODE_MAX_NOTIFIES": NodeMaxNotifies, "NPUEMU_NODE_MAX_IMPORTS": NodeMaxImports,
		"NPUEMU_NODE_MAX_VNPUS": NodeMaxVNPUs, "NPUEMU_NODE_MAX_PIDS": NodeMaxPids,
		"NPUEMU_NODE_MAX_ERRORS": NodeMaxErrors, "NPUEMU_NODE_ENGINES": NodeEngines,
		"NPUEMU_NODE_CHUNKS": NodeChunks, "NPUEMU_NODE_NAME_LEN": NodeNameLen,
		"NPUEMU_NODE_LOCK_TABLES": NodeLockTables, "NPUEMU_NODE_LOCK_SLOT_BASE": NodeLockSlotBase,
		"NPUEMU_NODE_WINDOW_BASE": NodeWindowBase, "NPUEMU_NODE_WINDOW_SIZE": NodeWindowSize,
		"NPUEMU_NODE_STATE_CREATING": NodeStateCreating, "NPUEMU_NODE_STATE_READY": NodeStateReady,
		"NPUEMU_NODE_HEALTH_OK": NodeHealthOK, "NPUEMU_NODE_HEALTH_GENERAL": NodeHealthGeneral,
		"NPUEMU_NODE_HEALTH_IMPORTANT": NodeHealthImportant, "NPUEMU_NODE_HEALTH_URGENT": NodeHealthUrgent,
		"NPUEMU_NODE_DEV_RESETTING": NodeDevResetting,
		"NPUEMU_NODE_ENGINE_AICORE": NodeEngineAICore, "NPUEMU_NODE_ENGINE_VECTOR": NodeEngineVector,
		"NPUEMU_NODE_ENGINE_AICPU": NodeEngineAICPU, "NPUEMU_NODE_ENGINE_SDMA": NodeEngineSDMA,
		"NPUEMU_NODE_PROC_FREE": NodeProcFree, "NPUEMU_NODE_PROC_LIVE": NodeProcLive, "NPUEMU_NODE_PROC_DEAD": NodeProcDead,
		"NPUEMU_NODE_ENTRY_FREE": NodeEntryFree, "NPUEMU_NODE_ENTRY_LIVE": NodeEntryLive,
		"NPUEMU_NODE_IPC_MEM_KEY": NodeIPCMemKey, "NPUEMU_NODE_IPC_SHAREABLE": NodeIPCShareable,
		"NPUEMU_NODE_IPC_NO_PID_CHECK": NodeIPCNoPidCheck,
		"NPUEMU_NODE_IMPORT_IPC":       NodeImportIPC, "NPUEMU_NODE_IMPORT_EVENT": NodeImportEvent,
		"NPUEMU_NODE_IMPORT_NOTIFY":   NodeImportNotify,
		"NPUEMU_NODE_HOLD_UNTIL_BITS": NodeHoldUntilBits,
	}
	for name, v := range consts {
		fmt.Fprintf(&b, "printf(\"%s %%llu\\n\", (unsigned long long)(%s));\n", name, name)
		want = append(want, fmt.Sprintf("%s %d", name, v))
	}
	b.WriteString("return 0;\n}\n")

	dir := t.TempDir()
	src := filepath.Join(dir, "layout.c")
	require.NoError(t, os.WriteFile(src, []byte(b.String()), 0o600))
	bin := filepath.Join(dir, "layout")
	out, err := exec.Command(cc, "-std=c11", "-Wall", "-Werror", "-I", "include", "-o", bin, src).CombinedOutput()
	require.NoError(t, err, "compile: %s", out)
	out, err = exec.Command(bin).Output()
	require.NoError(t, err)
	assert.ElementsMatch(t, want, strings.Split(strings.TrimSpace(string(out)), "\n"))
}

func goEnvCC(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "CC").Output()
	require.NoError(t, err)
	cc := strings.Fields(string(out))
	require.NotEmpty(t, cc, "go env CC is empty")
	return cc[0]
}
