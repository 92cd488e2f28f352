package svm

import (
	"testing"
	"time"
)

// BenchmarkFault measures the fault service rate: every access finds its
// 4 KiB page on the other device and migrates it (with a write-back, since
// the previous owner wrote it).
func BenchmarkFault(b *testing.B) { benchFault(b, Explicit{}, 1) }

// BenchmarkFaultMprotect: pages alternate between device 0 and the host with
// host traps armed, so every fault also pays one mprotect(2) call.
func BenchmarkFaultMprotect(b *testing.B) { benchFault(b, Mprotect{}, Host) }

func benchFault(b *testing.B, pr Protector, other Location) {
	const pages = 1 << 14
	s, err := New(Config{Size: pages * 4096, PageSize: 4096, Protector: pr,
		Devices: []Device{NewBudget(pages * 4096), NewBudget(pages * 4096)}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	p, err := s.Alloc(pages * 4096)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		addr := p + uintptr(i%pages)*4096
		if (i/pages)&1 == 0 || other != Host {
			dev := Location((i / pages) & 1)
			_, err = s.Access(dev, addr, 8, true)
		} else {
			_, err = s.HostAccess(addr, 8, true)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "faults/s")
}

// BenchmarkFaultEvict: every fault also evicts the device's LRU page
// (4 KiB pages, a range 2× the budget swept in order).
func BenchmarkFaultEvict(b *testing.B) {
	const pages = 1 << 12
	s, err := New(Config{Size: pages * 4096, PageSize: 4096, Devices: []Device{NewBudget(pages / 2 * 4096)}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	p, err := s.Alloc(pages * 4096)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := s.Access(0, p+uintptr(i%pages)*4096, 8, i&1 == 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "faults/s")
}

// BenchmarkHit is the cost of an access to a resident page (the common case
// of a kernel argument scan).
func BenchmarkHit(b *testing.B) {
	s, err := New(Config{Size: 1 << 30, Devices: []Device{NewBudget(1 << 30)}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	p, err := s.Alloc(HugePage)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Access(0, p, 1, false); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Access(0, p, 64, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMigrate2MiB migrates a 2 MiB page host → device → host per
// iteration. There is one backing store, so no byte is copied: the wall
// rate (SetBytes) is the bookkeeping speed and "model-GB/s" is the bandwidth
// the returned cost charges on the virtual clock. Compare with
// BenchmarkMemcpy2MiB, what a model with a separate device copy would pay in
// wall time.
func BenchmarkMigrate2MiB(b *testing.B) {
	s, err := New(Config{Size: 1 << 30, Devices: []Device{NewBudget(1 << 30)}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	p, err := s.Alloc(HugePage)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(2 * HugePage)
	b.ResetTimer()
	var modelled time.Duration
	for i := 0; i < b.N; i++ {
		c1, err := s.Access(0, p, 8, true)
		if err != nil {
			b.Fatal(err)
		}
		c2, err := s.HostAccess(p, 8, false)
		if err != nil {
			b.Fatal(err)
		}
		modelled += c1 + c2
	}
	b.ReportMetric(float64(2*HugePage)*float64(b.N)/modelled.Seconds()/1e9, "model-GB/s")
}

// BenchmarkMemcpy2MiB is the reference: a plain 2 MiB copy.
func BenchmarkMemcpy2MiB(b *testing.B) {
	src := make([]byte, HugePage)
	dst := make([]byte, HugePage)
	for i := range src {
		src[i] = byte(i)
	}
	b.SetBytes(HugePage)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(dst, src)
	}
}
