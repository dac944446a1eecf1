package compare

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
	"github.com/storyeval/storyeval/stylem"
)

// nonRedundancy is RoViST-NR per story.
type nonRedundancy struct{ spec }

// NonRedundancy returns RoViST-NR per story (rovist.NonRedundancy, the
// reference's defaults); the diagnostic names the sentence pair that
// repeats most.
func NonRedundancy() Metric { return nonRedundancy{spec{name: "nr", columns: []string{"RoViST-NR"}}} }

// Score implements Metric.
func (m nonRedundancy) Score(ctx context.Context, in *Inputs) ([]Column, error) {
	return perSystem(ctx, in, func(sys string, _ func(int, int)) ([]Column, error) {
		texts := make([]string, in.Suite.Len())
		for i, seq := range in.Suite.All() {
			texts[i] = seq.Stories[sys]
		}
		col := newColumn(m.columns[0], sys, len(texts))
		errs := make([]error, len(texts))
		// Each story's note is made while its pair scores are at hand,
		// so that no more than one story's pairs per goroutine are kept.
		rovist.NonRedundancyEach(texts, rovist.NROptions{}, func(i int, r *rovist.NRResult, err error) {
			errs[i] = err
			if err == nil {
				col.Scores[sys][i] = r.Score
				col.Notes[sys][i] = nrNote(*r)
			}
		})
		for i, err := range errs {
			if err != nil {
				return nil, fmt.Errorf("RoViST-NR of %q: %w", in.Suite.At(i).ID, err)
			}
		}
		return []Column{col}, nil
	})
}

// nrNote describes the inter-sentence pair that repeats most.
func nrNote(r rovist.NRResult) string {
	if !r.Defined {
		return "undefined: fewer than two sentences"
	}
	best := -1
	for i, p := range r.Inter {
		if best < 0 || p.Score > r.Inter[best].Score {
			best = i
		}
	}
	if best < 0 || r.Inter[best].Shared == 0 {
		return "no repeated words between sentences"
	}
	p := r.Inter[best]
	return fmt.Sprintf("sentences %d and %d repeat most (%d equal token pairs over %d distinct tokens)", p.First+1, p.Second+1, p.Shared, p.Union)
}

// onlyStyle is StyleM's OnlyStyle per story.
type onlyStyle struct {
	spec
	table *stylem.Table
	style string
}

// OnlyStyle returns StyleM's OnlyStyle of each story for style, with the
// table's tokenization (a nil table leaves the metric unavailable); the
// diagnostic gives each order's mean CNG and the n-grams of the story
// that weigh most for the style.
func OnlyStyle(table *stylem.Table, style string) Metric {
	return onlyStyle{spec{name: "stylem", columns: []string{"OnlyStyle"}}, table, style}
}

// Unavailable implements Metric: the metric needs a table with the style.
func (m onlyStyle) Unavailable(*story.Suite) []Unavailable {
	if m.table == nil {
		return unavailableAll(m.columns, "a StyleM table and a style")
	}
	if !slices.Contains(m.table.Styles(), m.style) {
		return unavailableAll(m.columns, fmt.Sprintf("a StyleM table with the style %q", m.style))
	}
	return nil
}

// Score implements Metric.
func (m onlyStyle) Score(ctx context.Context, in *Inputs) ([]Column, error) {
	step, err := stylem.StepByName(m.table.Tokenization())
	if err != nil {
		return nil, err
	}
	return perSystem(ctx, in, func(sys string, _ func(int, int)) ([]Column, error) {
		col := newColumn(m.columns[0], sys, in.Suite.Len())
		for i, seq := range in.Suite.All() {
			d, err := m.table.OnlyStyleDetail(m.style, stylem.Tokenize(seq.Stories[sys], step), onlyStyleTop)
			if err != nil {
				return nil, fmt.Errorf("OnlyStyle of %q: %w", seq.ID, err)
			}
			col.Scores[sys][i], col.Notes[sys][i] = d.Score, onlyStyleNote(d, m.style)
		}
		return []Column{col}, nil
	})
}

// onlyStyleTop is how many of a story's style n-grams its note names.
const onlyStyleTop = 3

// onlyStyleNote explains an OnlyStyle score: the mean CNG of the story's
// distinct n-grams per order (the score is their mean) and the n-grams
// that weigh most for the style.
func onlyStyleNote(d stylem.OnlyStyleDetail, style string) string {
	orders := make([]string, len(d.Orders))
	for k, o := range d.Orders {
		orders[k] = fmt.Sprintf("%d-grams %.3f (%d of %d in the style)", o.N, o.MeanCNG, o.InStyle, o.Distinct)
	}
	s := "mean CNG of the distinct " + strings.Join(orders, ", ")
	if len(d.Top) == 0 {
		return s + fmt.Sprintf("; no n-gram with a positive CNG for %q", style)
	}
	top := make([]string, len(d.Top))
	for k, g := range d.Top {
		top[k] = fmt.Sprintf("%q %.3f", g.Ngram, g.CNG)
	}
	return s + fmt.Sprintf("; most %q: %s", style, strings.Join(top, ", "))
}
