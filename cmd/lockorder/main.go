// Command lockorder prints the mutexes of the runtime, the driver and the
// device model and every place one is taken while another is held, found
// by reading the source (go/types; calls between the analysed packages
// are followed, calls through function values and interfaces are not,
// and a go statement's function is not a call of its starter).
// docs/internals.md "Lock order" is the order they must respect; the test
// of this package checks every edge against it.
//
//	go run ./cmd/lockorder        # edges, one per line: A -> B  where
//	go run ./cmd/lockorder -locks # every mutex
//	go run ./cmd/lockorder -levels # every mutex with its level
//	go run ./cmd/lockorder -table  # the rows of the docs table
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	listLocks := flag.Bool("locks", false, "list every mutex instead of the edges")
	levels := flag.Bool("levels", false, "print each mutex with its level (the longest chain of edges leading to it)")
	table := flag.Bool("table", false, "print the rows of the docs/internals.md table (levels, then the leaves)")
	flag.Parse()
	r, err := Analyze(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "lockorder:", err)
		os.Exit(1)
	}
	if *table {
		rows, err := r.Table()
		if err != nil {
			fmt.Fprintln(os.Stderr, "lockorder:", err)
			os.Exit(1)
		}
		fmt.Print(rows)
		return
	}
	if *levels {
		lv, cycle := r.Levels()
		if cycle != nil {
			fmt.Fprintln(os.Stderr, "lockorder: locks on or after a cycle:", cycle)
			os.Exit(1)
		}
		for _, l := range r.Locks {
			fmt.Printf("%d\t%s\n", lv[l], l)
		}
		return
	}
	if *listLocks {
		for _, l := range r.Locks {
			fmt.Println(l)
		}
		return
	}
	for _, e := range r.Edges {
		fmt.Printf("%s -> %s\t%s\n", e.A, e.B, e.Where)
	}
}
