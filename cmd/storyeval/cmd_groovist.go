package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/regions"
)

func init() {
	register(command{
		name:    "groovist",
		summary: "GROOViST visual grounding of stories (CLIP, noun phrases, region crops)",
		run:     runGroovist,
	})
}

func runGroovist(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("groovist", stderr)
	npsPath := fs.String("nps", "", "JSON file {id: [noun phrases]} (e.g. spaCy's, as GROOViST's nphrases.json)")
	storiesPath := fs.String("stories", "", "JSON file {id: text} or {id: {\"story\", \"images\"}}: phrases are extracted when -nps is not given")
	clip := addCLIPModelFlags(fs)
	dev := addDeviceFlag(fs)
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
	cacheFlags := addCacheFlags(fs)
	images := addImageFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval groovist (-nps FILE.json | -stories FILE.json) -model DIR -entities FILE.csv -crops DIR [-dataset aesop|vist|vwp|custom] [-theta X|vist|aesop|vwp|estimate] [-device cpu|cuda[:N]] [options]")
		fmt.Fprintln(stderr, "\nScores each story's noun phrases against the region crops of its images (GROOViST, Surikuchi et al. 2023).")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *npsPath == "" && *storiesPath == "" {
		fs.Usage()
		return errors.New("give -nps or -stories")
	}
	if *format != "json" && *format != "csv" {
		return fmt.Errorf("-format %q: want json or csv", *format)
	}
	d, err := dev.open()
	if err != nil {
		return err
	}
	defer d.Close()
	if *entities == "" || *crops == "" {
		return errors.New("-entities and -crops are required (the entities CSV and the folder of region crops)")
	}
	decode, err := images.options()
	if err != nil {
		return err
	}
	inputs, err := groovistInputs(*npsPath, *storiesPath)
	if err != nil {
		return err
	}
	ds, err := groovist.ParseDataset(*dataset)
	if err != nil {
		return fmt.Errorf("-%w", err)
	}
	var table *groovist.ImageTable
	if ds.NeedsTable() {
		if *sid2iids == "" {
			return fmt.Errorf("-dataset %s needs -sid2iids", ds)
		}
		data, err := readFile(*sid2iids)
		if err != nil {
			return fmt.Errorf("-sid2iids: %w", err)
		}
		if table, err = groovist.ParseImageTable(data, ds); err != nil {
			return fmt.Errorf("-sid2iids %s: %w", *sid2iids, err)
		}
	}
	if err := groovist.AssignImageIDs(inputs, ds, table); err != nil {
		return err
	}
	opts := groovist.Options{NoPenalty: *noPen, Tanh: *tanh}
	var estimate bool
	if opts.Theta, estimate, err = groovist.ParseTheta(*theta, ds); err != nil {
		return fmt.Errorf("-%w", err)
	}
	switch {
	case *noConc && *idf:
		return errors.New("-no-concreteness and -idf exclude each other")
	case *noConc:
		opts.Weighting = groovist.Uniform
	case *idf:
		opts.Weighting = groovist.IDF
	}
	if *nouns {
		opts.Units = groovist.Nouns
	}
	m, tok, err := clip.loadOn(d.Options)
	if err != nil {
		return err
	}
	defer m.Close()
	sc, err := groovist.NewScorer(m, tok)
	if err != nil {
		return err
	}
	sc.Decode = decode
	defer boundHeap(decode)()
	if *ratings != "" {
		if sc.Ratings, err = groovist.LoadRatings(*ratings); err != nil {
			return fmt.Errorf("-ratings: %w", err)
		}
	}
	if *pronouns != "" {
		if sc.Pronouns, err = groovist.LoadPronouns(*pronouns); err != nil {
			return fmt.Errorf("-pronouns: %w", err)
		}
	}
	if sc.Entities, err = regions.Load(*entities, regions.Options{}); err != nil {
		return fmt.Errorf("-entities: %w", err)
	}
	sc.CropsDir = *crops
	cache := cacheFlags.open("groovist", stderr)
	defer cache.close()
	if sc.Cache, sc.CacheModel, err = cache.clip(*clip.model); err != nil {
		return err
	}
	if opts.Weighting == groovist.IDF {
		opts.IDF, err = groovist.InputsIDF(inputs, opts.Units)
		if err != nil {
			return err
		}
	}
	ctx, stop := interruptContext()
	defer stop()
	var prog *progress
	last := 0
	opts.Progress = func(done, total int) {
		if prog == nil {
			prog = newProgress(stderr, total, "embeddings")
		}
		prog.Add(done - last)
		last = done
	}
	res, err := sc.Score(ctx, inputs, opts)
	prog.Finish()
	if err != nil {
		return imageError(err)
	}
	cache.succeeded()
	warnSkippedImages(stderr, "groovist", groovist.Skipped(res))
	if estimate {
		x := groovist.EstimateTheta(res)
		opts.Theta = groovist.ThetaOf(x)
		res = groovist.Rescore(res, opts)
	}
	if *format == "csv" {
		return groovist.WriteCSV(stdout, res)
	}
	return groovist.WriteJSON(stdout, res, opts.Theta.Value(), *details)
}

// groovistInputs reads the phrase lists and/or the stories, in file order.
func groovistInputs(npsPath, storiesPath string) ([]groovist.Input, error) {
	return groovist.LoadInputs(npsPath, storiesPath, limits.Limits{})
}
