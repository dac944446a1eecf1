// Command storyeval scores visual stories and captions from the command line.
//
// Usage:
//
//	go run ./cmd/storyeval <subcommand> [flags] [arguments]
//	go run ./cmd/storyeval -version
//
// Run it with -h to list the subcommands; each subcommand documents its own
// flags with -h. Flags go before positional arguments (Go's flag package
// stops at the first non-flag word). Every subcommand behaves the same way:
// it reads ids in file order, rejects a repeated id, prints results in
// input order, and the scoring subcommands print JSON or, with -format csv,
// CSV, with floats in shortest round-trip form. Errors go to standard error
// with one "storyeval SUBCOMMAND:" prefix and the exit status is non-zero.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
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
	if args[0] == "-version" || args[0] == "--version" || args[0] == "version" {
		fmt.Fprintln(stdout, version())
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
		if errors.Is(err, context.Canceled) {
			// Ctrl-C during a long run: no partial output was written.
			fmt.Fprintf(stderr, "storyeval %s: interrupted\n", c.name)
			return 130
		}
		fmt.Fprintf(stderr, "storyeval %s: %s\n", c.name, trimPackagePrefixes(err.Error()))
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: storyeval <subcommand> [flags] [arguments]")
	fmt.Fprintln(w, "       storyeval -version")
	fmt.Fprintln(w, "\nFlags go before positional arguments. Scoring subcommands print JSON, or CSV with -format csv,")
	fmt.Fprintln(w, "with one row per input item in input order; a repeated id is an error.")
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

// version describes the build: the module version (a tag when installed
// with go install module@version, "(devel)" in a checkout), the VCS
// revision when the build recorded one, and the Go version.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "storyeval (no build information)"
	}
	v := "storyeval " + bi.Main.Version
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v += " " + s.Value
		case "vcs.modified":
			if s.Value == "true" {
				v += " (modified)"
			}
		}
	}
	return v + " " + bi.GoVersion
}

// libraryPackages are the storyeval packages whose errors start with their
// name; the command already says which subcommand failed, so it drops
// these prefixes instead of printing "storyeval embed: encoders:
// checkpoint: …".
var libraryPackages = []string{"encoders", "checkpoint", "tokenize", "imageproc", "ngram", "stylem", "correlation", "rovist", "groovist", "vrank", "vhed", "vhedplot", "story"}

// trimPackagePrefixes removes library package prefixes at the start of msg
// and after each ": " separator.
func trimPackagePrefixes(msg string) string {
	parts := strings.Split(msg, ": ")
	out := parts[:0]
	for _, p := range parts {
		if slices.Contains(libraryPackages, p) {
			continue
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return msg
	}
	return strings.Join(out, ": ")
}

// parseFlags parses a subcommand's flags. maxArgs is how many positional
// arguments the subcommand takes (-1: any number). A flag written after a
// positional argument, which Go's flag package would take as one more file
// name, is an error that says to move it.
func parseFlags(fs *flag.FlagSet, args []string, maxArgs int) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	rest := fs.Args()
	for i, a := range rest {
		// rest[0] can start with "-" only after a "--" terminator, which
		// makes it a positional argument on purpose.
		if i > 0 && len(a) > 1 && a[0] == '-' {
			return fmt.Errorf("flag %s comes after the argument %q: flags go before positional arguments (%s [flags] [arguments])", a, rest[i-1], fs.Name())
		}
	}
	if maxArgs >= 0 && len(rest) > maxArgs {
		if maxArgs == 0 {
			return fmt.Errorf("unexpected argument %q: %s takes no positional arguments (input files are given with flags; see -h)", rest[0], fs.Name())
		}
		return fmt.Errorf("unexpected arguments %q", rest[maxArgs:])
	}
	return nil
}

// newFlagSet returns a subcommand's flag set, which reports errors on
// stderr instead of exiting.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// setUsage makes -h print the given lines, then the flags.
func setUsage(fs *flag.FlagSet, lines ...string) {
	fs.Usage = func() {
		for _, l := range lines {
			fmt.Fprintln(fs.Output(), l)
		}
		fs.PrintDefaults()
	}
}

// requireFlags fails, after printing the usage, when any of the named
// flags is empty.
func requireFlags(fs *flag.FlagSet, names ...string) error {
	var missing []string
	for _, n := range names {
		if f := fs.Lookup(n); f == nil || f.Value.String() == "" {
			missing = append(missing, "-"+n)
		}
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		fs.Usage()
		return fmt.Errorf("%s is required", missing[0])
	}
	fs.Usage()
	return fmt.Errorf("%s and %s are required", strings.Join(missing[:len(missing)-1], ", "), missing[len(missing)-1])
}
