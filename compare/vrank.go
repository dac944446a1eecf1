package compare

import (
	"context"
	"strings"

	"github.com/storyeval/storyeval/vrank"
)

// vrankWinRate is the Vrank win rate per story.
type vrankWinRate struct {
	spec
	model *vrank.Model
}

// VrankWinRate returns, per story, the share of the other systems'
// stories of the same sequence that Vrank ranks it above. Both orders of
// a pair are predicted and their gaps combined antisymmetrically,
// d(A, B) = (gap(A, B) − gap(B, A)) / 2: A beats B when d < 0 (a negative
// gap puts story 1 first), B beats A when d > 0, d = 0 is a tie counting
// for neither. So exactly one story of a pair wins (or neither), whatever
// position bias the model has left after its symmetric training
// augmentation; each order's gap alone would let both stories "win" the
// same pair. With one system the win rate is undefined.
func VrankWinRate(model *vrank.Model) Metric {
	return vrankWinRate{spec{name: "vrank", columns: []string{"Vrank win rate"}}, model}
}

// Score implements Metric.
func (m vrankWinRate) Score(ctx context.Context, in *Inputs) ([]Column, error) {
	systems := in.Systems
	n := in.Suite.Len()
	byName := map[string]*Column{m.columns[0]: {Name: m.columns[0]}}
	if len(systems) < 2 {
		for _, sys := range systems {
			col := newColumn(m.columns[0], sys, n)
			for i := range col.Notes[sys] {
				col.Notes[sys][i] = "undefined: one system only"
			}
			merge(byName, []Column{col}, sys)
		}
		return []Column{*byName[m.columns[0]]}, nil
	}
	gaps, err := m.gaps(ctx, in)
	if err != nil {
		return nil, err
	}
	for self, sys := range systems {
		col := newColumn(m.columns[0], sys, n)
		for i := range n {
			wins := 0
			var lost []string
			for o, other := range systems {
				if o == self {
					continue
				}
				switch d := (gaps.gap(i, self, o) - gaps.gap(i, o, self)) / 2; {
				case d < 0:
					wins++
				case d > 0:
					lost = append(lost, other)
				}
			}
			col.Scores[sys][i] = float64(wins) / float64(len(systems)-1)
			if len(lost) > 0 {
				col.Notes[sys][i] = "ranked below " + strings.Join(lost, ", ")
			}
		}
		merge(byName, []Column{col}, sys)
	}
	return []Column{*byName[m.columns[0]]}, nil
}

// vrankGapTable holds Vrank's predicted gap of every ordered pair of
// distinct systems' stories of each sequence.
type vrankGapTable struct {
	gaps             []float64
	sequences, peers int // peers: systems − 1
}

// gap returns the predicted gap of (system a's story, system b's story) of
// sequence seq; a ≠ b.
func (t vrankGapTable) gap(seq, a, b int) float64 {
	if b > a {
		b--
	}
	return t.gaps[(a*t.sequences+seq)*t.peers+b]
}

// gaps predicts every ordered pair of the systems' stories of each
// sequence, system by system, sequence by sequence, the others in suite
// order. One call for all pairs: Predict sorts a call's pairs by length
// into batches, so one call pads less than several small ones and runs as
// fast per pair as 'storyeval vrank predict' on the same pairs.
func (m vrankWinRate) gaps(ctx context.Context, in *Inputs) (vrankGapTable, error) {
	systems := in.Systems
	t := vrankGapTable{sequences: in.Suite.Len(), peers: len(systems) - 1}
	var a, b []string
	for _, sys := range systems {
		for _, seq := range in.Suite.All() {
			for _, o := range systems {
				if o != sys {
					a = append(a, seq.Stories[sys])
					b = append(b, seq.Stories[o])
				}
			}
		}
	}
	gaps, err := m.model.PredictWith(ctx, a, b, vrank.PredictOptions{Progress: in.Progress})
	if err != nil {
		return t, err
	}
	t.gaps = gaps
	return t, nil
}
