// Command movefiles moves Go files from one package of this module into
// another as a type-checked source rewrite, and rewrites every other file
// of the module to match. Run it in the module root:
//
//	go run ./cmd/movefiles -from ./acl -to ./rt/core -files a.go,b.go [-rename old=New,T.field=New] [-dry] [-check=false]
//
// The source package is type-checked from source with its in-package
// tests (dependencies from `go list -export` data); the rest of the module
// is read syntactically. What it does:
//   - Moved objects are the package-level declarations of the moved files,
//     their methods, the fields of struct types and the methods of
//     interface types declared there. Moved _test.go files become tests of
//     the destination.
//   - A moved file that references an object of the source package declared
//     in a file that stays is an error: every reference is listed
//     (file:line: name (declared in file)).
//   - A method declared in a staying file whose receiver type moves becomes
//     a plain function taking the receiver first (named after the method,
//     or <type><Method> when that name is taken); its calls x.m(a) become
//     m(x, a), with &x or *x where the receiver kind needs it, and the
//     embedded fields a promoted call goes through spelled out
//     (o.m() → m(&o.Inner)). Method values, method expressions, exported
//     methods whose name any other package selects (those packages are not
//     type-checked), methods of generic types and methods that implement
//     an interface are errors.
//   - A moved unexported object used from a staying file is exported: first
//     letter upper-cased (Id, not ID), or the -rename name (old=New for a
//     package-level name, Type.field=New for a field or method), at every
//     definition, use, composite-literal key and embedded-field selector;
//     a doc comment starting with the old name gets the new one. Unkeyed
//     literals of moved struct types in staying files get field keys (vet).
//   - Collisions are errors: in the destination's package scope, in a
//     type's field and method set, a new name shadowed at a use, a
//     converted function shadowed at a call, a file or package already
//     using the destination's name, interfaces with unexported methods
//     implemented across the two packages, staying files using what a
//     moving test file declares.
//   - Staying files reference moved package-level objects as dest.Name;
//     in every other package (tests and external tests included; shared/
//     and what the go tool ignores skipped) src.X becomes dest.X. Imports
//     are added (never into an import "C" block) and dropped when unused;
//     edits are made at token positions, so comments and layout stay,
//     then the file is gofmt-formatted.
//   - Before anything is written, `go build ./...` and `go vet` of the
//     touched packages run over the rewritten files (go -overlay); if they
//     fail nothing is written. -check=false skips that. -dry prints the plan
//     (files moved, names exported, methods converted, files rewritten per
//     package, warnings) and writes nothing.
//
// Not handled (errors or warnings, never guesses): cgo in the source
// package, dot imports of the source package, moving external test files
// (package x_test), files excluded by build constraints in the source
// package (warned, not rewritten), //go:embed and //go:linkname in moved
// files (warned), init functions that move (warned: they now run before
// the source package's), package doc comments that move (warned), fields
// exported on tagged structs (warned: encoders and reflection see them), text that names moved objects (comments, strings,
// generators: generated files rewritten are warned about, their generators
// are not changed), and tests that read their package's sources by path.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	from := flag.String("from", "", "source package directory, e.g. ./acl")
	to := flag.String("to", "", "destination package directory, e.g. ./rt/core (created if needed)")
	files := flag.String("files", "", "comma-separated base names of the files to move (_test.go files too)")
	rename := flag.String("rename", "", "comma-separated old=New or Type.field=New: the exported name to give an object")
	dry := flag.Bool("dry", false, "print the plan and write nothing")
	check := flag.Bool("check", true, "run go build ./... and go vet on the touched packages after writing")
	flag.Parse()
	if *from == "" || *to == "" || *files == "" {
		fmt.Fprintln(os.Stderr, "usage: movefiles -from DIR -to DIR -files a.go,b.go [-rename old=New,...] [-dry]")
		os.Exit(2)
	}
	m := &mover{root: ".", out: os.Stdout}
	err := m.run(*from, *to, splitList(*files), splitList(*rename), *dry, *check)
	if err != nil {
		fmt.Fprintln(os.Stderr, "movefiles:", err)
		os.Exit(1)
	}
}

func splitList(s string) []string {
	var r []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			r = append(r, x)
		}
	}
	return r
}
