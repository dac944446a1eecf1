package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/correlation"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/vhed"
	"github.com/storyeval/storyeval/vhed/vhedplot"
)

func init() {
	register(command{
		name:    "vhed",
		summary: "VHED assessments of metrics (Vrank paper): pair ranking accuracy, Ω^k, gap buckets, Reference Absent, plots",
		run:     runVHED,
	})
}

func runVHED(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "assess" {
		fmt.Fprintln(stderr, "usage: storyeval vhed assess -csv VHED.csv [-scores scores.csv] [-metrics bleu,meteor,rouge,cider,sacrebleu,nltkbleu,meteor-vist] [-plot DIR] [-format json|table]")
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			return nil
		}
		return fmt.Errorf("want the subcommand assess")
	}
	return runVHEDAssess(args[1:], stdout, stderr)
}

func runVHEDAssess(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("vhed assess", stderr)
	csvPath := fs.String("csv", "", "the VHED CSV (columns "+strings.Join(vhed.Columns(), ",")+") (required)")
	scoresPath := fs.String("scores", "", "CSV of scores to assess: with columns story_id and model, one row per story and one column per metric (higher is better);\n"+
		"otherwise one row per VHED row, in order, and one column per scorer holding predicted gaps (< 0: story 1 is better), as the Vrank model predicts")
	metrics := fs.String("metrics", "", "comma-separated reference-based metrics to assess: bleu (BLEU-4), bleu1..bleu4, meteor, rouge, cider, sacrebleu,\n"+
		"nltkbleu (NLTK 3.8 sentence_bleu, BLEU-4 unsmoothed, words split at white space), meteor-vist (METEOR as the AREL/MSR VIST scripts: -t hter, no -norm)")
	errorsPath := fs.String("errors", "", "CSV of error labels with columns story_id, model and one 0/1 column per error type: prints the point-biserial\n"+
		"correlation of each per-story -scores column with each label")
	refsPath := fs.String("refs", "", "JSON {img_seq: [reference, ...]} of reference stories for -metrics (default: the human stories of the CSV itself)")
	refAbsent := fs.Bool("ref-absent", true, "score -metrics with the Reference Absent algorithm (false: against all references, the story's own copy included)")
	plotDir := fs.String("plot", "", "folder to write accuracy_by_gap.{png,svg} and accuracy_by_omega.{png,svg} into")
	format := fs.String("format", "json", "output format: json or table")
	agreements := fs.String("agreements", "3,4,5", "k of the agreement subsets Ω^k: the pairs on which exactly k annotators agree (paper §3)")
	union := fs.String("union", "4,5", "agreements whose pairs form the union subset (Ω^{4,5}, paper Table 4)")
	splitAll := fs.Bool("split-all-pairs", false, "split reference–machine / machine–machine over all pairs instead of the -union subset (paper Table 4: Ω^{4,5})")
	gapEdges := fs.String("gap-edges", "", "increasing lower edges of the ranking-gap buckets (default 0,0.1,0.2,0.3 on |rank_norm|; 0,1,2,3 with -raw-gap)")
	rawGap := fs.Bool("raw-gap", false, "bucket by the unnormalised gap |avg_rank_base − avg_rank_comp| instead of |rank_norm|")
	refModels := fs.String("ref-models", "human,gt,groundtruth,ground_truth,reference,ref", "model names (any case) that denote human reference stories")
	resamples := fs.Int("bootstrap", 1000, "bootstrap resamples for the accuracy intervals (0: none)")
	confidence := fs.Float64("confidence", correlation.DefaultConfidence, "coverage of the bootstrap intervals")
	seed := fs.Uint64("seed", 0, "seed of the bootstrap resamples")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *csvPath == "" {
		fs.Usage()
		return fmt.Errorf("-csv is required")
	}
	if *scoresPath == "" && *metrics == "" {
		return fmt.Errorf("nothing to assess: give -scores, -metrics or both")
	}
	if *format != "json" && *format != "table" {
		return fmt.Errorf("-format %q: want json or table", *format)
	}
	opts := vhed.AssessOptions{RawGap: *rawGap, SplitAllPairs: *splitAll}
	var err error
	if opts.Agreements, err = parseList(*agreements, strconv.Atoi, "a whole number"); err != nil {
		return fmt.Errorf("-agreements: %w", err)
	}
	if opts.Union, err = parseList(*union, strconv.Atoi, "a whole number"); err != nil {
		return fmt.Errorf("-union: %w", err)
	}
	if *gapEdges != "" {
		if opts.GapEdges, err = parseList(*gapEdges, parseFloat, "a number"); err != nil {
			return fmt.Errorf("-gap-edges: %w", err)
		}
	}
	refSet := map[string]bool{}
	for _, m := range strings.Split(*refModels, ",") {
		if m = strings.ToLower(strings.TrimSpace(m)); m != "" {
			refSet[m] = true
		}
	}
	opts.IsReference = func(model string) bool { return refSet[strings.ToLower(strings.TrimSpace(model))] }
	if *resamples < 0 {
		return fmt.Errorf("-bootstrap: %d resamples; want 0 (none) or more", *resamples)
	}
	if *resamples > 0 {
		opts.Intervals = true
		opts.Bootstrap = correlation.BootstrapOptions{Resamples: *resamples, Confidence: *confidence, Seed: *seed}
	}

	pairs, sign, err := vhedReadPairs(*csvPath)
	if err != nil {
		return err
	}
	var jobs []vhed.NamedScorer
	if *errorsPath != "" && *scoresPath == "" {
		return fmt.Errorf("-errors needs per-story -scores")
	}
	if *scoresPath != "" {
		cols, err := vhedReadFile(*scoresPath, func(r io.Reader) ([]vhed.ScoreColumn, error) { return vhed.ReadScores(r, pairs) })
		if err != nil {
			return err
		}
		var labels []vhed.ErrorLabels
		if *errorsPath != "" {
			if labels, err = vhedReadFile(*errorsPath, vhed.ReadErrorLabels); err != nil {
				return err
			}
		}
		if jobs, err = vhed.ColumnScorers(cols, *scoresPath, labels); err != nil {
			return fmt.Errorf("-errors %s: %w", *errorsPath, err)
		}
	}
	if *metrics != "" {
		refs := vhed.References(pairs, opts.IsReference)
		refSource := "human stories of " + *csvPath
		if *refsPath != "" {
			data, err := readFile(*refsPath)
			if err != nil {
				return err
			}
			if refs, err = vhed.ReadReferences(bytes.NewReader(data)); err != nil {
				return fmt.Errorf("%s: %w", *refsPath, err)
			}
			refSource = *refsPath
		}
		ms, err := vhed.MetricScorers(*metrics, refs, refSource, *refAbsent)
		if err != nil {
			return fmt.Errorf("-metrics: %w", err)
		}
		jobs = append(jobs, ms...)
	}

	ctx, stop := interruptContext()
	defer stop()
	prog := newProgress(stderr, len(jobs), "scorers")
	out := vhed.Output{CSV: *csvPath, Rows: len(pairs), LabelSign: sign.String(), Gap: "|rank_norm|", Split: "Ω^{" + vhed.JoinInts(opts.Union) + "}"}
	if *rawGap {
		out.Gap = "|avg_rank_base − avg_rank_comp|"
	}
	if *splitAll {
		out.Split = "all pairs"
	}
	var series []vhedplot.Series
	for _, j := range jobs {
		rep, err := vhed.Assess(ctx, pairs, j.Scorer, opts)
		if err != nil {
			prog.Finish()
			return fmt.Errorf("%s: %w", j.Name, err)
		}
		prog.Add(1)
		out.HumanTies = rep.HumanTies
		out.Scorers = append(out.Scorers, vhed.NewScorerOutput(j.Name, j.Source, rep, j.Errors))
		series = append(series, vhedplot.Series{Name: j.Name, Report: rep})
	}
	prog.Finish()
	if opts.Intervals {
		out.Bootstrap = &vhed.BootstrapOutput{Resamples: *resamples, Confidence: *confidence, Seed: *seed}
	}
	if *plotDir != "" {
		if err := vhedplot.SaveFigures(*plotDir, series); err != nil {
			return err
		}
	}
	if *format == "table" {
		return vhed.WriteTable(stdout, out)
	}
	return writeJSON(stdout, out)
}

// vhedReadPairs reads the VHED CSV at path row by row (a .gz file is
// decompressed on the way, within the input bound), returning its pairs
// and the sign convention of its label column. Errors name the file.
func vhedReadPairs(path string) ([]vhed.Pair, vhed.LabelSign, error) {
	r, closeFile, err := openMaybeGzip(path)
	if err != nil {
		return nil, 0, err
	}
	defer closeFile()
	pairs, sign, err := vhed.ReadAll(r, vhed.ReadOptions{Limits: limits.Limits{MaxBytes: maxInputBytes}})
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return pairs, sign, nil
}

// vhedReadFile reads one of the command's CSV inputs at path with read
// (vhed.ReadScores, vhed.ReadErrorLabels), a .gz file decompressed on the
// way; errors name the file.
func vhedReadFile[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	var zero T
	in, closeIn, err := openBounded(path)
	if err != nil {
		return zero, err
	}
	defer closeIn()
	v, err := read(in)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}
