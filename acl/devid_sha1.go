package acl

import (
	"encoding/binary"
	"math/bits"
)

// sha1Sum is FIPS 180-4's SHA-1 of the concatenation of parts, for
// uuidV5 only (name-based UUIDs are defined with SHA-1; nothing here
// relies on it for security). Written here rather than taken from
// crypto/sha1: that package brings the crypto module's initialisation
// (its GODEBUG lookup, CPU feature probes, the FIPS self-test hooks) into
// every process's start, for two calls of aclrtDeviceGetUuid.
func sha1Sum(parts ...[]byte) [20]byte {
	h := [5]uint32{0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0}
	var block [64]byte
	n, total := 0, uint64(0)
	add := func(p []byte) {
		total += uint64(len(p))
		for len(p) > 0 {
			k := copy(block[n:], p)
			n += k
			p = p[k:]
			if n == 64 {
				sha1Block(&h, &block)
				n = 0
			}
		}
	}
	for _, p := range parts {
		add(p)
	}
	// Padding: 0x80, zeros to 56 mod 64, the bit length big-endian.
	var pad [72]byte
	pad[0] = 0x80
	k := 56 - n
	if n >= 56 {
		k += 64
	}
	binary.BigEndian.PutUint64(pad[k:], total*8)
	add(pad[:k+8])
	var out [20]byte
	for i, v := range h {
		binary.BigEndian.PutUint32(out[4*i:], v)
	}
	return out
}

// sha1Block runs SHA-1's compression function over one 64-byte block.
func sha1Block(h *[5]uint32, b *[64]byte) {
	var w [80]uint32
	for i := range 16 {
		w[i] = binary.BigEndian.Uint32(b[4*i:])
	}
	for i := 16; i < 80; i++ {
		w[i] = bits.RotateLeft32(w[i-3]^w[i-8]^w[i-14]^w[i-16], 1)
	}
	a, bb, c, d, e := h[0], h[1], h[2], h[3], h[4]
	for i := range 80 {
		var f, k uint32
		switch {
		case i < 20:
			f, k = bb&c|^bb&d, 0x5A827999
		case i < 40:
			f, k = bb^c^d, 0x6ED9EBA1
		case i < 60:
			f, k = bb&c|bb&d|c&d, 0x8F1BBCDC
		default:
			f, k = bb^c^d, 0xCA62C1D6
		}
		t := bits.RotateLeft32(a, 5) + f + e + k + w[i]
		a, bb, c, d, e = t, a, bits.RotateLeft32(bb, 30), c, d
	}
	h[0] += a
	h[1] += bb
	h[2] += c
	h[3] += d
	h[4] += e
}
