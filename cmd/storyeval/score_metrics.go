package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/ngram"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
	"github.com/storyeval/storyeval/stylem"
)

// scoreMetricNames are the metrics -metrics all selects, in report order;
// optInScoreMetricNames those it selects only when named: variants of
// metrics that "all" already computes in the COCO toolkit's configuration.
var (
	scoreMetricNames      = append([]string{"bleu", "meteor", "rouge", "cider", "nr", "stylem"}, compare.LearnedMetricNames()...)
	optInScoreMetricNames = []string{"nltkbleu", "meteor-vist"}
)

// parseScoreMetrics turns the -metrics flag into the names of the metrics
// to run.
func parseScoreMetrics(list string) ([]string, error) {
	if list == "" || list == "all" {
		return slices.Clone(scoreMetricNames), nil
	}
	known := append(slices.Clone(scoreMetricNames), optInScoreMetricNames...)
	var out []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(strings.ToLower(n))
		if !slices.Contains(known, n) {
			return nil, fmt.Errorf("-metrics: unknown metric %q (known: all or %s)", n, strings.Join(known, ","))
		}
		if slices.Contains(out, n) {
			return nil, fmt.Errorf("-metrics: %q given twice", n)
		}
		out = append(out, n)
	}
	return out, nil
}

// scoreInputs are score's inputs besides the models: the story set, the
// human ratings (nil without) and the StyleM table and style (nil without).
type scoreInputs struct {
	suite      *story.Suite
	ratings    compare.Ratings
	styleTable *stylem.Table
	style      string
}

// readScoreInputs reads the story set (or the embedded demo's), the
// ratings and the StyleM table the flags name, checking each.
func readScoreInputs(in string, demo bool, human, styleTable, style string) (scoreInputs, error) {
	var r scoreInputs
	var err error
	if demo {
		if r.suite, err = story.ParseSuite(demoStories, "demo/stories.json", story.ReadOptions{}); err != nil {
			return r, err
		}
		if human == "" {
			if r.ratings, err = compare.ReadRatings(bytes.NewReader(demoRatings), "demo/ratings.csv", r.suite); err != nil {
				return r, err
			}
		}
		if styleTable == "" {
			if r.styleTable, err = demoStyleTable(); err != nil {
				return r, err
			}
			r.style = demoStyle
		}
	} else if r.suite, err = readSuite(in); err != nil {
		return r, err
	}
	if human != "" {
		if r.ratings, err = compare.OpenRatings(human, r.suite); err != nil {
			return r, err
		}
	}
	if styleTable != "" {
		if r.styleTable, err = readStyleTable(styleTable); err != nil {
			return r, err
		}
		if !slices.Contains(r.styleTable.Styles(), style) {
			return r, fmt.Errorf("-style %q is not a style of %s (styles: %q)", style, styleTable, r.styleTable.Styles())
		}
		r.style = style
	}
	return r, nil
}

// openScoreModels loads the learned models of the -models folder that the
// selected metrics need; without -models every learned metric needs it.
// demonstration labels the columns of demonstration models ("" for real
// ones).
func openScoreModels(dir, regions, crops string, suite *story.Suite, selected []string, decode imageproc.DecodeOptions, vg rovist.VGOptions, dev encoders.Options, demonstration string) (*compare.Models, error) {
	m, err := compare.OpenModels(dir, suite, compare.ModelsOptions{
		Metrics: selected, Regions: regions, Crops: crops, Decode: decode, VG: vg, Backend: dev.Backend, Demonstration: demonstration,
		NoFolderNeeds: "-models DIR", RegionsNeeds: "-regions CSV and -crops DIR (the image regions of the story set)",
	})
	if err != nil && dir != "" {
		return nil, fmt.Errorf("-models %s: %w", dir, err)
	}
	return m, err
}

// scoreMetricList makes the adapters of the selected metrics, in the
// order selected; a metric whose inputs are missing is compare.Absent,
// saying which flag or file it needs.
func scoreMetricList(selected []string, suite *story.Suite, in scoreInputs, models *compare.Models, paraphrase string) ([]compare.Metric, error) {
	var out []compare.Metric
	for _, name := range selected {
		var m compare.Metric
		switch name {
		case "bleu":
			m = compare.BLEU()
		case "rouge":
			m = compare.ROUGEL()
		case "cider":
			m = compare.CIDErD()
		case "nltkbleu":
			m = compare.NLTKBLEU()
		case "meteor", "meteor-vist":
			var meteor *ngram.Meteor
			if suite.HasReferences() {
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
			m = compare.METEOR(meteor)
			if name == "meteor-vist" {
				m = compare.METEORVIST(meteor)
			}
		case "nr":
			m = compare.NonRedundancy()
		case "stylem":
			m = compare.Absent(name, []string{"OnlyStyle"}, "-stylem-table and -style")
			if in.styleTable != nil {
				m = compare.OnlyStyle(in.styleTable, in.style)
			}
		default:
			m = models.Metric(name)
		}
		out = append(out, m)
	}
	return out, nil
}
