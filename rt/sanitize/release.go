package sanitize

import "fmt"

// Waits queued before the record that releases them. A notify wait or a
// value wait may be queued before the record or the write it waits for
// (it blocks until that comes). The stream's tasks queued after such a
// wait cannot run before the release, so they are ordered after it; but
// which record releases the wait is known only once that record is
// queued. The stream is then *held*: its tasks are kept, in order, with
// what the host knew when it queued each, and are checked when the
// release is queued (they join the releasing record's clock) — or when
// the host synchronises with the stream, which proves the wait released
// by something the sanitizer did not see (an IPC peer, the host writing
// the value word): they are then checked ordered by nothing new. A
// stream held longer than maxHeld tasks is let go the same way (the
// release is assumed to come from outside).

// Release says which record of an Op's Key releases a Wait.
type Release uint8

// Release rules.
const (
	// ReleaseLatest is an event wait (aclrtStreamWaitEvent): the latest
	// record of Key queued before it; with none it does not block and
	// orders nothing. A counting-notify wait uses it too (its condition
	// is on a counter the sanitizer does not follow).
	ReleaseLatest Release = iota
	// ReleaseConsume is a notify wait (aclrtWaitAndResetNotify): a
	// notify is a flag that a record sets and a wait clears, so one
	// record releases one wait: a record queued before the wait that no
	// earlier wait consumed, else the next record queued.
	ReleaseConsume
	// ReleaseWritten is a value wait (aclrtValueWait): the latest value
	// write to the word queued before it, else the next one queued (the
	// sanitizer does not compare values: a word written before is taken
	// to satisfy the wait).
	ReleaseWritten
)

// maxHeld bounds the tasks kept behind one unreleased wait.
const maxHeld = 4096

// heldOp is a task queued on a held stream.
type heldOp struct {
	hc   Clock // the queueing host thread's clock then (nil: the wait that holds)
	dev  int
	task uint32
	op   Op
	res  []resolved
}

// held is a stream behind an unreleased wait.
type held struct {
	key     any
	rule    Release
	ops     []heldOp // ops[0] is the wait
	records map[any]int
}

// releases is the sanitizer's state of held streams.
type releases struct {
	held       map[Actor]*held
	waiters    map[any][]Actor // streams held on a key, in the order they were held
	unconsumed map[any]bool    // a notify record no wait consumed
	records    map[any]int     // records of a key among held streams' tasks
}

func newReleases() releases {
	return releases{held: map[Actor]*held{}, waiters: map[any][]Actor{}, unconsumed: map[any]bool{}, records: map[any]int{}}
}

// waitRecord returns the clock of the record, queued before it, that
// releases the wait op, if there is one. Precondition: s.mu held.
func (s *State) waitRecord(op *Op) (Clock, bool) {
	rec, ok := s.records[op.Key]
	switch op.Release {
	case ReleaseConsume:
		if s.rel.unconsumed[op.Key] {
			s.rel.unconsumed[op.Key] = false
			return rec, ok
		}
		return nil, false
	case ReleaseWritten:
		if s.rel.records[op.Key] > 0 { // the latest write is held
			return nil, false
		}
		return rec, ok
	}
	if s.rel.records[op.Key] > 0 { // the latest record is held
		return nil, false
	}
	return rec, ok
}

// waitHolds says whether a wait with no record before it holds its
// stream: notify and value waits block until the record comes; an event
// wait only when its record is itself held on another stream.
func (s *State) waitHolds(op *Op) bool {
	return op.Release != ReleaseLatest || s.rel.records[op.Key] > 0
}

// hold keeps op, queued on stream st, for later. Called from Queue (h >=
// 0) it keeps op only when st is held, and says so; called with h < 0,
// op is a wait that holds st from now on. Precondition: s.mu held.
func (s *State) hold(st, h Actor, dev int, task uint32, op *Op, res []resolved) bool {
	hd := s.rel.held[st]
	if h >= 0 && hd == nil {
		return false
	}
	x := heldOp{dev: dev, task: task, op: *op}
	x.op.Acc = append([]Access(nil), op.Acc...)
	x.res = append([]resolved(nil), res...)
	if h < 0 {
		hd = &held{key: op.Key, rule: op.Release, records: map[any]int{}}
		s.rel.held[st] = hd
		s.rel.waiters[op.Key] = append(s.rel.waiters[op.Key], st)
	} else {
		x.hc = s.actors[h].clock.Copy()
	}
	hd.ops = append(hd.ops, x)
	if op.Sync == Record {
		hd.records[op.Key]++
		s.rel.records[op.Key]++
	}
	if len(hd.ops) > maxHeld {
		s.release(st, Clock{})
	}
	return true
}

// recorded notes that a record of key was queued (or a held one
// checked): it releases the streams held on key that it releases — the
// first one held by a notify wait, every one held by another wait.
// Precondition: s.mu held.
func (s *State) recorded(key any) {
	ws := s.rel.waiters[key]
	if len(ws) == 0 {
		s.rel.unconsumed[key] = true
		return
	}
	var rest, go_ []Actor
	consumed := false
	for _, w := range ws {
		if hd := s.rel.held[w]; hd != nil && hd.rule == ReleaseConsume {
			if consumed {
				rest = append(rest, w)
				continue
			}
			consumed = true
		}
		go_ = append(go_, w)
	}
	s.rel.unconsumed[key] = !consumed
	if len(rest) > 0 {
		s.rel.waiters[key] = rest
	} else {
		delete(s.rel.waiters, key)
	}
	rec := s.records[key].Copy()
	for _, w := range go_ {
		s.release(w, rec)
	}
}

// release checks the tasks of held stream st, in order, the wait first,
// ordered after rec (Clock{}: released by something not seen). A task
// that holds the stream again keeps the rest. Precondition: s.mu held.
func (s *State) release(st Actor, rec Clock) {
	hd := s.rel.held[st]
	if hd == nil {
		return
	}
	delete(s.rel.held, st)
	if ws := s.rel.waiters[hd.key]; len(ws) > 0 {
		rest := ws[:0]
		for _, w := range ws {
			if w != st {
				rest = append(rest, w)
			}
		}
		if len(rest) > 0 {
			s.rel.waiters[hd.key] = rest
		} else {
			delete(s.rel.waiters, hd.key)
		}
	}
	for i := range hd.ops {
		x := &hd.ops[i]
		if nh := s.rel.held[st]; nh != nil { // held again: the rest stays behind
			for _, y := range hd.ops[i:] {
				nh.ops = append(nh.ops, y)
				if y.op.Sync == Record {
					nh.records[y.op.Key]++
				}
			}
			return
		}
		if x.op.Sync == Record {
			if s.rel.records[x.op.Key]--; s.rel.records[x.op.Key] <= 0 {
				delete(s.rel.records, x.op.Key)
			}
		}
		var released Clock
		if i == 0 {
			released = rec
			if released == nil {
				released = Clock{}
			}
		}
		s.queueOn(st, x.hc, x.dev, x.task, &x.op, x.res, released)
	}
}

// letGo checks held streams that the host proved released (it
// synchronised with them): those of device dev (every device for dev <
// 0), or only st when st >= 0, or those holding a record of key when key
// is not nil. A stream held by a wait whose record is itself held lets
// that record's stream go first: the record then releases it in order.
// Precondition: s.mu held.
func (s *State) letGo(st Actor, dev int, key any) {
	s.letGoDepth(st, dev, key, 0)
}

func (s *State) letGoDepth(st Actor, dev int, key any, depth int) {
	if len(s.rel.held) == 0 || depth > 16 { // deeper: a cycle of waits (a deadlock of the program)
		return
	}
	var go_ []Actor
	for a, hd := range s.rel.held {
		switch {
		case key != nil:
			if hd.records[key] == 0 {
				continue
			}
		case st >= 0:
			if a != st {
				continue
			}
		case dev >= 0 && s.actors[a].dev != dev:
			continue
		}
		go_ = append(go_, a)
	}
	for _, a := range go_ {
		if hd := s.rel.held[a]; hd != nil && s.rel.records[hd.key] > 0 {
			s.letGoDepth(-1, -1, hd.key, depth+1)
		}
		s.release(a, Clock{})
	}
}

// freeHeld reports (synccheck) a free of reg that a task kept behind an
// unreleased wait uses (it has not run yet); it says whether it reported.
// Precondition: s.mu held.
func (s *State) freeHeld(api string, reg Region) bool {
	if !s.on(Synccheck) {
		return false
	}
	for a, hd := range s.rel.held {
		for _, x := range hd.ops {
			for _, r := range x.res {
				if r.where == Inside && r.reg.Base == reg.Base {
					s.report(Synccheck, reg.Dev, fmt.Sprintf("free:%s:%s:%d", api, x.op.API, a),
						fmt.Sprintf("%s frees %s while %s (task %d on %s), which uses it, waits behind %s not yet released: its memory may be reused under it",
							api, s.regionName(reg), x.op.API, x.task, s.name(a), hd.ops[0].op.API))
					return true
				}
			}
		}
	}
	return false
}
