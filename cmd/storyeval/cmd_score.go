package main

import (
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/correlation"
	"github.com/storyeval/storyeval/rovist"
)

// The -demo story set, its synthetic ratings and the caption corpus of its
// toy StyleM table (demo/README.md).
var (
	//go:embed demo/stories.json
	demoStories []byte
	//go:embed demo/ratings.csv
	demoRatings []byte
	//go:embed demo/stylem_corpus.jsonl
	demoStyleCorpus []byte
)

func runScore(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("score", stderr)
	demo := fs.Bool("demo", false, "score the embedded demo story set (20 VIST sequences, 3 systems, synthetic ratings, a toy StyleM table) instead of -in, on generated images and regions and, without -models, on random-weight demonstration models (they show the pipeline, not quality)")
	in := fs.String("in", "", "story set: a JSON file (sequences with images, references and one story per system) or a folder of per-system NAME.json files {id: story} with an optional references.json (required)")
	metrics := fs.String("metrics", "all", "metrics to run: all, or a comma-separated list of bleu,meteor,rouge,cider,nr,stylem,c,vg,groovist,clipscore,vrank and, only when named, nltkbleu (NLTK sentence_bleu) and meteor-vist (METEOR as the VIST scripts)")
	modelsDir := fs.String("models", "", "models folder (see 'storyeval models'): enables RoViST-C, RoViST-VG, GROOViST, CLIPScore (needs the story set's image files) and Vrank for the files it holds")
	regions := fs.String("regions", "", "regions CSV (image_id,bbox) of the story set's images, for RoViST-VG and GROOViST")
	crops := fs.String("crops", "", "folder of region crops named {image_id}_{bbox}.jpg, for RoViST-VG and GROOViST")
	vgDefaultIDF := fs.Float64("vg-default-idf", 0, "RoViST-VG weight of a noun missing from idf_dict.pkl (default: such a noun is an error, as the reference's KeyError)")
	human := fs.String("human", "", "CSV of human ratings with columns id,system,rating: adds each metric's correlation with them")
	outDir := fs.String("out", "storyeval-report", "folder for scores.csv, summary.json and report.html (created; existing files are replaced only when the run succeeds)")
	styleTable := fs.String("stylem-table", "", "StyleM table (from 'storyeval stylem build') for OnlyStyle")
	style := fs.String("style", "", "the style OnlyStyle scores against (with -stylem-table)")
	paraphrase := fs.String("meteor-paraphrase", "", "Meteor paraphrase table (paraphrase-en.gz) for METEOR's paraphrase stage")
	resamples := fs.Int("resamples", 1000, "bootstrap resamples for the confidence intervals")
	rounds := fs.Int("rounds", 9999, "random rounds of the paired randomization test (stories ≤ 20: exact test)")
	confidence := fs.Float64("confidence", 0.95, "coverage of the confidence intervals, in (0, 1)")
	seed := fs.Uint64("seed", 0, "seed of the bootstrap and randomization tests")
	correction := fs.String("correction", "holm", "multiple-comparison correction of the pairwise tests' p-values, over all tests of the run: holm (Holm's step-down, family-wise error) or bh (Benjamini-Hochberg, false discovery rate)")
	cache, images, device := addCacheFlags(fs), addImageFlags(fs), addDeviceFlag(fs)
	setUsage(fs, "usage: storyeval score -in STORIES.json|DIR [-metrics all|LIST] [-human ratings.csv] [-out DIR] [flags]",
		"\nScores every system's stories with every metric whose inputs are present, then writes",
		"scores.csv (one row per story and system), summary.json (per system mean and bootstrap CI,",
		"per pair of systems a paired randomization p-value and its adjusted value, corpus-level",
		"BLEU-4 and CIDEr-D, correlations with the human ratings)",
		"and report.html. Flags go before positional arguments; there are none.")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *in == "" && !*demo {
		fs.Usage()
		return errors.New("-in (or -demo) is required")
	}
	corr, ok := map[string]correlation.Correction{"holm": correlation.Holm, "bh": correlation.BenjaminiHochberg}[*correction]
	selected, errM := compare.ParseMetricNames(*metrics)
	decode, errD := images.options()
	if err := cmp.Or(errIf(*in != "" && *demo, "-in and -demo exclude each other"),
		errIf(!(*confidence > 0 && *confidence < 1), "-confidence %v is not in (0, 1)", *confidence),
		errIf(*resamples < 1 || *rounds < 1, "-resamples %d and -rounds %d must be at least 1", *resamples, *rounds),
		errIf((*styleTable == "") != (*style == ""), "-stylem-table and -style go together"),
		errIf(!ok, "-correction %s: want holm or bh", quoteShort(*correction)), flagError("metrics", errM), errD); err != nil {
		return err
	}
	dev, err := device.open()
	if err != nil {
		return err
	}
	defer dev.Close()
	opts := compare.SourcesOptions{Stories: *in, Ratings: *human, StyleTable: *styleTable, Style: *style, StyleNeeds: "-stylem-table and -style"}
	if *demo {
		opts.Demo = &compare.DemoSources{Stories: demoStories, Ratings: demoRatings, StyleCorpus: demoStyleCorpus, Style: "Happy"}
	}
	var c *cacheRun
	restore := func() {}
	defer func() { restore(); c.close() }()
	run, err := compare.RunOptions{Sources: opts, Metrics: selected, ModelsDir: *modelsDir, Paraphrase: *paraphrase,
		Models: compare.ModelsOptions{Regions: *regions, Crops: *crops, Decode: decode, Backend: dev.Backend,
			VG:            rovist.VGOptions{UseDefaultIDF: *vgDefaultIDF > 0, DefaultIDF: *vgDefaultIDF},
			NoFolderNeeds: "-models DIR", RegionsNeeds: "-regions CSV and -crops DIR (the image regions of the story set)",
		},
		Opened: func(r *compare.Run) (err error) {
			if !r.Models.EncodesImages() {
				return nil
			}
			if r.Demo.Label() == "" { // the demonstration models' embeddings are not worth keeping
				if c = cache.open("score", stderr); c != nil {
					err = r.Models.UseCache(c, c.Store)
				}
			}
			// Only a run that decodes images gets the heap bound: the n-gram
			// metrics of a large suite may need more than the decode budget.
			restore = boundHeap(decode)
			return err
		}}.Open()
	var me *compare.ModelsError
	if errors.As(err, &me) { // without a folder, OpenModels makes Absent metrics
		return fmt.Errorf("-models %s: %w", me.Dir, me.Err)
	} else if err != nil {
		return flagOf[*compare.StyleError](err, "-style ")
	}
	defer run.Close()
	for _, u := range compare.UnavailableColumns(run.Sources.Suite, run.Metrics) {
		fmt.Fprintf(stderr, "storyeval score: %s skipped: needs %s\n", u.Metric, u.Needs)
	}
	ctx, stop := interruptContext()
	defer stop()
	bar := newProgress(stderr, 0, "steps")
	defer bar.Finish()
	report, err := compare.Compare(ctx, run.Sources.Suite, run.Metrics, compare.Options{
		Resamples: *resamples, Rounds: *rounds, Confidence: *confidence, Seed: *seed,
		Ratings: run.Sources.Ratings, Correction: corr, Progress: bar.stage,
	})
	if err != nil {
		return imageError(err)
	}
	c.succeeded()
	for _, col := range report.Columns {
		warnSkippedImages(stderr, "score", col.SkippedImages)
	}
	if err := report.WriteFiles(*outDir); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "scored %d systems × %d stories with %d metrics; report: %s\n", len(report.Systems), run.Sources.Suite.Len(), len(report.Columns), filepath.Join(*outDir, "report.html"))
	bar.Finish()
	if cols := report.DemonstrationColumns(); len(cols) > 0 && run.Demo.Label() != "" {
		fmt.Fprintf(stderr, "%s: demonstration models (%s)\n", strings.Join(cols, ", "), run.Demo.Label())
		fmt.Fprintln(stderr, "real models: 'storyeval models -dir DIR' lists each file a models folder DIR lacks and where it comes from; with them, 'storyeval score -demo -models DIR'")
	}
	return nil
}
