package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/internal/gzipbound"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/story"
)

const (
	// maxInputBytes bounds every input file the command reads, so that a
	// wrong path (a checkpoint, a device) fails fast instead of filling memory.
	maxInputBytes = 1 << 30
	// batchStories is the most stories of a batch (tests cross it).
	batchStories = 4096
	// streamedNote ends the usage of the commands that print each batch of
	// stories as it is done.
	streamedNote = "Output is written a batch of stories at a time, as the file is read: an error in a later\nstory stops it there, with exit status 1."
	// Output formats of the scoring subcommands (-format).
	formatJSON, formatCSV = "json", "csv"
)

// readFile reads a whole input file, refusing one above maxInputBytes.
func readFile(path string) ([]byte, error) { return gzipbound.ReadFile(path, maxInputBytes) }

// storyRead and storyBatch read a {id: story} file a batch at a time, so
// that memory is bounded by a batch (story.EachBatchFile).
var (
	storyRead  = story.ReadOptions{Limits: limits.Limits{MaxBytes: maxInputBytes}}
	storyBatch = story.BatchOptions{MaxStories: batchStories}
)

// writeJSON writes v as indented JSON followed by a newline, map keys
// sorted, without HTML escaping.
func writeJSON(w interface{ Write([]byte) (int, error) }, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// formatFlag adds the -format flag every scoring subcommand has.
func formatFlag(fs *flag.FlagSet) *string {
	return fs.String("format", formatJSON, "output format: json, or csv (one row per item in input order)")
}

// checkFormat validates a -format value.
func checkFormat(format string) error {
	if format != formatJSON && format != formatCSV {
		return fmt.Errorf("-format: want json or csv, got %q", format)
	}
	return nil
}

// parseList reads a comma-separated flag value of numbers with parse;
// what names one ("a number") in the error, which quotes the bad item.
func parseList[T any](s string, parse func(string) (T, error), what string) ([]T, error) {
	var out []T
	for _, f := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%q is not %s", f, what)
		}
		out = append(out, v)
	}
	return out, nil
}

// parseFloat is strconv.ParseFloat for 64 bits, as parseList takes it.
func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }
