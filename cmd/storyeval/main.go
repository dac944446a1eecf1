// Command storyeval scores visual stories and captions from the command line.
//
// Usage:
//
//	go run ./cmd/storyeval <subcommand> [flags] [arguments]
//	go run ./cmd/storyeval -version
//
// Run it with -h to list the subcommands, and a subcommand with -h for its
// flags, which go before positional arguments. Every subcommand reads ids in
// file order, rejects a repeated id and prints results in input order; the
// scoring subcommands print JSON or, with -format csv, CSV, floats in
// shortest round-trip form. Errors go to standard error with one
// "storyeval SUBCOMMAND:" prefix and a non-zero exit status.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime/debug"
	"slices"
	"strings"
)

// command is one subcommand; run parses the words after its name and
// writes to stdout.
type command struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) error
}

// commands is the subcommand table, by name.
var commands = map[string]command{}

func init() {
	for _, c := range []command{
		{"cache", "the embedding cache of rovist, groovist, clipscore and score: stats, clear, or warm it with the crops of a regions file or an image folder", runCache},
		{"checkpoint", "list the tensors (and non-tensor entries) of safetensors, torch zip/legacy or sharded checkpoints", runCheckpoint},
		{"clipscore", "CLIPScore and RefCLIPScore of captions (clipscore.py conventions)", runCLIPScore},
		{"correlate", "Pearson, Spearman, Kendall τ-b/τ-c (and point-biserial) of two CSV columns, as SciPy", runCorrelate},
		{"devices", "the GPUs and CUDA libraries found, and why one is unusable", runDevices},
		{"embed", "embed a text or an image with a HuggingFace model directory (BERT, ALBERT, ViT, CLIP)", runEmbed},
		{"groovist", "GROOViST visual grounding of stories (CLIP, noun phrases, region crops)", runGroovist},
		{"imageproc", "ViT/CLIP image preprocessing (Pillow-exact) of PNG/JPEG files to pixel_values", runImageproc},
		{"models", "check a models folder: which files were found, which metrics they enable, where to get the missing ones; models convert writes a checkpoint as safetensors", runModels},
		{"ngram", "COCO caption metrics (BLEU-1..4, METEOR, ROUGE-L, CIDEr-D), NLTK BLEU and VIST METEOR of a corpus file", runNgram},
		{"nouns", "RoViST's nouns per sentence (NLTK sentences, words, POS tags) of each story", runNouns},
		{"nr", "RoViST-NR (non-redundancy) of each story", runNR},
		{"rovist", "RoViST (VG, C, NR and their sum) of each story from the original RoViST checkpoints, with system means; rovist train vg|c trains VG or C", runRoViST},
		{"sacrebleu", "SacreBLEU BLEU (13a, exp smoothing, 0-100) of a corpus file", runSacreBLEU},
		{"score", "every available metric on the stories of several systems: scores.csv, summary.json (means, CIs, significance, human correlation), report.html", runScore},
		{"stylem", "StyleM: build a contrastive n-gram table (stylem build) and score captions with OnlyStyle and StyleCIDEr (stylem score)", runStylem},
		{"tokenize", "BERT WordPiece, ALBERT SentencePiece or CLIP BPE model inputs of each text, as JSON lines", runTokenize},
		{"tokens", "NLTK 3.8 sentences and per-sentence word tokens of each story, as JSON lines", runTokens},
		{"vhed", "VHED assessments of metrics (Vrank paper): pair ranking accuracy, Ω^k, gap buckets, Reference Absent, plots", runVHED},
		{"vrank", "train the Vrank story-pair ranker on a VHED-format CSV (vrank train), predict ranking gaps (vrank predict), or MLM-pretrain its encoder (vrank pretrain)", runVrank},
	} {
		commands[c.name] = c
	}
}

func main() { os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr)) }

// runMain dispatches to a subcommand and returns the process exit status.
func runMain(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		usage(stderr)
		return 2
	case isHelp(args[0]):
		usage(stderr)
		return 0
	case args[0] == "-version" || args[0] == "--version" || args[0] == "version":
		fmt.Fprintln(stdout, version())
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "storyeval: unknown subcommand %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	err := c.run(args[1:], stdout, stderr)
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, context.Canceled): // Ctrl-C: no partial output was written
		fmt.Fprintf(stderr, "storyeval %s: interrupted\n", c.name)
		return 130
	}
	fmt.Fprintf(stderr, "storyeval %s: %v\n", c.name, err)
	return 1
}

// isHelp reports whether word asks for help.
func isHelp(word string) bool {
	return word == "-h" || word == "-help" || word == "--help" || word == "help"
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: storyeval <subcommand> [flags] [arguments]
       storyeval -version

Flags go before positional arguments. Scoring subcommands print JSON, or CSV with -format csv,
with one row per input item in input order; a repeated id is an error.

subcommands:
`)
	for _, n := range slices.Sorted(maps.Keys(commands)) {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'storyeval <subcommand> -h' for its flags.")
}

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
	names := make([]string, len(actions))
	for i, a := range actions {
		if len(args) > 0 && args[0] == a.name {
			return a.run(args[1:], stdout, stderr)
		}
		names[i] = a.name
	}
	fmt.Fprintln(stderr, strings.Join(usage, "\n"))
	switch {
	case len(args) == 0:
		return fmt.Errorf("missing action: %s", joinWords(names, "or"))
	case isHelp(args[0]):
		return flag.ErrHelp
	}
	return fmt.Errorf("unknown action %q (want %s)", args[0], joinWords(names, "or"))
}

// version describes the build: the module version ("(devel)" in a
// checkout), the VCS revision when recorded, and the Go version.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "storyeval (no build information)"
	}
	v := "storyeval " + bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			v += " " + s.Value
		} else if s.Key == "vcs.modified" && s.Value == "true" {
			v += " (modified)"
		}
	}
	return v + " " + bi.GoVersion
}

// parseFlags parses a subcommand's flags and at most maxArgs positional
// arguments (-1: any number). A flag after a positional argument, which Go's
// flag package would take as a file name, is an error that says to move it.
func parseFlags(fs *flag.FlagSet, args []string, maxArgs int) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	rest := fs.Args()
	for i, a := range rest {
		if i > 0 && len(a) > 1 && a[0] == '-' { // rest[0] is "-…" only after "--", on purpose
			return fmt.Errorf("flag %s comes after the argument %q: flags go before positional arguments (%s [flags] [arguments])", a, rest[i-1], fs.Name())
		}
	}
	switch {
	case maxArgs < 0 || len(rest) <= maxArgs:
		return nil
	case maxArgs == 0:
		return fmt.Errorf("unexpected argument %q: %s takes no positional arguments (input files are given with flags; see -h)", rest[0], fs.Name())
	}
	return fmt.Errorf("unexpected arguments %q", rest[maxArgs:])
}

// newFlagSet returns a subcommand's flag set, reporting errors on stderr.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// setUsage makes -h print the given lines, then the flags.
func setUsage(fs *flag.FlagSet, lines ...string) {
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), strings.Join(lines, "\n"))
		fs.PrintDefaults()
	}
}

// parseRequired is parseFlags without positional arguments, then, when
// format is not nil, checkFormat, then requireFlags of names.
func parseRequired(fs *flag.FlagSet, args []string, format *string, names ...string) error {
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if format != nil {
		if err := checkFormat(*format); err != nil {
			return err
		}
	}
	return requireFlags(fs, names...)
}

// requireFlags prints the usage and fails when a named flag is empty.
func requireFlags(fs *flag.FlagSet, names ...string) error {
	var missing []string
	for _, n := range names {
		if f := fs.Lookup(n); f == nil || f.Value.String() == "" {
			missing = append(missing, "-"+n)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	fs.Usage()
	if len(missing) == 1 {
		return fmt.Errorf("%s is required", missing[0])
	}
	return fmt.Errorf("%s are required", joinWords(missing, "and"))
}

// joinWords joins two or more words as "a, b and c" with conj.
func joinWords(words []string, conj string) string {
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}
