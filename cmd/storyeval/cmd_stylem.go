package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/storyeval/storyeval/internal/gzipbound"
	"github.com/storyeval/storyeval/stylem"
)

func runStylem(args []string, stdout, stderr io.Writer) error {
	return runAction(args, stdout, stderr, []string{
		"usage: storyeval stylem build [-tokenize ptb|simple] [-formula code|paper] [-ecdf statsmodels|count-ratio] -in CORPUS.jsonl -out TABLE",
		"       storyeval stylem score [-tokenize ptb|simple] [-format json|csv] -table TABLE -in FILE.jsonl",
	}, action{"build", runStylemBuild}, action{"score", runStylemScore})
}

func runStylemBuild(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("stylem build", stderr)
	in := fs.String("in", "", `corpus: JSONL lines {"style", "caption", "image"} (required; .gz is read compressed)`)
	inFormat := fs.String("in-format", "jsonl", "corpus format: jsonl, or personality-captions (the ParlAI JSON list)")
	out := fs.String("out", "", "table file to write (required; written to a temporary file beside it, then renamed)")
	tokenize := fs.String("tokenize", "ptb", "tokenization after RETOK: ptb (COCO PTB tokenizer, as the reference) or simple (lower-case, split, drop punctuation)")
	formula := fs.String("formula", "code", "CNG formula: code (reference code: mean over the other styles) or paper (eq. 4: divided by |S|)")
	ecdf := fs.String("ecdf", "count-ratio", "ECDF values: count-ratio (count/m, as the golden fixture) or statsmodels (np.linspace steps; can differ in the last bit)")
	keepAll := fs.Bool("keep-all-captions", false, "count every caption of every record (the reference keeps only the last caption per image+style)")
	maxNgrams := fs.Int("max-ngrams", 0, "fail when the table would have more distinct n-grams than this (0: no bound); the build's memory does not grow with them, but stylem score loads the table at about 40 bytes per n-gram")
	chunkMB := fs.Int("chunk-mb", stylem.DefaultChunkBytes>>20, "memory in MiB for counting n-grams before a sorted run is written to disk beside -out; the build's memory is the corpus's records plus this, whatever the number of n-grams")
	setUsage(fs,
		"usage: storyeval stylem build [-tokenize ptb|simple] [-formula code|paper] [-ecdf statsmodels|count-ratio] -in CORPUS.jsonl -out TABLE",
	)
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	step, errT := stylem.StepByName(*tokenize)
	f, errF := stylem.FormulaByName(*formula)
	kind, errE := stylem.ECDFByName(*ecdf)
	if err := cmp.Or(errIf(*out == "", "-out: no table file given"),
		flagError("tokenize", errT), flagError("formula", errF), flagError("ecdf", errE),
		errIf(*maxNgrams < 0, "-max-ngrams %d: want 0 (no bound) or more", *maxNgrams),
		errIf(*chunkMB < 1 || *chunkMB > 1<<20, "-chunk-mb %d: want 1 to %d", *chunkMB, 1<<20)); err != nil {
		return err
	}
	r, err := gzipbound.OpenFile(*in, maxInputBytes)
	if err != nil {
		return fmt.Errorf("-in: %w", err)
	}
	// The records and the chunk are the build's live heap; collecting at
	// 25 % growth instead of 100 % keeps the peak near the live size.
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	recs, err := stylem.ReadCorpus(r, *inFormat)
	r.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", *in, flagOf[*stylem.CorpusFormatError](err, "-in-format: "))
	}
	ctx, stop := interruptContext()
	defer stop()
	// The counts spill beside -out and the table replaces -out only when
	// complete (stylem.BuildFile), so an interrupted build leaves it as it was.
	opts := stylem.BuildOptions{Step: step, StepName: *tokenize, Formula: f, ECDF: kind, KeepAllCaptions: *keepAll, MaxNgrams: *maxNgrams}
	st, err := stylem.BuildFile(ctx, *out, recs, opts, stylem.SpillOptions{ChunkBytes: *chunkMB << 20})
	var fe *stylem.FileError
	switch {
	case errors.As(err, &fe):
		return fmt.Errorf("-out %s: %w", *out, fe.Err)
	case ctx.Err() != nil:
		return ctx.Err() // "interrupted", exit 130; -out is unchanged
	case errors.Is(err, stylem.ErrTooManyNgrams):
		return fmt.Errorf("%s: -max-ngrams %d: %w", *in, *maxNgrams, err)
	case err != nil:
		return fmt.Errorf("%s: %w", *in, err)
	}
	return writeJSON(stdout, map[string]any{
		"records": len(recs), "styles": len(st.Styles), "ngrams": st.Ngrams, "runs": st.Runs,
		"tokenize": *tokenize, "formula": f.String(), "ecdf": kind.String(),
	})
}

func runStylemScore(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("stylem score", stderr)
	tablePath := fs.String("table", "", "table file written by stylem build (required)")
	in := fs.String("in", "", `captions: JSONL lines {"id", "caption", "refs": [...]} (required; .gz is read compressed)`)
	tokenize := fs.String("tokenize", "", "tokenization after RETOK: ptb or simple (default: the table's)")
	format := formatFlag(fs)
	setUsage(fs,
		"usage: storyeval stylem score [-tokenize ptb|simple] [-format json|csv] -table TABLE -in FILE.jsonl",
		"Prints, per caption in the input's order and per style of the table, OnlyStyle, OnlyStyleExist and StyleCIDEr.",
	)
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := cmp.Or(checkFormat(*format), errIf(*tablePath == "", "-table: no table file given")); err != nil {
		return err
	}
	// Loading builds one large live heap from a decompressed body that is
	// garbage once read: collecting at 25 % growth keeps the peak near the
	// table's size (a 5-million-n-gram table: 533 MB → see the commit).
	gc := debug.SetGCPercent(25)
	tab, err := stylem.OpenTable(*tablePath, stylem.ReadOptions{})
	debug.SetGCPercent(gc)
	if pe := (*os.PathError)(nil); errors.As(err, &pe) && pe.Op == "open" {
		return fmt.Errorf("-table: %w", err)
	} else if err != nil {
		return err
	}
	step, err := stylem.StepByName(cmp.Or(*tokenize, tab.Tokenization()))
	if err != nil {
		return fmt.Errorf("-tokenize (table built with %q): %w", tab.Tokenization(), err)
	}
	r, err := gzipbound.OpenFile(*in, maxInputBytes)
	if err != nil {
		return fmt.Errorf("-in: %w", err)
	}
	defer r.Close()
	scores, err := tab.ScoreAll(io.LimitReader(r, maxInputBytes), step)
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	if *format == formatCSV {
		return scores.WriteCSV(stdout)
	}
	return scores.WriteJSON(stdout)
}
