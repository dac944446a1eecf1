package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/compare"
)

func init() {
	register(command{
		name:    "models",
		summary: "check a models folder: which files were found, which metrics they enable, where to get the missing ones; models convert writes a checkpoint as safetensors",
		run:     runModels,
	})
}

func runModels(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "convert" {
		return runModelsConvert(args[1:], stdout, stderr)
	}
	fs := newFlagSet("models", stderr)
	dir := fs.String("dir", "", "models folder to check (required)")
	format := fs.String("format", "table", "output format: table or json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval models -dir DIR [-format table|json]")
		fmt.Fprintln(stderr, "       storyeval models convert -in CHECKPOINT -out FILE.safetensors   (memory-mapped, faster to load)")
		fmt.Fprintln(stderr, "\nLists, for each learned metric, the files of the models folder layout that were found,")
		fmt.Fprintln(stderr, "whether the metric is enabled, and for each missing file where the original release")
		fmt.Fprintln(stderr, "publishes it and the name to give it. Flags go before positional arguments; there are none.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *dir == "" {
		fs.Usage()
		return errors.New("-dir is required")
	}
	status, err := compare.CheckModels(*dir)
	if err != nil {
		return err
	}
	switch *format {
	case "json":
		return writeJSON(stdout, status)
	case "table":
		return compare.WriteModelsTable(stdout, *dir, status)
	}
	return fmt.Errorf("-format %q: want table or json", *format)
}

// quoteShort quotes a user-given value for a message, cut after 80
// characters.
func quoteShort(s string) string {
	r := []rune(s)
	if len(r) > 80 {
		return fmt.Sprintf("%q…", string(r[:80]))
	}
	return fmt.Sprintf("%q", s)
}
