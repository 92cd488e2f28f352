package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fixture is a small module: package a (files that move, files that
// stay, in-package tests of both kinds, an external test package) and
// package b importing a.
var fixture = map[string]string{
	"go.mod": "module example.com/fx\n\ngo 1.22\n",
	"a/moved.go": `// Package a is the fixture's source package.
package a

import "sync"

// limit is the most a registry holds.
const limit = 10

var helperName = "reg"

// Reg is a registry.
type Reg struct {
	mu      sync.Mutex
	entries int // how many entries it holds
	*inner
}

type inner struct{ n int }

// newReg returns an empty registry.
func newReg() *Reg { return &Reg{inner: &inner{n: 1}} }

// Count returns the number of entries.
func (r *Reg) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.entries
}

type box[T any] struct{ val T }

type pair struct{ n, m int }

func pick[T any](x T) T { return box[T]{val: x}.val }

// unusedOutside stays unexported: only moved files use it.
func unusedOutside() int { return limit }
`,
	"a/moved_test.go": `package a

import "testing"

func TestMovedInternal(t *testing.T) {
	if unusedOutside() != 10 || pick(3) != 3 {
		t.Fatal("moved internals")
	}
}
`,
	"a/keep.go": `package a

import "fmt"

// Describe says what r holds.
func Describe(r *Reg) string {
	return fmt.Sprintf("%s %d %d", helperName, r.entries, r.inner.n)
}

// capturing reports whether r is over its limit.
func (r *Reg) capturing(extra int) bool { return r.entries+extra > limit }

// Outer reaches capturing through two embedded fields.
type Outer struct{ wrap }

type wrap struct{ Reg }

func (o *Outer) Over() bool { return o.capturing(0) || o.Half() > 0 }

// Half is exported, and no other package selects .Half: it converts.
func (r *Reg) Half() int { return r.entries / 2 }

// size is the size of a value.
func (p pair) size() int { return p.n + p.m }

func size() int { return 0 }

// Use calls the converted methods every way a caller can.
func Use() (bool, bool, int, int) {
	r := newReg()
	r.entries = 4
	v := Reg{entries: 11}
	b := box[int]{val: 2}
	p, q := pair{7, 0}, &pair{m: 8}
	return r.capturing(7), v.capturing(0), p.size() + q.size(), pick[int](b.val) + size()
}
`,
	"a/rest.go": `package a

// Rest stays in a through both moves.
func Rest() int { return 1 }
`,
	"a/keep_test.go": `package a

import "testing"

func TestKeep(t *testing.T) {
	r := newReg()
	r.entries = 3
	if got := Describe(r); got != "reg 3 1" {
		t.Fatalf("Describe = %q", got)
	}
	if !r.capturing(8) || r.capturing(1) {
		t.Fatal("capturing")
	}
}
`,
	"a/ext_test.go": `package a_test

import (
	"testing"

	"example.com/fx/a"
)

func TestExt(t *testing.T) {
	var r a.Reg
	over, vOver, n, p := a.Use()
	if r.Count() != 0 || !over || !vOver || n != 15 || p != 2 {
		t.Fatal(over, vOver, n, p)
	}
}
`,
	"b/b.go": `package b

import "example.com/fx/a"

// New returns a registry and its description.
func New() (*a.Reg, string) {
	r := &a.Reg{}
	return r, a.Describe(r)
}
`,
	"b/single.go": `package b

import "example.com/fx/a"

var One = a.Reg{}
`,
	"b/cgo.go": `package b

// int twice(int x) { return 2 * x; }
import "C"

import "example.com/fx/a"

func Twice(r *a.Reg) int { return int(C.twice(C.int(a.Describe(r)[0]))) }
`,
	"b/only.go": `package b

import (
	"fmt"

	alias "example.com/fx/a"
)

// Zero is a registry value.
var Zero alias.Reg

func Show() string { return fmt.Sprint(Zero.Count()) }
`,
}

func writeFixture(t *testing.T, extra map[string]string) string {
	dir := t.TempDir()
	for _, files := range []map[string]string{fixture, extra} {
		for name, text := range files {
			p := filepath.Join(dir, name)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		}
	}
	return dir
}

// snapshot hashes every file under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	m := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		m[p] = fmt.Sprintf("%x", sha256.Sum256(b))
		return err
	}))
	return m
}

func runMove(t *testing.T, dir string, files, renames []string, dry bool) (*mover, string, error) {
	var out bytes.Buffer
	m := &mover{root: dir, out: &out}
	err := m.run("./a", "./rt/core", files, renames, dry, !dry)
	return m, out.String(), err
}

func read(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}

func TestMoveFixture(t *testing.T) {
	dir := writeFixture(t, nil)
	m, out, err := runMove(t, dir, []string{"moved.go", "moved_test.go"}, nil, false)
	require.NoError(t, err, out)
	require.Equal(t, []string{
		"Reg.entries -> Entries",
		"Reg.inner -> Inner",
		"box -> Box",
		"box.val -> Val",
		"helperName -> HelperName",
		"inner -> Inner",
		"inner.n -> N",
		"limit -> Limit",
		"newReg -> NewReg",
		"pair -> Pair",
		"pair.m -> M",
		"pair.n -> N",
		"pick -> Pick",
	}, m.planExport)
	conv := map[string]string{}
	for fn, name := range m.converted {
		conv[fn.Name()] = name
	}
	require.Equal(t, map[string]string{"Half": "Half", "capturing": "capturing", "size": "pairSize"}, conv)

	require.NoFileExists(t, filepath.Join(dir, "a/moved.go"))
	require.NoFileExists(t, filepath.Join(dir, "a/moved_test.go"))
	moved := read(t, filepath.Join(dir, "rt/core/moved.go"))
	require.Contains(t, moved, "package core\n")
	require.Contains(t, moved, "// Limit is the most a registry holds.\nconst Limit = 10")
	require.Contains(t, moved, "// NewReg returns an empty registry.\nfunc NewReg() *Reg")
	require.Contains(t, moved, "Entries int // how many entries it holds")
	require.Contains(t, moved, "// unusedOutside stays unexported")
	require.Contains(t, moved, "return Box[T]{Val: x}.Val")
	require.Contains(t, read(t, filepath.Join(dir, "rt/core/moved_test.go")), "package core\n")

	keep := read(t, filepath.Join(dir, "a/keep.go"))
	require.Contains(t, keep, `"example.com/fx/rt/core"`)
	require.Contains(t, keep, "// capturing reports whether r is over its limit.\nfunc capturing(r *core.Reg, extra int) bool { return r.Entries+extra > core.Limit }")
	require.Contains(t, keep, "// pairSize is the size of a value.\nfunc pairSize(p core.Pair) int")
	require.Contains(t, keep, "return capturing(r, 7), capturing(&v, 0), pairSize(p) + pairSize(*q), core.Pick[int](b.Val) + size()")
	require.Contains(t, keep, "b := core.Box[int]{Val: 2}")
	require.Contains(t, keep, "p, q := core.Pair{N: 7, M: 0}, &core.Pair{M: 8}")
	require.Contains(t, keep, "r.Inner.N")
	require.Contains(t, keep, "func (o *Outer) Over() bool { return capturing(&o.wrap.Reg, 0) || Half(&o.wrap.Reg) > 0 }")
	require.Contains(t, read(t, filepath.Join(dir, "a/keep_test.go")), "r := core.NewReg()")

	b := read(t, filepath.Join(dir, "b/b.go"))
	require.Contains(t, b, "r := &core.Reg{}")
	require.Contains(t, b, "a.Describe(r)")
	require.Contains(t, b, `"example.com/fx/a"`)
	only := read(t, filepath.Join(dir, "b/only.go"))
	require.Contains(t, only, "var Zero core.Reg")
	require.NotContains(t, only, "example.com/fx/a\"", "the unused import of a is dropped")
	require.Contains(t, read(t, filepath.Join(dir, "a/ext_test.go")), "var r core.Reg")
	cgo := read(t, filepath.Join(dir, "b/cgo.go"))
	require.Contains(t, cgo, "// int twice(int x) { return 2 * x; }\nimport \"C\"\n\nimport (\n\t\"example.com/fx/a\"\n\t\"example.com/fx/rt/core\"\n)")
	require.Contains(t, cgo, "func Twice(r *core.Reg) int")
	require.Equal(t, "package b\n\nimport \"example.com/fx/rt/core\"\n\nvar One = core.Reg{}\n", read(t, filepath.Join(dir, "b/single.go")))
	require.Contains(t, keep, "import (\n\t\"fmt\"\n\n\t\"example.com/fx/rt/core\"\n)")

	goTest(t, dir)

	// A second move into the now existing package: core.X in the moved
	// file becomes X, and its import goes.
	m, out, err = runMove(t, dir, []string{"keep.go", "keep_test.go"}, nil, false)
	require.NoError(t, err, out)
	require.Empty(t, m.planExport, "its test moves with it: nothing crosses")
	keep = read(t, filepath.Join(dir, "rt/core/keep.go"))
	require.NotContains(t, keep, "core.")
	require.NotContains(t, keep, `"example.com/fx/rt/core"`)
	require.Contains(t, keep, "// capturing reports whether r is over its limit.\nfunc capturing(r *Reg, extra int) bool { return r.Entries+extra > Limit }")
	b = read(t, filepath.Join(dir, "b/b.go"))
	require.Contains(t, b, "return r, core.Describe(r)")
	require.NotContains(t, b, `"example.com/fx/a"`)
	goTest(t, dir)
}

func goTest(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("go", "test", "./...")
	cmd.Dir = dir
	res, err := cmd.CombinedOutput()
	require.NoError(t, err, string(res))
}

func TestMoveDryWritesNothing(t *testing.T) {
	dir := writeFixture(t, nil)
	before := snapshot(t, dir)
	_, out, err := runMove(t, dir, []string{"moved.go"}, []string{"newReg=Make", "Reg.entries=NumEntries", "pair.n=First"}, true)
	require.NoError(t, err)
	require.Contains(t, out, "a/moved.go -> rt/core/moved.go")
	require.Contains(t, out, "newReg -> Make")
	require.Contains(t, out, "Reg.entries -> NumEntries")
	require.Contains(t, out, "pair.n -> First")
	require.Contains(t, out, "inner.n -> N")
	require.Contains(t, out, "(*Reg).capturing -> func capturing")
	require.Contains(t, out, "(pair).size -> func pairSize")
	require.Contains(t, out, "./b: b.go cgo.go only.go single.go")
	require.Contains(t, out, "warning: a/moved.go:1: the package doc comment of a moves with this file")
	require.Equal(t, before, snapshot(t, dir))
}

func TestMoveFailures(t *testing.T) {
	cases := []struct {
		name    string
		extra   map[string]string
		renames []string
		want    []string
	}{
		{"collisions", map[string]string{"a/collide.go": `package a

func Limit() int { return 1 }

func (r *Reg) Entries() int { return r.entries }
`}, nil, []string{
			"collision in package core: Limit, limit all become Limit",
			"collision in type Reg: Reg.entries becomes Entries, which is already a/collide.go:5",
		}},
		{"staying reference", map[string]string{"a/moved2.go": `package a

func usesStaying() int { return size() + Use2() }
`, "a/keep2.go": `package a

func Use2() int { return 2 }
`}, nil, []string{
			"a/moved2.go:3: size (declared in keep.go)",
			"a/moved2.go:3: Use2 (declared in keep2.go)",
		}},
		{"method value", map[string]string{"a/keep2.go": `package a

var f = (&Reg{}).capturing
`}, nil, []string{
			"a/keep2.go:3: Reg.capturing is used as a method value",
		}},
		{"interface", map[string]string{"a/keep2.go": `package a

type sizer interface{ size() int }

var _ sizer = pair{}
`}, nil, []string{
			"method pair.size stays but its type moves, and it implements",
		}},
		{"qualifier taken", map[string]string{"a/keep2.go": `package a

func f() int {
	core := 1
	return core + limit
}

type s struct{ core int }

func g(x s) int { return x.core + limit } // fields named core are fine
`}, nil, []string{
			"a/keep2.go:5: limit must become core.Limit but core is declared at a/keep2.go:4",
		}},
		{"qualifier declared", map[string]string{"a/keep2.go": `package a

var core = 1
`}, nil, []string{
			"a/keep.go:1: needs the import core but package a declares core (a/keep2.go:3)",
		}},
		{"build fails", map[string]string{"a/keep2.go": `package a

import "sync"

// S gets two Lock methods at depth 1 once inner2.lock is exported.
type S struct {
	inner2
	sync.Mutex
}

func f() { var s S; s.Lock(); s.inner2.lock() }
`, "a/moved2.go": `package a

type inner2 struct{}

func (inner2) lock() {}
`}, nil, []string{
			"nothing written: go build ./... fails on the rewritten tree",
			"ambiguous selector s.Lock",
		}},
		{"exported method selected elsewhere", map[string]string{"a/keep2.go": `package a

func (r *Reg) Peek() int { return r.entries }
`, "b/b2.go": `package b

import "example.com/fx/a"

func Peek(r *a.Reg) int { return r.Peek() }
`}, nil, []string{
			"a/keep2.go:3: exported method Reg.Peek stays but its type moves, and other packages select .Peek (b/b2.go:5)",
		}},
		{"renames", nil, []string{"n=V", "nosuch=X", "box.val=v2"}, []string{
			"-rename n=V: n is ambiguous (inner.n, pair.n); write Type.n=V",
			"-rename nosuch=X: no moved object is named nosuch",
			"a/moved.go:30: box.val is used from a file that stays but v2 is not exported",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFixture(t, c.extra)
			files := []string{"moved.go"}
			for _, f := range []string{"moved2.go", "collide.go"} {
				if _, ok := c.extra["a/"+f]; ok {
					files = append(files, f)
				}
			}
			before := snapshot(t, dir)
			_, out, err := runMove(t, dir, files, c.renames, false)
			require.Error(t, err, out)
			for _, w := range c.want {
				require.Contains(t, err.Error(), w)
			}
			require.True(t, strings.HasPrefix(err.Error(), "nothing written"), err.Error())
			require.NoDirExists(t, filepath.Join(dir, "rt"))
			require.Equal(t, before, snapshot(t, dir))
		})
	}
}
