package compare

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/ngram"
	"github.com/storyeval/storyeval/story"
	"github.com/storyeval/storyeval/stylem"
)

// MetricNames are the metrics that "all" selects, in report order.
func MetricNames() []string {
	return append([]string{"bleu", "meteor", "rouge", "cider", "nr", "stylem"}, LearnedMetricNames()...)
}

// OptInMetricNames are the metrics selected only when named: variants of
// metrics that MetricNames already computes in the COCO toolkit's
// configuration (NLTK sentence_bleu, METEOR as the VIST scripts run it).
func OptInMetricNames() []string { return []string{"nltkbleu", "meteor-vist"} }

// ParseMetricNames reads a comma-separated list of metric names (any case,
// each once); "" and "all" select MetricNames.
func ParseMetricNames(list string) ([]string, error) {
	if list == "" || list == "all" {
		return MetricNames(), nil
	}
	known := append(MetricNames(), OptInMetricNames()...)
	var out []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(strings.ToLower(n))
		if !slices.Contains(known, n) {
			return nil, fmt.Errorf("unknown metric %q (known: all or %s)", n, strings.Join(known, ","))
		}
		if slices.Contains(out, n) {
			return nil, fmt.Errorf("%q given twice", n)
		}
		out = append(out, n)
	}
	return out, nil
}

// Sources are a comparison's inputs besides the learned models: the story
// set, the human ratings (nil without) and the StyleM table with the style
// OnlyStyle scores against (nil and "" without).
type Sources struct {
	Suite      *story.Suite
	Ratings    Ratings
	StyleTable *stylem.Table
	Style      string
	styleNeeds string
}

// SourcesOptions name what Load reads.
type SourcesOptions struct {
	// Stories is a story-set JSON file or a folder of per-system NAME.json
	// files (story.LoadSuite, story.LoadSuiteDir); unused with Demo.
	Stories string
	// Demo, when set, replaces Stories, and supplies the ratings and the
	// StyleM table that Ratings and StyleTable leave empty.
	Demo *DemoSources
	// Ratings is a CSV of human ratings (OpenRatings).
	Ratings string
	// StyleTable is a StyleM table file and Style one of its styles.
	StyleTable, Style string
	// StyleNeeds says what OnlyStyle needs when no table is given
	// (default "a StyleM table and style"); the command names its flags.
	StyleNeeds string
}

// DemoSources is an embedded demo story set: the contents of its
// stories.json, ratings.csv and stylem_corpus.jsonl (a caption corpus
// the toy StyleM table is built from), and the style it is scored against.
type DemoSources struct {
	Stories, Ratings, StyleCorpus []byte
	Style                         string
}

// Load reads and checks the story set, ratings and StyleM table that opts
// name, so that a run fails on a bad input before any model is loaded.
// Errors name the file.
func (opts SourcesOptions) Load() (*Sources, error) {
	r := Sources{styleNeeds: opts.StyleNeeds}
	var err error
	if d := opts.Demo; d != nil {
		if r.Suite, err = story.ParseSuite(d.Stories, "demo/stories.json", story.ReadOptions{}); err != nil {
			return nil, err
		}
		if opts.Ratings == "" {
			if r.Ratings, err = ReadRatings(bytes.NewReader(d.Ratings), "demo/ratings.csv", r.Suite); err != nil {
				return nil, err
			}
		}
		if opts.StyleTable == "" {
			recs, err := stylem.ReadCorpusJSONL(bytes.NewReader(d.StyleCorpus), limits.Limits{})
			if err != nil {
				return nil, fmt.Errorf("demo/stylem_corpus.jsonl: %w", err)
			}
			if r.StyleTable, err = stylem.Build(recs, stylem.BuildOptions{}); err != nil {
				return nil, err
			}
			r.Style = d.Style
		}
	} else if r.Suite, err = loadSuite(opts.Stories); err != nil {
		return nil, err
	}
	if opts.Ratings != "" {
		if r.Ratings, err = OpenRatings(opts.Ratings, r.Suite); err != nil {
			return nil, err
		}
	}
	if opts.StyleTable != "" {
		if r.StyleTable, err = stylem.OpenTable(opts.StyleTable, stylem.ReadOptions{}); err != nil {
			return nil, err
		}
		if !slices.Contains(r.StyleTable.Styles(), opts.Style) {
			return nil, &StyleError{Style: opts.Style, Table: opts.StyleTable, Styles: r.StyleTable.Styles()}
		}
		r.Style = opts.Style
	}
	return &r, nil
}

// loadSuite reads a story set from a JSON file or a folder of per-system
// files.
func loadSuite(path string) (*story.Suite, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return story.LoadSuiteDir(path, story.ReadOptions{})
	}
	return story.LoadSuite(path, story.ReadOptions{})
}

// Metrics makes the adapters of the named metrics (ParseMetricNames), in
// that order, over s; learned metrics come from models (nil: none). A
// metric whose inputs are missing is Absent, saying what it needs.
// paraphrase is METEOR's paraphrase table ("" for none).
func (s *Sources) Metrics(names []string, models *Models, paraphrase string) ([]Metric, error) {
	var out []Metric
	for _, name := range names {
		var m Metric
		switch name {
		case "bleu":
			m = BLEU()
		case "rouge":
			m = ROUGEL()
		case "cider":
			m = CIDErD()
		case "nltkbleu":
			m = NLTKBLEU()
		case "meteor", "meteor-vist":
			var meteor *ngram.Meteor
			if s.Suite.HasReferences() {
				opts := ngram.MeteorOptions{}
				if name == "meteor-vist" {
					opts = ngram.MeteorVISTOptions()
				}
				opts.ParaphraseTable = paraphrase
				var err error
				if meteor, err = ngram.NewMeteor(opts); err != nil {
					return nil, err
				}
			}
			m = METEOR(meteor)
			if name == "meteor-vist" {
				m = METEORVIST(meteor)
			}
		case "nr":
			m = NonRedundancy()
		case "stylem":
			m = Absent(name, []string{"OnlyStyle"}, cmpOr(s.styleNeeds, "a StyleM table and style"))
			if s.StyleTable != nil {
				m = OnlyStyle(s.StyleTable, s.Style)
			}
		default:
			m = models.Metric(name)
		}
		out = append(out, m)
	}
	return out, nil
}

// StyleError is SourcesOptions.Load's error for a style the StyleM table lacks.
type StyleError struct {
	Style, Table string   // the style asked for and the table's file
	Styles       []string // the table's styles
}

// Error names the style, the table and the styles it has.
func (e *StyleError) Error() string {
	return fmt.Sprintf("%q is not a style of %s (styles: %q)", e.Style, e.Table, e.Styles)
}
