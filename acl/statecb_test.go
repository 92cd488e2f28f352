package acl

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// stateLog records callbacks; the stream callback calls the runtime back,
// which would deadlock if a runtime lock were held.
type stateLog struct {
	mu     sync.Mutex
	events []string
	th     *core.Thread
}

func (l *stateLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, fmt.Sprintf(format, args...))
}

func (l *stateLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.events
	l.events = nil
	return e
}

func TestStateCallbacks(t *testing.T) {
	th := setup(t, nil)
	log := &stateLog{th: core.NewThread()}
	streamCB := func(h core.Handle, state int32) {
		var m int32
		err := GetDeviceSatMode(log.th, &m) // takes core.Runtime.Mu
		kind := "explicit"
		if st, e := core.Streams.Get(h); e == nil && st.IsDefault {
			kind = "default"
		}
		log.add("stream %s %d err=%v", kind, state, err)
	}
	deviceCB := func(dev, state int32) {
		var c uint32
		err := core.GetDeviceCount(log.th, &c)
		log.add("device %d %d err=%v", dev, state, err)
	}
	require.NoError(t, core.RegStreamStateCallback(th, "s", true, streamCB))
	require.NoError(t, core.RegDeviceStateCallback(th, "d", true, deviceCB))
	t.Cleanup(func() {
		_ = core.RegStreamStateCallback(th, "s", true, nil)
		_ = core.RegDeviceStateCallback(th, "d", true, nil)
	})

	reg := []struct {
		name string
		err  error
	}{
		{"duplicate stream name", core.RegStreamStateCallback(th, "s", true, streamCB)},
		{"duplicate device name", core.RegDeviceStateCallback(th, "d", true, deviceCB)},
		{"NULL name", core.RegStreamStateCallback(th, "", false, streamCB)},
		{"empty name", core.RegDeviceStateCallback(th, "", true, deviceCB)},
		{"unknown name unregistered", core.RegStreamStateCallback(th, "nope", true, nil)},
	}
	for _, tc := range reg {
		t.Run(tc.name, func(t *testing.T) { requireCode(t, tc.err, abi.ACL_ERROR_INVALID_PARAM) })
	}

	require.NoError(t, SetDevice(th, 0))
	assert.Equal(t, []string{"device 0 0 err=<nil>", "stream default 1 err=<nil>", "device 0 1 err=<nil>"}, log.take())
	require.NoError(t, SetDevice(th, 0)) // second reference: no new stream
	assert.Equal(t, []string{"device 0 0 err=<nil>", "device 0 1 err=<nil>"}, log.take())

	var s core.Handle
	require.NoError(t, CreateStream(th, &s))
	require.NoError(t, core.DestroyStream(th, s, false))
	assert.Equal(t, []string{"stream explicit 1 err=<nil>", "stream explicit 2 err=<nil>"}, log.take())

	// An explicit context brings its own default stream.
	var c core.Handle
	require.NoError(t, CreateContext(th, &c, 1))
	assert.Equal(t, []string{"stream default 1 err=<nil>"}, log.take())
	require.NoError(t, core.DestroyContext(th, c))
	assert.Equal(t, []string{"stream default 2 err=<nil>"}, log.take())

	// Only the last reset releases the primary context.
	require.NoError(t, core.ResetDevice(th, 0))
	assert.Equal(t, []string{"device 0 2 err=<nil>", "device 0 3 err=<nil>"}, log.take())
	require.NoError(t, core.ResetDevice(th, 0))
	assert.Equal(t, []string{"device 0 2 err=<nil>", "stream default 2 err=<nil>", "device 0 3 err=<nil>"}, log.take())
	requireCode(t, core.ResetDevice(th, 0), abi.ACL_ERROR_RT_PARAM_INVALID)
	assert.Equal(t, []string{"device 0 2 err=<nil>"}, log.take(), "no RESET_POST for a failed reset")

	require.NoError(t, core.RegStreamStateCallback(th, "s", true, nil))
	require.NoError(t, core.RegDeviceStateCallback(th, "d", true, nil))
	require.NoError(t, SetDevice(th, 0))
	require.NoError(t, core.ResetDevice(th, 0))
	assert.Empty(t, log.take())
}
