package main

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/correlation"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/vhed"
	"github.com/storyeval/storyeval/vhed/vhedplot"
)

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
	if err := parseRequired(fs, args, nil, "csv"); err != nil {
		return err
	}
	opts := vhed.AssessOptions{RawGap: *rawGap, SplitAllPairs: *splitAll}
	var errA, errU, errG error
	opts.Agreements, errA = parseList(*agreements, strconv.Atoi, "a whole number")
	opts.Union, errU = parseList(*union, strconv.Atoi, "a whole number")
	if *gapEdges != "" {
		opts.GapEdges, errG = parseList(*gapEdges, parseFloat, "a number")
	}
	if err := cmp.Or(errIf(*scoresPath == "" && *metrics == "", "nothing to assess: give -scores, -metrics or both"),
		oneOf("format", *format, "json", "table"), flagError("agreements", errA), flagError("union", errU), flagError("gap-edges", errG),
		errIf(*resamples < 0, "-bootstrap: %d resamples; want 0 (none) or more", *resamples)); err != nil {
		return err
	}
	opts.IsReference = vhed.ReferenceModels(*refModels)
	if *resamples > 0 {
		opts.Intervals = true
		opts.Bootstrap = correlation.BootstrapOptions{Resamples: *resamples, Confidence: *confidence, Seed: *seed}
	}
	pairs, sign, err := vhed.LoadAll(*csvPath, vhed.ReadOptions{Limits: limits.Limits{MaxBytes: maxInputBytes}})
	if err != nil {
		return err
	}
	if *errorsPath != "" && *scoresPath == "" {
		return fmt.Errorf("-errors needs per-story -scores")
	}
	jobs, err := vhed.ScorerFiles{CSV: *csvPath, Scores: *scoresPath, Errors: *errorsPath,
		Metrics: *metrics, Refs: *refsPath, RefAbsent: *refAbsent, IsReference: opts.IsReference}.Load(pairs)
	if err != nil {
		return flagOf[*vhed.InputError](err, "-") // -errors FILE: …, -metrics: …
	}
	ctx, stop := interruptContext()
	defer stop()
	prog := newProgress(stderr, len(jobs), "scorers")
	out, reports, err := vhed.AssessAll(ctx, *csvPath, pairs, sign, jobs, opts, func() { prog.Add(1) })
	prog.Finish()
	if err != nil {
		return err
	}
	if *plotDir != "" {
		if err := vhedplot.SaveAssessment(*plotDir, jobs, reports); err != nil {
			return err
		}
	}
	if *format == "table" {
		return vhed.WriteTable(stdout, out)
	}
	return writeJSON(stdout, out)
}
