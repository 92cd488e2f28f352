package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// leaf is one scalar, pointer or byte-array field of a flattened struct.
type leaf struct {
	name      string
	off, size uintptr
	bytes     bool // an array of bytes: a union as cgo gives it, a name, reserved space
}

// leaves flattens t from off: nested structs and arrays of structs are
// expanded, everything else is one leaf. Blank fields (padding) are left out.
func leaves(t reflect.Type, name string, off uintptr) []leaf {
	switch t.Kind() {
	case reflect.Struct:
		var out []leaf
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Name == "_" {
				continue
			}
			out = append(out, leaves(f.Type, name+"."+f.Name, off+f.Offset)...)
		}
		return out
	case reflect.Array:
		if e := t.Elem(); e.Kind() == reflect.Struct {
			var out []leaf
			for i := 0; i < t.Len(); i++ {
				out = append(out, leaves(e, name+"[]", off+uintptr(i)*e.Size())...)
			}
			return out
		}
		return []leaf{{name, off, t.Size(), t.Elem().Size() == 1}}
	}
	return []leaf{{name, off, t.Size(), false}}
}

func isReserved(name string) bool {
	n := strings.ToLower(name[strings.LastIndex(name, ".")+1:])
	return strings.HasPrefix(n, "rsv") || strings.HasPrefix(n, "resv") || strings.HasPrefix(n, "reserve")
}

// mirrorProblems compares the Go mirror of m with the layout cgo took from
// the C compiler: the same size; every Go field exactly over a C field (or
// inside a C byte array: a union, reserved space); every C field that is not
// reserved covered by a Go field. The mirrors are generated from the same
// headers (cmd/shimgen/mirrortypes.go); this is the check that generator
// and compiler agree, through cgo's reading of the layout rather than ours.
func mirrorProblems(m mirror) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	c, g := m.cType, m.goType
	if g.Size() != c.Size() {
		bad("%s (%s) vs %s: size %d in C, %d in Go", m.cName, m.where, g, c.Size(), g.Size())
	}
	cl, gl := leaves(c, m.cName, 0), leaves(g, g.String(), 0)
	for _, x := range gl {
		ok := false
		for _, y := range cl {
			if x.off == y.off && x.size == y.size || y.bytes && x.off >= y.off && x.off+x.size <= y.off+y.size {
				ok = true
				break
			}
		}
		if !ok {
			bad("%s (@%d, %d bytes) lies over no field of %s", x.name, x.off, x.size, m.cName)
		}
	}
	for _, y := range cl {
		if isReserved(y.name) {
			continue
		}
		ok := false
		for _, x := range gl {
			if x.off < y.off+y.size && y.off < x.off+x.size {
				ok = true
				break
			}
		}
		if !ok {
			bad("%s (@%d, %d bytes) has no Go field in %s", y.name, y.off, y.size, g)
		}
	}
	return out
}

// TestMirrorsMatchC checks every Go mirror of a vendor type that the C
// boundary casts (zmirrors.go, found by shimgen from the casts) against the
// C compiler's layout.
func TestMirrorsMatchC(t *testing.T) {
	assert.GreaterOrEqual(t, len(mirrors), 20, "the casts of libfake were found")
	for _, m := range mirrors {
		assert.Empty(t, mirrorProblems(m), "%s", m.cName)
	}
}

func TestMirrorCheckCatchesDrift(t *testing.T) {
	type cStruct struct {
		A   uint32
		B   uint64
		Rsv [4]uint8
	}
	type shifted struct {
		A uint32
		B uint32 // wrong width
		_ [8]uint8
		C uint32
	}
	type short struct{ A uint32 }
	ct := reflect.TypeOf(cStruct{})
	assert.NotEmpty(t, mirrorProblems(mirror{"cStruct", ct, reflect.TypeOf(shifted{}), "test"}))
	assert.NotEmpty(t, mirrorProblems(mirror{"cStruct", ct, reflect.TypeOf(short{}), "test"}))
	assert.Empty(t, mirrorProblems(mirror{"cStruct", ct, ct, "test"}))
}
