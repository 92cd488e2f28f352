// Command npuemu is the emulator's command line: `npuemu info` prints the
// emulated node like npu-smi, `npuemu compat` prints the support table.
// Each subcommand lives in its own file and registers itself in commands.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand: run gets the remaining arguments and writes to
// out; it returns the process exit code.
type command struct {
	summary string
	run     func(args []string, out io.Writer) int
}

var commands = map[string]command{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout))
}

func run(args []string, out io.Writer) int {
	if len(args) == 0 {
		usage(os.Stderr)
		return 2
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(os.Stderr, "npuemu: unknown command %q\n", args[0])
		usage(os.Stderr)
		return 2
	}
	return c.run(args[1:], out)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: npuemu <command> [arguments]")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
}
