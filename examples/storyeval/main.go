// Command storyeval scores visual stories and captions from the command line.
//
// Usage:
//
//	go run ./examples/storyeval <subcommand> [flags]
//
// Run it with -h to list the subcommands; each subcommand documents its own
// flags with -h. Results are written to standard output as JSON or CSV with
// floats in shortest round-trip form; errors go to standard error and the
// exit status is non-zero.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand. Each lives in its own cmd_*.go file, which adds
// itself to the table in an init function, so that subcommands for different
// metric families do not touch each other's files.
type command struct {
	name    string
	summary string
	// run parses args (the words after the subcommand name) and writes the
	// result to stdout.
	run func(args []string, stdout, stderr io.Writer) error
}

// commands is the subcommand table, filled by register.
var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("storyeval: subcommand registered twice: " + c.name) // programming error, caught by any run
	}
	commands[c.name] = c
}

func main() {
	os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr))
}

// runMain dispatches to a subcommand and returns the process exit status.
func runMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "storyeval: unknown subcommand %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	if err := c.run(args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "storyeval %s: %v\n", c.name, err)
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: storyeval <subcommand> [flags]")
	fmt.Fprintln(w, "\nsubcommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'storyeval <subcommand> -h' for its flags.")
}
