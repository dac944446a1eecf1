package main

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/ngram"
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

// scoreRun is everything one `score` run computed, what the output files and
// the report are made from.
type scoreRun struct {
	suite   *story.Suite
	systems []string
	columns []scoreColumn
	ratings humanRatings // nil without -human
	summary scoreSummary
}

func runScore(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("score", stderr)
	demo := fs.Bool("demo", false, "score the embedded demo story set (20 VIST sequences, 3 systems, synthetic ratings, a toy StyleM table) instead of -in")
	in := fs.String("in", "", "story set: a JSON file (sequences with images, references and one story per system) or a folder of per-system NAME.json files {id: story} with an optional references.json (required)")
	metrics := fs.String("metrics", "all", "metrics to run: all, or a comma-separated list of bleu,meteor,rouge,cider,nr,stylem,c,vg,groovist,clipscore,vrank and, only when named, nltkbleu (NLTK sentence_bleu) and meteor-vist (METEOR as the VIST scripts)")
	models := fs.String("models", "", "models folder (see 'storyeval models'): enables RoViST-C, RoViST-VG, GROOViST, CLIPScore (needs the story set's image files) and Vrank for the files it holds")
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
	cache := addCacheFlags(fs)
	images := addImageFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval score -in STORIES.json|DIR [-metrics all|LIST] [-human ratings.csv] [-out DIR] [flags]")
		fmt.Fprintln(stderr, "\nScores every system's stories with every metric whose inputs are present, then writes")
		fmt.Fprintln(stderr, "scores.csv (one row per story and system), summary.json (per system mean and bootstrap CI,")
		fmt.Fprintln(stderr, "per pair of systems a paired randomization p-value, correlations with the human ratings)")
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
	selected, err := parseScoreMetrics(*metrics)
	if err != nil {
		return err
	}
	decode, err := images.options()
	if err != nil {
		return err
	}
	// Read and check every input before any model or table is loaded.
	var suite *story.Suite
	var ratings humanRatings
	cfg := scoreConfig{style: *style, ngramDone: map[string][]scoreColumn{}}
	if *demo {
		if suite, err = story.ParseSuite(demoStories, "demo/stories.json", story.ReadOptions{}); err != nil {
			return err
		}
		if *human == "" {
			if ratings, err = decodeHumanRatings(demoRatings, "demo/ratings.csv", suite); err != nil {
				return err
			}
		}
		if *styleTable == "" {
			if cfg.styleTable, err = demoStyleTable(); err != nil {
				return err
			}
			cfg.style = demoStyle
		}
	} else if suite, err = readSuite(*in); err != nil {
		return err
	}
	if *human != "" {
		if ratings, err = readHumanRatings(*human, suite); err != nil {
			return err
		}
	}
	if *styleTable != "" {
		if cfg.styleTable, err = readStyleTable(*styleTable); err != nil {
			return err
		}
		if !slices.Contains(cfg.styleTable.Styles(), *style) {
			return fmt.Errorf("-style %q is not a style of %s (styles: %q)", *style, *styleTable, cfg.styleTable.Styles())
		}
	}
	want := map[string]bool{}
	for _, m := range selected {
		want[m.name] = true
	}
	if cfg.models, err = loadScoreModels(*models, *regions, *crops, suite, want, decode); err != nil {
		return err
	}
	cacheRun, err := cfg.models.useCache(cache, stderr)
	if err != nil {
		return err
	}
	defer cacheRun.close()
	if m := cfg.models; m.grounder != nil || m.groovist != nil || m.clipScorer != nil {
		// Only a run that decodes images gets the heap bound: the n-gram
		// metrics of a large suite may need more than the decode budget.
		defer boundHeap(decode)()
	}
	cfg.vgDefaultIDF = *vgDefaultIDF
	for _, m := range selected {
		if m.name == "meteor" && m.available(suite, cfg) {
			if cfg.meteor, err = ngram.NewMeteor(ngram.MeteorOptions{ParaphraseTable: *paraphrase}); err != nil {
				return err
			}
		}
		if m.name == "meteor-vist" && m.available(suite, cfg) {
			opts := ngram.MeteorVISTOptions()
			opts.ParaphraseTable = *paraphrase
			if cfg.meteorVIST, err = ngram.NewMeteor(opts); err != nil {
				return err
			}
		}
	}
	ctx, stop := interruptContext()
	defer stop()
	settings := scoreSettings{Resamples: *resamples, Rounds: *rounds, Confidence: *confidence, Seed: *seed}
	run, err := scoreSuite(ctx, suite, selected, cfg, ratings, settings, stderr)
	if err != nil {
		return imageError(err)
	}
	cacheRun.succeeded()
	if err := writeScoreOutputs(*outDir, run); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "scored %d systems × %d stories with %d metrics; report: %s\n", len(run.systems), suite.Len(), len(run.columns), filepath.Join(*outDir, "report.html"))
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

// scoreSuite runs the selected metrics on every system and computes the
// summary; progress covers the whole run.
func scoreSuite(ctx context.Context, suite *story.Suite, selected []scoreMetric, cfg scoreConfig, ratings humanRatings, set scoreSettings, stderr io.Writer) (*scoreRun, error) {
	run := &scoreRun{suite: suite, systems: suite.Systems(), ratings: ratings}
	run.summary = scoreSummary{Sequences: suite.Len(), Systems: run.systems, Settings: set, Unavailable: []unavailableMetric{}, Pairs: []pairTest{}}
	var active []scoreMetric
	unavailable := func(col, needs string) {
		run.summary.Unavailable = append(run.summary.Unavailable, unavailableMetric{Metric: col, Needs: needs})
		fmt.Fprintf(stderr, "storyeval score: %s skipped: needs %s\n", col, needs)
	}
	for _, m := range selected {
		ok := m.available(suite, cfg)
		needs := m.needs
		if cfg.models != nil && cfg.models.missing[m.needs] != "" {
			needs = cfg.models.missing[m.needs]
		}
		cols, needRefs := suiteColumns(m, suite)
		for _, c := range m.columns {
			switch {
			case slices.Contains(needRefs, c):
				unavailable(c, "human references in the story set")
			case !ok:
				unavailable(c, needs)
			}
		}
		if ok && len(cols) > 0 {
			m.columns = cols
			active = append(active, m)
		}
	}
	nCols := 0
	for _, m := range active {
		nCols += len(m.columns)
	}
	// One bar for the whole run: each metric counts a unit per story and
	// system, the summary a unit per column and system.
	perMetric := len(run.systems) * suite.Len()
	prog := newProgress(stderr, len(active)*perMetric+nCols*len(run.systems), "steps")
	defer prog.Finish()
	for mi, m := range active {
		merged := map[string]*scoreColumn{}
		for _, name := range m.columns {
			merged[name] = &scoreColumn{Name: name, Scores: map[string][]float64{}, Notes: map[string][]string{}}
		}
		for k, sys := range run.systems {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			cfg.progress = scoreProgress{bar: prog, base: mi * perMetric, stories: suite.Len(), systems: len(run.systems), system: k}
			cols, err := m.run(ctx, suite, sys, cfg)
			if err != nil {
				return nil, fmt.Errorf("%s of system %q: %w", m.name, sys, err)
			}
			for _, c := range cols {
				if dst, ok := merged[c.Name]; ok {
					dst.Scores[sys], dst.Notes[sys] = c.Scores[sys], c.Notes[sys]
				}
			}
			cfg.progress.systemDone()
		}
		for _, name := range m.columns {
			run.columns = append(run.columns, *merged[name])
			run.summary.Metrics = append(run.summary.Metrics, name)
		}
	}
	per, pairs, err := summarizeScores(ctx, run.systems, run.columns, set, prog)
	if err != nil {
		return nil, err
	}
	run.summary.PerSystem, run.summary.Pairs = per, append(run.summary.Pairs, pairs...)
	if ratings != nil {
		if run.summary.Human, err = correlateWithHumans(ctx, suite, run.systems, run.columns, ratings, set); err != nil {
			return nil, err
		}
	}
	return run, nil
}
