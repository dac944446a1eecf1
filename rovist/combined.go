package rovist

import (
	"fmt"
	"math"

	"github.com/storyeval/storyeval/internal/pairwise"
	"github.com/storyeval/storyeval/story"
)

// CombineOptions configures the overall RoViST score.
type CombineOptions struct {
	// ScaledVG adds the paper's scaled grounding score (VGResult.Scaled)
	// instead of the raw log-sum-exp. The paper sums VG, C and NR (Wang et
	// al. 2022, §6.2) without saying which VG; the default is the raw score,
	// the one the released scorer prints.
	ScaledVG bool
}

// Scores is the RoViST evaluation of one story: each metric's result with
// its diagnostics (nil when that metric was not computed) and the overall
// score.
type Scores struct {
	ID string
	VG *VGResult
	C  *CoherenceResult
	NR *NRResult
	// Overall is VG + C + NR; NaN unless all three were computed and are
	// defined (OverallDefined).
	Overall        float64
	OverallDefined bool
}

// Combine joins per-story results computed over the same stories (nil for
// a metric not computed) into Scores, in the stories' order.
func Combine(stories []story.Story, vg []VGResult, c []CoherenceResult, nr []NRResult, opts CombineOptions) ([]Scores, error) {
	for _, x := range []struct {
		name string
		n    int
		set  bool
	}{{"VG", len(vg), vg != nil}, {"C", len(c), c != nil}, {"NR", len(nr), nr != nil}} {
		if x.set && x.n != len(stories) {
			return nil, fmt.Errorf("combine: %d %s results for %d stories", x.n, x.name, len(stories))
		}
	}
	out := make([]Scores, len(stories))
	for i, st := range stories {
		s := Scores{ID: st.ID, Overall: math.NaN()}
		if vg != nil {
			s.VG = &vg[i]
		}
		if c != nil {
			s.C = &c[i]
		}
		if nr != nil {
			s.NR = &nr[i]
		}
		if s.VG != nil && s.C != nil && s.NR != nil && s.VG.Defined && s.C.Defined && s.NR.Defined {
			v := s.VG.Score
			if opts.ScaledVG {
				v = s.VG.Scaled
			}
			s.Overall, s.OverallDefined = v+s.C.Score+s.NR.Score, true
		}
		out[i] = s
	}
	return out, nil
}

// SystemScores are the means of a story set's scores over the stories on
// which each is defined (as the reference scripts' pandas mean skips NaN),
// with the number of stories averaged; a mean over no story is NaN.
type SystemScores struct {
	VG, VGScaled, C, NR, Overall   float64
	NumVG, NumC, NumNR, NumOverall int
}

// SystemMeans averages per-story scores with numpy's pairwise summation.
func SystemMeans(rows []Scores) SystemScores {
	var vg, vgs, c, nr, all []float64
	for _, r := range rows {
		if r.VG != nil && r.VG.Defined {
			vg, vgs = append(vg, r.VG.Score), append(vgs, r.VG.Scaled)
		}
		if r.C != nil && r.C.Defined {
			c = append(c, r.C.Score)
		}
		if r.NR != nil && r.NR.Defined {
			nr = append(nr, r.NR.Score)
		}
		if r.OverallDefined {
			all = append(all, r.Overall)
		}
	}
	return SystemScores{
		VG: pairwise.Mean(vg), VGScaled: pairwise.Mean(vgs), C: pairwise.Mean(c), NR: pairwise.Mean(nr), Overall: pairwise.Mean(all),
		NumVG: len(vg), NumC: len(c), NumNR: len(nr), NumOverall: len(all),
	}
}
