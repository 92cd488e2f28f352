package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestLaunchQueueReleaseWord builds the front's launch queue
// (front/launchq.c) with testdata/launchq_release.c, a fake core, and runs
// it: a combined launch + synchronize releases the queue through a word the
// core stores, and calls back into C only when another thread parked on it;
// that thread's call still proceeds, after the launches, and the queue is
// booked once. Then the queue's lock under contention (another thread
// handing the queue over while its owner defers launches into it): no two
// hand-overs of the queue at once, no launch lost or made twice.
func TestLaunchQueueReleaseWord(t *testing.T) {
	out, err := exec.Command("go", "env", "CC").Output()
	require.NoError(t, err)
	cc := strings.TrimSpace(string(out))
	bin := filepath.Join(t.TempDir(), "launchq_release")
	cmd := exec.Command(cc, "-O2", "-Wall", "-Wextra", "-Werror", "-I", "../emu/include", "-I", "front",
		"-o", bin, "testdata/launchq_release.c", "front/launchq.c", "-lpthread")
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s\n%s", strings.Join(cmd.Args, " "), b)
	for range 10 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		b, err = exec.CommandContext(ctx, bin).CombinedOutput()
		cancel()
		require.NoError(t, err, "%s", b)
		require.Equal(t, "ok\n", string(b))
	}
}
