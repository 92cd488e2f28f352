package tsfw

import "testing"

// BenchmarkSubmit measures the submit of a small asynchronous copy; the
// queue is drained every 256 submissions so the ring never fills.
func BenchmarkSubmit(b *testing.B) {
	d := newDev(b, Config{SDMAEngines: 2})
	q := newQ(b, d, 0)
	_, s := buf(b, 4096)
	_, dst := buf(b, 4096)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := q.Submit(CopyTask(dst, s, 64, HostToDevice)); err != nil {
			b.Fatal(err)
		}
		if i++; i%256 == 0 {
			b.StopTimer()
			if err := q.Synchronize(-1); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	}
	b.StopTimer()
	if err := q.Synchronize(-1); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSyncIdle measures Synchronize of a queue with nothing pending.
func BenchmarkSyncIdle(b *testing.B) {
	d := newDev(b, Config{})
	q := newQ(b, d, 0)
	b.ReportAllocs()
	for b.Loop() {
		if err := q.Synchronize(-1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEventRoundTrip measures a record on queue A, a wait for it on
// queue B and the synchronize of B.
func BenchmarkEventRoundTrip(b *testing.B) {
	d := newDev(b, Config{})
	qa, qb := newQ(b, d, 0), newQ(b, d, 0)
	e := newEv(b, d)
	b.ReportAllocs()
	for b.Loop() {
		if err := qa.Submit(RecordTask(e)); err != nil {
			b.Fatal(err)
		}
		if err := qb.Submit(WaitTask(e)); err != nil {
			b.Fatal(err)
		}
		if err := qb.Synchronize(-1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCopyLaunchSync measures a small copy submitted and waited for.
func BenchmarkCopyLaunchSync(b *testing.B) {
	d := newDev(b, Config{})
	q := newQ(b, d, 0)
	_, s := buf(b, 4096)
	_, dst := buf(b, 4096)
	for b.Loop() {
		if err := q.Submit(CopyTask(dst, s, 64, HostToDevice)); err != nil {
			b.Fatal(err)
		}
		if err := q.Synchronize(-1); err != nil {
			b.Fatal(err)
		}
	}
}
