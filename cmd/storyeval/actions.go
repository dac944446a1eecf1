package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// action is one word of a subcommand that does several things (stylem
// build|score, vrank train|predict|pretrain, rovist train vg|c).
type action struct {
	name string
	run  func(args []string, stdout, stderr io.Writer) error
}

// runAction runs the action args[0] names with the rest of args. usage
// lines go to stderr for -h and for a missing or unknown action, which are
// errors naming the actions there are.
func runAction(args []string, stdout, stderr io.Writer, usage []string, actions ...action) error {
	printUsage := func() {
		for _, l := range usage {
			fmt.Fprintln(stderr, l)
		}
	}
	names := make([]string, len(actions))
	for i, a := range actions {
		names[i] = a.name
	}
	want := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	if len(args) == 0 {
		printUsage()
		return fmt.Errorf("missing action: %s", want)
	}
	for _, a := range actions {
		if args[0] == a.name {
			return a.run(args[1:], stdout, stderr)
		}
	}
	printUsage()
	switch args[0] {
	case "-h", "-help", "--help", "help":
		return flag.ErrHelp
	}
	return fmt.Errorf("unknown action %q (want %s)", args[0], want)
}
