package tsfw

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/npuemu/npuemu/abi"
)

// Random numbers (aclrtRandomNumAsync) come from Philox4x32-10, the
// counter-based generator of the hardware's random-number tasks: the key is
// the 64-bit seed, the 128-bit counter lives in 16 bytes of device memory.
// A task reads the counter, draws 32-bit words block by block (4 words per
// counter value) and writes the counter back advanced by the blocks it
// used, so the same seed and counter always give the same numbers and
// back-to-back tasks continue the sequence.
//
// Conversions (npuemu's choices; the documentation does not fix them):
//
//	uniform float    min + u*(max-min), u = (w>>8)/2^24 in [0,1), rounded to the type
//	uniform integer  min + w mod (max-min) in [min, max) (64-bit types use two words);
//	                 max <= min gives min
//	normal           Box-Muller on two words, mean + stddev*z
//	truncated normal normal with |z| > 2 redrawn
//	dropout bitmask  bit i (LSB first) = 1 (kept) when u >= ratio, ceil(n/8) bytes

// RandomDist is a distribution of a random-number task.
type RandomDist uint8

// Distributions, in the order of aclrtRandomNumFuncType.
const (
	DropoutBitmask RandomDist = iota
	Uniform
	Normal
	TruncatedNormal
)

// RandomParam is a parameter given inline (Addr 0: Value holds Size
// little-endian bytes) or in device memory read when the task runs.
type RandomParam struct {
	Addr  uintptr
	Value uint64
	Size  uint8
}

func (p RandomParam) load() uint64 {
	if p.Addr == 0 {
		return p.Value & sizeMask(p.Size)
	}
	var b [8]byte
	copy(b[:], bytesAt(p.Addr, uint64(min(p.Size, 8))))
	return binary.LittleEndian.Uint64(b[:])
}

func sizeMask(n uint8) uint64 {
	if n >= 8 {
		return math.MaxUint64
	}
	return 1<<(8*uint64(n)) - 1
}

// RandomSpec describes one random-number task. A and B are the
// distribution's parameters (uniform min/max, normal mean/stddev, dropout
// ratio in A), encoded as values of DType.
type RandomSpec struct {
	Dist    RandomDist
	DType   DType
	Out     uintptr
	Counter uintptr // 16 bytes of device memory
	Seed    RandomParam
	Count   RandomParam
	A, B    RandomParam
}

// OutBytes returns the bytes a task of spec writes for n numbers.
func (s *RandomSpec) OutBytes(n uint64) uint64 {
	if s.Dist == DropoutBitmask {
		return (n + 7) / 8
	}
	return n * s.DType.Size()
}

// RandomTask generates spec.Count numbers into spec.Out on an SDMA engine.
func RandomTask(spec RandomSpec) (Task, error) {
	if spec.Dist > TruncatedNormal {
		return Task{}, abi.DevErrorf(abi.DevInvalidValue, "random task: unknown distribution %d", spec.Dist)
	}
	if spec.Out == 0 || spec.Counter == 0 {
		return Task{}, abi.DevErrorf(abi.DevInvalidValue, "random task: NULL output or counter address")
	}
	if spec.Dist != Uniform && !spec.DType.IsFloat() {
		return Task{}, abi.DevErrorf(abi.DevInvalidValue, "random task: distribution %d needs a floating-point type", spec.Dist)
	}
	return Task{kind: kindEngine, dst: spec.Out, fn: func() error { return runRandom(&spec) }}, nil
}

func runRandom(s *RandomSpec) error {
	var ctr [4]uint32
	cb := bytesAt(s.Counter, 16)
	for i := range ctr {
		ctr[i] = binary.LittleEndian.Uint32(cb[4*i:])
	}
	seed := s.Seed.load()
	g := Philox{key: [2]uint32{uint32(seed), uint32(seed >> 32)}, ctr: ctr, pos: 4}
	n := s.Count.load()
	out := bytesAt(s.Out, s.OutBytes(n))
	Generate(&g, s.Dist, s.DType, s.A.load(), s.B.load(), n, out)
	for i, c := range g.ctr {
		binary.LittleEndian.PutUint32(cb[4*i:], c)
	}
	return nil
}

// Generate fills out with n numbers drawn from g; a and b are the raw
// parameters (see RandomSpec). Exported for references in tests.
func Generate(g *Philox, dist RandomDist, dt DType, a, b, n uint64, out []byte) {
	sz := dt.Size()
	switch dist {
	case DropoutBitmask:
		ratio := decodeFloat(a, dt)
		clear(out)
		for i := range n {
			if g.unit() >= ratio {
				out[i/8] |= 1 << (i % 8)
			}
		}
	case Uniform:
		for i := range n {
			putUniform(g, dt, a, b, out[i*sz:(i+1)*sz])
		}
	case Normal, TruncatedNormal:
		mean, std := decodeFloat(a, dt), decodeFloat(b, dt)
		var spare float64
		have := false
		for i := uint64(0); i < n; {
			var z float64
			if have {
				z, have = spare, false
			} else {
				u1 := (float64(g.next()) + 1) / (1 << 32) // (0, 1]: log is finite
				u2 := float64(g.next()) / (1 << 32)
				r := math.Sqrt(-2 * math.Log(u1))
				z, spare, have = r*math.Cos(2*math.Pi*u2), r*math.Sin(2*math.Pi*u2), true
			}
			if dist == TruncatedNormal && math.Abs(z) > 2 {
				continue
			}
			encodeFloat(mean+std*z, dt, out[i*sz:(i+1)*sz])
			i++
		}
	}
}

func putUniform(g *Philox, dt DType, a, b uint64, dst []byte) {
	switch dt {
	case Int32:
		lo, hi := int32(a), int32(b)
		v := lo
		if hi > lo {
			v = lo + int32(uint32(g.next())%uint32(int64(hi)-int64(lo)))
		}
		binary.LittleEndian.PutUint32(dst, uint32(v))
	case Uint32:
		lo, hi := uint32(a), uint32(b)
		v := lo
		if hi > lo {
			v = lo + g.next()%(hi-lo)
		}
		binary.LittleEndian.PutUint32(dst, v)
	case Int64:
		lo, hi := int64(a), int64(b)
		v := lo
		if hi > lo {
			v = lo + int64(g.next64()%uint64(hi-lo))
		}
		binary.LittleEndian.PutUint64(dst, uint64(v))
	case Uint64:
		v := a
		if b > a {
			v = a + g.next64()%(b-a)
		}
		binary.LittleEndian.PutUint64(dst, v)
	default:
		lo, hi := decodeFloat(a, dt), decodeFloat(b, dt)
		encodeFloat(lo+g.unit()*(hi-lo), dt, dst)
	}
}

func decodeFloat(raw uint64, dt DType) float64 {
	switch dt {
	case Float16:
		return float64(HalfToFloat(uint16(raw)))
	case BFloat16:
		return float64(BF16ToFloat(uint16(raw)))
	case Float32:
		return float64(math.Float32frombits(uint32(raw)))
	}
	return float64(int64(raw))
}

func encodeFloat(v float64, dt DType, dst []byte) {
	switch dt {
	case Float16:
		binary.LittleEndian.PutUint16(dst, FloatToHalf(float32(v)))
	case BFloat16:
		binary.LittleEndian.PutUint16(dst, FloatToBF16(float32(v)))
	case Float32:
		binary.LittleEndian.PutUint32(dst, math.Float32bits(float32(v)))
	}
}

// Philox is a Philox4x32-10 stream: ctr is the next counter to encrypt,
// buf the words of the current block, pos the next unused word of buf.
type Philox struct {
	key [2]uint32
	ctr [4]uint32
	buf [4]uint32
	pos int
}

// NewPhilox returns a stream for seed starting at the 128-bit counter
// (ctr[0] least significant).
func NewPhilox(seed uint64, ctr [4]uint32) *Philox {
	return &Philox{key: [2]uint32{uint32(seed), uint32(seed >> 32)}, ctr: ctr, pos: 4}
}

// Counter returns the counter of the next block.
func (g *Philox) Counter() [4]uint32 { return g.ctr }

func (g *Philox) next() uint32 {
	if g.pos == 4 {
		g.buf = philoxBlock(g.ctr, g.key)
		g.pos = 0
		for i := range g.ctr { // 128-bit increment
			g.ctr[i]++
			if g.ctr[i] != 0 {
				break
			}
		}
	}
	w := g.buf[g.pos]
	g.pos++
	return w
}

func (g *Philox) next64() uint64 { return uint64(g.next()) | uint64(g.next())<<32 }

// unit returns a float in [0, 1) with 24 random bits.
func (g *Philox) unit() float64 { return float64(g.next()>>8) / (1 << 24) }

// philoxBlock encrypts one counter with ten Philox4x32 rounds.
func philoxBlock(c [4]uint32, k [2]uint32) [4]uint32 {
	const (
		m0, m1 = 0xD2511F53, 0xCD9E8D57
		w0, w1 = 0x9E3779B9, 0xBB67AE85
	)
	for r := range 10 {
		if r > 0 {
			k[0] += w0
			k[1] += w1
		}
		hi0, lo0 := bits.Mul32(m0, c[0])
		hi1, lo1 := bits.Mul32(m1, c[2])
		c = [4]uint32{hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0}
	}
	return c
}
