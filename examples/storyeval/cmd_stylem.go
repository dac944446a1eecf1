package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

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
	usage := func() {
		fmt.Fprintln(stderr, "usage: storyeval stylem build -in CORPUS.jsonl -out TABLE [-tokenize ptb|simple] [-formula code|paper] [-ecdf statsmodels|count-ratio]")
		fmt.Fprintln(stderr, "       storyeval stylem score -table TABLE -in FILE.jsonl [-tokenize ptb|simple]")
	}
	if len(args) == 0 {
		usage()
		return fmt.Errorf("missing action: build or score")
	}
	switch args[0] {
	case "build":
		return runStylemBuild(args[1:], stdout, stderr)
	case "score":
		return runStylemScore(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		usage()
		return flag.ErrHelp
	}
	usage()
	return fmt.Errorf("unknown action %q (want build or score)", args[0])
}

// openMaybeGzip opens path, decompressing it when the name ends in .gz.
func openMaybeGzip(path string) (io.Reader, func() error, error) {
	if path == "" {
		return nil, nil, fmt.Errorf("no input file given")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, f.Close, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return zr, f.Close, nil
}

func runStylemBuild(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("stylem build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", `corpus: JSONL lines {"style", "caption", "image"} (required; .gz is read compressed)`)
	format := fs.String("format", "jsonl", "corpus format: jsonl, or personality-captions (the ParlAI JSON list)")
	out := fs.String("out", "", "table file to write (required)")
	tokenize := fs.String("tokenize", "ptb", "tokenization after RETOK: ptb (COCO PTB tokenizer, as the reference) or simple (lower-case, split, drop punctuation)")
	formula := fs.String("formula", "code", "CNG formula: code (reference code: mean over the other styles) or paper (eq. 4: divided by |S|)")
	ecdf := fs.String("ecdf", "count-ratio", "ECDF values: count-ratio (count/m, as the golden fixture) or statsmodels (np.linspace steps; can differ in the last bit)")
	keepAll := fs.Bool("keep-all-captions", false, "count every caption of every record (the reference keeps only the last caption per image+style)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval stylem build -in CORPUS.jsonl -out TABLE [-tokenize ptb|simple] [-formula code|paper] [-ecdf statsmodels|count-ratio]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
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
	var kind stylem.ECDFKind
	switch *ecdf {
	case "statsmodels":
		kind = stylem.ECDFStatsmodels
	case "count-ratio":
		kind = stylem.ECDFCountRatio
	default:
		return fmt.Errorf("-ecdf: unknown ECDF %q (want statsmodels or count-ratio)", *ecdf)
	}
	r, closeIn, err := openMaybeGzip(*in)
	if err != nil {
		return fmt.Errorf("-in: %w", err)
	}
	var recs []stylem.Record
	switch *format {
	case "jsonl":
		recs, err = stylem.ReadCorpusJSONL(r, 0)
	case "personality-captions":
		recs, err = stylem.ReadPersonalityCaptions(r, nil)
	default:
		err = fmt.Errorf("-format: unknown format %q (want jsonl or personality-captions)", *format)
	}
	closeIn()
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	tab, err := stylem.Build(recs, &stylem.BuildOptions{Step: step, StepName: *tokenize, Formula: f, ECDF: kind, KeepAllCaptions: *keepAll})
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	w, err := os.Create(*out)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if _, err := tab.WriteTo(bw); err != nil {
		w.Close()
		return fmt.Errorf("%s: %w", *out, err)
	}
	if err := bw.Flush(); err != nil {
		w.Close()
		return fmt.Errorf("%s: %w", *out, err)
	}
	if err := w.Close(); err != nil {
		return err
	}
	return writeJSON(stdout, map[string]any{
		"records": len(recs), "styles": len(tab.Styles()), "ngrams": tab.NumNgrams(),
		"tokenize": tab.Tokenization(), "formula": tab.Formula().String(), "ecdf": tab.ECDF().String(),
	})
}

// stylemScoreLine is one line of the score input.
type stylemScoreLine struct {
	ID      *string  `json:"id"`
	Caption *string  `json:"caption"`
	Refs    []string `json:"refs"`
}

// stylemScores is one caption's scores under one style; StyleCIDEr is null
// when the line has no references.
type stylemScores struct {
	OnlyStyle      Float `json:"onlystyle"`
	OnlyStyleExist Float `json:"onlystyle_exist"`
	StyleCIDEr     Float `json:"stylecider"`
}

func runStylemScore(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("stylem score", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tablePath := fs.String("table", "", "table file written by stylem build (required)")
	in := fs.String("in", "", `captions: JSONL lines {"id", "caption", "refs": [...]} (required; .gz is read compressed)`)
	tokenize := fs.String("tokenize", "", "tokenization after RETOK: ptb or simple (default: the table's)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval stylem score -table TABLE -in FILE.jsonl [-tokenize ptb|simple]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *tablePath == "" {
		return fmt.Errorf("-table: no table file given")
	}
	tf, err := os.Open(*tablePath)
	if err != nil {
		return fmt.Errorf("-table: %w", err)
	}
	tab, err := stylem.ReadTable(bufio.NewReaderSize(tf, 1<<20), nil)
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
	out := map[string]map[string]stylemScores{}
	sc := bufio.NewScanner(io.LimitReader(r, maxInputBytes))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<24)
	var scores *stylem.Scores
	for ln := 1; sc.Scan(); ln++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var l stylemScoreLine
		if err := json.Unmarshal(line, &l); err != nil {
			return fmt.Errorf("%s line %d: %w", *in, ln, err)
		}
		if l.ID == nil || l.Caption == nil {
			return fmt.Errorf("%s line %d: needs \"id\" and \"caption\"", *in, ln)
		}
		if _, dup := out[*l.ID]; dup {
			return fmt.Errorf("%s line %d: id %q appears twice", *in, ln, *l.ID)
		}
		refs := make([][]string, len(l.Refs))
		for i, ref := range l.Refs {
			refs[i] = stylem.Tokenize(ref, step)
		}
		if scores, err = tab.Score(stylem.Tokenize(*l.Caption, step), refs, scores); err != nil {
			return fmt.Errorf("%s line %d: %w", *in, ln, err)
		}
		row := make(map[string]stylemScores, len(styles))
		for s, style := range styles {
			row[style] = stylemScores{Float(scores.OnlyStyle[s]), Float(scores.OnlyStyleExist[s]), Float(scores.StyleCIDEr[s])}
		}
		out[*l.ID] = row
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%s: a line is longer than 16 MiB", *in)
		}
		return fmt.Errorf("%s: %w", *in, err)
	}
	return writeJSON(stdout, out)
}
