package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The test vectors of prof-api.md §5 and §6.
func TestProfVectors(t *testing.T) {
	assert.Equal(t, uint32(0x1CF96D7C), crc32cNoXor([]byte("123456789")))
	assert.Equal(t, uint32(0x33C97B9A), crc32cNoXor(make([]byte, 76)))
	for s, want := range map[string]uint64{
		"abc": 0x00014A26001998F2, "MatMul": 0x626628205D1C5684, "default": 0x5959527DDC8B8BF9, "": ^uint64(0),
	} {
		assert.Equal(t, want, ProfStr2Id([]byte(s)), s)
	}
}
