package acl

import (
	"crypto/sha1"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSHA1Sum: sha1Sum agrees with crypto/sha1 for every length across
// the padding's boundaries (55, 56, 63, 64 bytes ...), split into parts
// anywhere, and for FIPS 180's "abc".
func TestSHA1Sum(t *testing.T) {
	assert.Equal(t, [20]byte{0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e, 0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d},
		sha1Sum([]byte("abc")))
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		msg := make([]byte, n)
		for i := range msg {
			msg[i] = byte(r.Uint32())
		}
		cut := 0
		if n > 0 {
			cut = r.IntN(n + 1)
		}
		assert.Equal(t, sha1.Sum(msg), sha1Sum(msg[:cut], msg[cut:]), "%d bytes cut at %d", n, cut)
	}
}
