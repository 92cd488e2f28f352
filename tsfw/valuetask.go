package tsfw

import "github.com/npuemu/npuemu/abi"

// ValueWaitTask returns the descriptor of a value wait (see builtin.go)
// that must run on q: the wait parks on q's cancellation, so a recorder
// that replays a captured wait on another queue builds one descriptor per
// queue it replays on, instead of reusing the one of the issuing queue.
func (q *Queue) ValueWaitTask(addr uintptr, value uint64, flag uint32) (Task, error) {
	if err := checkWord("value wait", addr); err != nil {
		return Task{}, err
	}
	if flag > WaitNOR {
		return Task{}, abi.DevErrorf(abi.DevInvalidValue, "value wait task: unknown condition %d", flag)
	}
	return HostTask(func() error { return q.d.waitValue(q, addr, value, flag) }), nil
}
