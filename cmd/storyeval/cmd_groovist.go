package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/storyeval/storyeval/groovist"
)

func runGroovist(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("groovist", stderr)
	npsPath := fs.String("nps", "", "JSON file {id: [noun phrases]} (e.g. spaCy's, as GROOViST's nphrases.json)")
	storiesPath := fs.String("stories", "", "JSON file {id: text} or {id: {\"story\", \"images\"}}: phrases are extracted when -nps is not given")
	entities := fs.String("entities", "", "entities CSV (image_id, bbox, ...) (required)")
	crops := fs.String("crops", "", "folder of region crops {image_id}_{bbox}.jpg (required)")
	dataset := fs.String("dataset", "", "image ids and θ preset: vist, aesop, vwp or custom (default: images of -stories, θ of vist)")
	sid2iids := fs.String("sid2iids", "", "JSON {story id: [image ids]} (vist, custom) or {scene id: n images} (vwp)")
	theta := fs.String("theta", "", "θ: a number, a preset (vist, aesop, vwp) or 'estimate' (mean NP score of this run); default: the dataset's preset")
	ratings := fs.String("ratings", "", "concreteness ratings file Word;Conc.M (default: the embedded Brysbaert ratings)")
	pronouns := fs.String("pronouns", "", "pronoun list, one per line (default: GROOViST's)")
	noConc := fs.Bool("no-concreteness", false, "ablation −C: weight every phrase 1")
	noPen := fs.Bool("no-penalty", false, "ablation −P: no penalty below θ")
	idf := fs.Bool("idf", false, "ablation +idf: idf weights computed over the input stories")
	nouns := fs.Bool("nouns", false, "ablation +Ns: single nouns instead of noun phrases (extracted phrases only)")
	tanh := fs.Bool("tanh", false, "map scores to [-1, 1] with tanh")
	format := fs.String("format", "json", "output format: json or csv")
	details := fs.Bool("details", false, "JSON: per-phrase diagnostics (weight, cosines, best image and region)")
	r := addCLIPRun(fs)
	setUsage(fs, "usage: storyeval groovist (-nps FILE.json | -stories FILE.json) -model DIR -entities FILE.csv -crops DIR [-dataset aesop|vist|vwp|custom] [-theta X|vist|aesop|vwp|estimate] [-device cpu|cuda[:N]] [options]",
		"\nScores each story's noun phrases against the region crops of its images (GROOViST, Surikuchi et al. 2023).")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *npsPath == "" && *storiesPath == "" {
		fs.Usage()
		return errors.New("give -nps or -stories")
	}
	if err := oneOf("format", *format, "json", "csv"); err != nil {
		return err
	}
	defer r.close()
	if err := r.start(); err != nil {
		return err
	}
	if *entities == "" || *crops == "" {
		return errors.New("-entities and -crops are required (the entities CSV and the folder of region crops)")
	}
	run, err := groovist.InputFiles{Phrases: *npsPath, Stories: *storiesPath, Dataset: *dataset, ImageTable: *sid2iids, Theta: *theta}.Load()
	if err != nil {
		return groovistFlagError(err)
	}
	if *noConc && *idf {
		return errors.New("-no-concreteness and -idf exclude each other")
	}
	if err := r.load("groovist", stderr); err != nil {
		return err
	}
	sc, err := groovist.NewScorerWithFiles(r.model, r.tok, groovist.ScorerFiles{Entities: *entities, Crops: *crops, Ratings: *ratings, Pronouns: *pronouns})
	if err != nil {
		return groovistFlagError(err)
	}
	sc.Cache, sc.CacheModel, sc.Decode = r.Cache, r.CacheModel, r.decode
	opts, err := groovist.Ablations{NoConcreteness: *noConc, NoPenalty: *noPen, IDF: *idf, Nouns: *nouns, Tanh: *tanh}.Options(run.Theta, run.Inputs)
	if err != nil {
		return err
	}
	p, progress := newBar(stderr, "embeddings")
	opts.Progress = progress
	res, err := sc.Score(r.ctx, run.Inputs, opts)
	if err := scored(p, r.cache, err); err != nil {
		return err
	}
	warnSkippedImages(stderr, "groovist", groovist.Skipped(res))
	res = run.Finish(res, &opts)
	if *format == "csv" {
		return groovist.WriteCSV(stdout, res)
	}
	return groovist.WriteJSON(stdout, res, opts.Theta.Value(), *details)
}

// groovistFlagError prefixes a *groovist.InputError with the flag of its
// input: a value's error (dataset, θ) starts with its name; the table's
// and the images' as flagFileError, as the command always wrote them.
func groovistFlagError(err error) error {
	var ie *groovist.InputError
	var nt *groovist.NoImageTableError
	switch {
	case errors.As(err, &nt):
		return fmt.Errorf("-dataset %s needs -sid2iids", nt.Dataset)
	case !errors.As(err, &ie):
		return err
	case ie.Input == "dataset" || ie.Input == "theta":
		return fmt.Errorf("-%w", err)
	case ie.Input == "image table":
		return flagFileError("-sid2iids", err)
	case ie.Input == "images":
		return flagFileError("-images", err)
	}
	return fmt.Errorf("-%s: %w", ie.Input, err) // the scorer's files
}

// flagFileError prefixes err, from loading the file a flag names, with the
// flag: "-flag: open …" when the file cannot be opened, else "-flag FILE:
// …" (the library's error starts with the file).
func flagFileError(flag string, err error) error {
	if errors.As(err, new(*fs.PathError)) {
		return fmt.Errorf("%s: %w", flag, err)
	}
	return fmt.Errorf("%s %w", flag, err)
}

// warnSkippedImages prints a warning line for each of the first 10 images
// that GROOViST skipped (the reference skips them silently; their
// alignment is 0), then how many more there were.
func warnSkippedImages(stderr io.Writer, name string, skipped []groovist.SkippedImage) {
	for i, s := range skipped {
		if i == 10 {
			fmt.Fprintf(stderr, "storyeval %s: warning: %d more images skipped (the \"error\" of each image in the JSON output says why)\n", name, len(skipped)-i)
			return
		}
		hint := map[bool]string{true: " (raise the limit with -max-image-pixels)"}[s.TooLarge]
		fmt.Fprintf(stderr, "storyeval %s: warning: %s%s\n", name, s, hint)
	}
}
