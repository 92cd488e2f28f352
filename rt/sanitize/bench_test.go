package sanitize

import (
	"io"
	"testing"
)

// BenchmarkQueue is the sanitizer's share of replay_bench's direct round
// (BenchmarkSanitizedTasks in acl without the runtime): alternating
// 256-byte writes and copies on one stream over 50 offsets of two
// allocations, the host synchronising every 100 tasks.
func BenchmarkQueue(b *testing.B) {
	s := New(All, lookup, io.Discard)
	for i := range b.N {
		off := uintptr(i%100/2) * 32
		var op Op
		if i%2 == 0 {
			op = Op{API: "memset", Acc: []Access{{Addr: bufA + off, Size: 32, Mode: Write}}}
		} else {
			op = Op{API: "copy", Acc: []Access{{Addr: bufB + off, Size: 32, Mode: Write}, {Addr: bufA + off, Size: 32, Mode: Read}}}
		}
		s.Queue("T", 1, "s1", 0, 1, uint32(i), &op)
		if i%100 == 99 {
			s.SyncStream("T", 1, "s1")
		}
	}
}
