// Command movefiles moves Go files from one package of this module into
// another as a type-checked source rewrite, and rewrites every other file
// of the module to match. Run it in the module root:
//
//	go run ./cmd/movefiles -from ./acl -to ./rt/core -files a.go,b.go [-rename old=New,T.field=New] [-dry]
//
// What it does (package doc of the decisions; README of the tool):
//   - Moved objects are the package-level declarations of the moved files,
//     their methods, the fields of struct types and the methods of
//     interface types declared there.
//   - A moved file that references an object of the source package declared
//     in a file that stays is an error (every reference is listed).
//   - A method declared in a staying file whose receiver type moves becomes
//     a plain function taking the receiver first; its calls x.m(a) become
//     m(x, a) (&x or *x where the receiver kind needs it). Method values,
//     method expressions, calls promoted through embedded fields, exported
//     methods, methods of generic types and methods that satisfy an
//     interface are errors.
//   - A moved unexported object used from a staying file is exported (first
//     letter upper-cased, or the -rename name) at every definition and use;
//     doc comments starting with the old name follow. Collisions (package
//     scope, field/method set, shadowing at a use) are errors.
//   - Staying files reference moved package-level objects as dest.Name;
//     other packages' src.X selectors become dest.X; imports are added and
//     dropped as needed; the result is gofmt-formatted.
//   - Nothing is written when any error is found; -dry prints the plan.
//     After writing, `go build ./...` and `go vet` of the touched packages
//     run (disable with -check=false).
//
// Not handled (errors or warnings, never guesses): cgo in the source
// package, dot imports of the source package, moving external test files
// (package x_test), files excluded by build tags in the source package
// (warned, not rewritten).
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
