package main

import (
	"bytes"
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/correlation"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
	"github.com/storyeval/storyeval/stylem"
)

func init() {
	register(command{
		name:    "score",
		summary: "every available metric on the stories of several systems: scores.csv, summary.json (means, CIs, significance, human correlation), report.html",
		run:     runScore,
	})
}

// The -demo story set and its synthetic ratings (demo/README.md).
var (
	//go:embed demo/stories.json
	demoStories []byte
	//go:embed demo/ratings.csv
	demoRatings []byte
	//go:embed demo/stylem_corpus.jsonl
	demoStyleCorpus []byte
)

// demoStyle is the style of the demo's toy StyleM table that the demo
// stories are scored against.
const demoStyle = "Happy"

// demoStyleTable builds the demo's toy StyleM table from its embedded
// two-style caption corpus.
func demoStyleTable() (*stylem.Table, error) {
	recs, err := stylem.ReadCorpusJSONL(bytes.NewReader(demoStyleCorpus), limits.Limits{})
	if err != nil {
		return nil, fmt.Errorf("demo/stylem_corpus.jsonl: %w", err)
	}
	return stylem.Build(recs, stylem.BuildOptions{})
}

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
	cache := addCacheFlags(fs)
	images := addImageFlags(fs)
	device := addDeviceFlag(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval score -in STORIES.json|DIR [-metrics all|LIST] [-human ratings.csv] [-out DIR] [flags]")
		fmt.Fprintln(stderr, "\nScores every system's stories with every metric whose inputs are present, then writes")
		fmt.Fprintln(stderr, "scores.csv (one row per story and system), summary.json (per system mean and bootstrap CI,")
		fmt.Fprintln(stderr, "per pair of systems a paired randomization p-value and its adjusted value, corpus-level")
		fmt.Fprintln(stderr, "BLEU-4 and CIDEr-D, correlations with the human ratings)")
		fmt.Fprintln(stderr, "and report.html. Flags go before positional arguments; there are none.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *in == "" && !*demo {
		fs.Usage()
		return errors.New("-in (or -demo) is required")
	}
	if *in != "" && *demo {
		return errors.New("-in and -demo exclude each other")
	}
	if !(*confidence > 0 && *confidence < 1) {
		return fmt.Errorf("-confidence %v is not in (0, 1)", *confidence)
	}
	if *resamples < 1 || *rounds < 1 {
		return fmt.Errorf("-resamples %d and -rounds %d must be at least 1", *resamples, *rounds)
	}
	if (*styleTable == "") != (*style == "") {
		return errors.New("-stylem-table and -style go together")
	}
	corr, ok := map[string]correlation.Correction{"holm": correlation.Holm, "bh": correlation.BenjaminiHochberg}[*correction]
	if !ok {
		return fmt.Errorf("-correction %s: want holm or bh", quoteShort(*correction))
	}
	selected, err := parseScoreMetrics(*metrics)
	if err != nil {
		return err
	}
	decode, err := images.options()
	if err != nil {
		return err
	}
	dev, err := device.open()
	if err != nil {
		return err
	}
	defer dev.Close()
	// Read and check every input before any model or table is loaded.
	inputs, err := readScoreInputs(*in, *demo, *human, *styleTable, *style)
	if err != nil {
		return err
	}
	var demoRun *scoreDemo
	if *demo && slices.ContainsFunc(selected, func(m string) bool { return slices.Contains(compare.LearnedMetricNames(), m) }) {
		// The demo's images, regions and crops, and without -models its
		// demonstration models, in a temporary folder: only learned
		// metrics use them.
		if demoRun, err = writeScoreDemo(&inputs, *modelsDir); err != nil {
			return err
		}
		defer demoRun.remove()
		*modelsDir = demoRun.models
		*regions, *crops = cmp.Or(*regions, demoRun.regions), cmp.Or(*crops, demoRun.crops)
	}
	suite := inputs.suite
	models, err := openScoreModels(*modelsDir, *regions, *crops, suite, selected, decode, rovist.VGOptions{UseDefaultIDF: *vgDefaultIDF > 0, DefaultIDF: *vgDefaultIDF}, dev.Options, demoRun.label())
	if err != nil {
		return err
	}
	var cacheRun *cacheRun
	if models.EncodesImages() {
		// The demonstration models' embeddings are not worth keeping.
		if demoRun.label() == "" {
			cacheRun = cache.open("score", stderr)
		}
		if cacheRun != nil {
			defer cacheRun.close()
			if err := models.UseCache(cacheRun, cacheRun.Store); err != nil {
				return err
			}
		}
		// Only a run that decodes images gets the heap bound: the n-gram
		// metrics of a large suite may need more than the decode budget.
		defer boundHeap(decode)()
	}
	metricList, err := scoreMetricList(selected, suite, inputs, models, *paraphrase)
	if err != nil {
		return err
	}
	for _, u := range compare.UnavailableColumns(suite, metricList) {
		fmt.Fprintf(stderr, "storyeval score: %s skipped: needs %s\n", u.Metric, u.Needs)
	}
	ctx, stop := interruptContext()
	defer stop()
	bar := scoreBar{stderr: stderr}
	defer bar.finish()
	report, err := compare.Compare(ctx, suite, metricList, compare.Options{
		Resamples: *resamples, Rounds: *rounds, Confidence: *confidence, Seed: *seed,
		Ratings: inputs.ratings, Correction: corr, Progress: bar.update,
	})
	if err != nil {
		return imageError(err)
	}
	cacheRun.succeeded()
	for _, c := range report.Columns {
		warnSkippedImages(stderr, "score", c.SkippedImages)
	}
	if err := report.WriteFiles(*outDir); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "scored %d systems × %d stories with %d metrics; report: %s\n", len(report.Systems), suite.Len(), len(report.Columns), filepath.Join(*outDir, "report.html"))
	// After the bar, on stderr with the other notices about columns:
	// stdout keeps its one line.
	bar.finish()
	demoRun.printClosing(stderr, report)
	return nil
}

// readSuite reads a story set from a JSON file or a folder of per-system
// files.
func readSuite(path string) (*story.Suite, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return story.LoadSuiteDir(path, story.ReadOptions{})
	}
	return story.LoadSuite(path, story.ReadOptions{})
}

func readStyleTable(path string) (*stylem.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := stylem.ReadTable(f, stylem.ReadOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}
