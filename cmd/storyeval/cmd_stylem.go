package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/stylem"
)

func init() {
	register(command{
		name:    "stylem",
		summary: "StyleM: build a contrastive n-gram table (stylem build) and score captions with OnlyStyle and StyleCIDEr (stylem score)",
		run:     runStylem,
	})
}

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
	if *out == "" {
		return fmt.Errorf("-out: no table file given")
	}
	step, err := stylem.StepByName(*tokenize)
	if err != nil {
		return fmt.Errorf("-tokenize: %w", err)
	}
	f, err := stylem.FormulaByName(*formula)
	if err != nil {
		return fmt.Errorf("-formula: %w", err)
	}
	kind, err := stylem.ECDFByName(*ecdf)
	if err != nil {
		return fmt.Errorf("-ecdf: %w", err)
	}
	if *maxNgrams < 0 {
		return fmt.Errorf("-max-ngrams %d: want 0 (no bound) or more", *maxNgrams)
	}
	if *chunkMB < 1 || *chunkMB > 1<<20 {
		return fmt.Errorf("-chunk-mb %d: want 1 to %d", *chunkMB, 1<<20)
	}
	r, closeIn, err := openMaybeGzip(*in)
	if err != nil {
		return fmt.Errorf("-in: %w", err)
	}
	// The records and the chunk are the build's live heap; collecting at
	// 25 % growth instead of 100 % keeps the peak near the live size.
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	var recs []stylem.Record
	switch *inFormat {
	case "jsonl":
		recs, err = stylem.ReadCorpusJSONL(r, limits.Limits{})
	case "personality-captions":
		recs, err = stylem.ReadPersonalityCaptions(r, stylem.PersonalityCaptionsOptions{})
	default:
		err = fmt.Errorf("-in-format: unknown format %q (want jsonl or personality-captions)", *inFormat)
	}
	closeIn()
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	ctx, stop := interruptContext()
	defer stop()
	// The counts spill to a temporary folder beside -out (the same disk as
	// the table), removed when the build ends or is interrupted; the table
	// goes to a temporary file there too, renamed over -out when complete,
	// so an interrupted or failed build leaves the previous table.
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

// stylemMetrics are the scores stylem score prints per caption and style,
// in output order; StyleCIDEr is NaN (null in JSON) when the line has no
// references.
var stylemMetrics = []string{"onlystyle", "onlystyle_exist", "stylecider"}

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
	if err := checkFormat(*format); err != nil {
		return err
	}
	if *tablePath == "" {
		return fmt.Errorf("-table: no table file given")
	}
	tf, err := os.Open(*tablePath)
	if err != nil {
		return fmt.Errorf("-table: %w", err)
	}
	// Loading builds one large live heap from a decompressed body that is
	// garbage once read: collecting at 25 % growth keeps the peak near the
	// table's size (a 5-million-n-gram table: 533 MB → see the commit).
	gc := debug.SetGCPercent(25)
	tab, err := stylem.ReadTable(bufio.NewReaderSize(tf, 1<<20), stylem.ReadOptions{})
	debug.SetGCPercent(gc)
	tf.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", *tablePath, err)
	}
	name := *tokenize
	if name == "" {
		name = tab.Tokenization()
	}
	step, err := stylem.StepByName(name)
	if err != nil {
		return fmt.Errorf("-tokenize (table built with %q): %w", tab.Tokenization(), err)
	}
	r, closeIn, err := openMaybeGzip(*in)
	if err != nil {
		return fmt.Errorf("-in: %w", err)
	}
	defer closeIn()
	styles := tab.Styles()
	out := &stylemOutput{styles: styles}
	n, err := tab.ScoreCaptions(io.LimitReader(r, maxInputBytes), step, func(id string, scores *stylem.Scores) error {
		row := make([][3]float64, len(styles))
		for s := range styles {
			row[s] = [3]float64{scores.OnlyStyle[s], scores.OnlyStyleExist[s], scores.StyleCIDEr[s]}
		}
		out.ids = append(out.ids, id)
		out.rows = append(out.rows, row)
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: no captions to score (the file is empty)", *in)
	}
	return out.write(stdout, *format)
}

// stylemOutput is what stylem score prints: per caption, in input order,
// the three scores under each style of the table.
type stylemOutput struct {
	styles []string
	ids    []string
	rows   [][][3]float64 // rows[i][style] holds stylemMetrics' values
}

// write prints JSON {"items": {id: {style: {metric: value}}}} or CSV
// id,style,metrics… with one row per caption and style.
func (o *stylemOutput) write(w io.Writer, format string) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if format == formatCSV {
		cw := csv.NewWriter(bw)
		if err := cw.Write(append([]string{"id", "style"}, stylemMetrics...)); err != nil {
			return err
		}
		for i, id := range o.ids {
			for s, style := range o.styles {
				v := o.rows[i][s]
				if err := cw.Write([]string{id, style, formatFloat(v[0]), formatFloat(v[1]), formatFloat(v[2])}); err != nil {
					return err
				}
			}
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		return bw.Flush()
	}
	buf := []byte("{\n  \"items\": {")
	for i, id := range o.ids {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, "\n    "...)
		buf = appendJSONString(buf, id)
		buf = append(buf, ": {"...)
		for s, style := range o.styles {
			if s > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, "\n      "...)
			buf = appendJSONString(buf, style)
			buf = append(buf, ": {"...)
			for m, name := range stylemMetrics {
				if m > 0 {
					buf = append(buf, ", "...)
				}
				buf = appendJSONString(buf, name)
				buf = append(buf, ": "...)
				buf = appendJSONFloat(buf, o.rows[i][s][m])
			}
			buf = append(buf, '}')
		}
		buf = append(buf, "\n    }"...)
	}
	buf = append(buf, "\n  }\n}\n"...)
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	return bw.Flush()
}
