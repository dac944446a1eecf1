package groovist

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/internal/jsonfloat"
)

// JSON output of WriteJSON; field order is output order.
type groovistNP struct {
	NP         string            `json:"np"`
	Score      jsonfloat.Float   `json:"score"`
	Weight     jsonfloat.Float   `json:"weight"`
	MaxCosine  jsonfloat.Float   `json:"max_cosine"`
	Scaled     jsonfloat.Float   `json:"scaled"`
	Alignment  []jsonfloat.Float `json:"alignment"`
	BestImage  int               `json:"best_image"`
	BestRegion int               `json:"best_region"`
}

type groovistImage struct {
	ID      string `json:"id"`
	Regions int    `json:"regions"`
	Used    int    `json:"used"`
	Error   string `json:"error,omitempty"`
}

type groovistStory struct {
	ID                   string          `json:"id"`
	GROOViST             jsonfloat.Float `json:"groovist"`
	Defined              bool            `json:"defined"`
	NPScores             orderedFloats   `json:"np_scores"`
	TemporalMisalignment jsonfloat.Float `json:"temporal_misalignment"`
	NPProportion         jsonfloat.Float `json:"np_proportion"`
	Images               []groovistImage `json:"images"`
	NPs                  []groovistNP    `json:"nps,omitempty"`
}

type groovistOutput struct {
	Theta       jsonfloat.Float `json:"theta"`
	Mean        jsonfloat.Float `json:"mean"`
	MeanDefined jsonfloat.Float `json:"mean_defined"`
	Stories     []groovistStory `json:"stories"`
}

// orderedFloats marshals as a JSON object keeping the phrases' order.
type orderedFloats struct {
	keys []string
	vals []float64
}

// MarshalJSON implements json.Marshaler.
func (o orderedFloats) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kj, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vj, _ := jsonfloat.Float(o.vals[i]).MarshalJSON()
		b.Write(kj)
		b.WriteByte(':')
		b.Write(vj)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

func reportOf(res []Result, theta float64, details bool) groovistOutput {
	out := groovistOutput{Theta: jsonfloat.Float(theta), Mean: jsonfloat.Float(Mean(res)), MeanDefined: jsonfloat.Float(MeanDefined(res))}
	for _, r := range res {
		s := groovistStory{ID: r.ID, GROOViST: jsonfloat.Float(r.Score), Defined: r.Defined,
			TemporalMisalignment: jsonfloat.Float(r.TemporalMisalignment), NPProportion: jsonfloat.Float(r.NPProportion)}
		for _, np := range r.NPs {
			s.NPScores.keys = append(s.NPScores.keys, np.NP)
			s.NPScores.vals = append(s.NPScores.vals, float64(np.Score))
			if details {
				d := groovistNP{NP: np.NP, Score: jsonfloat.Float(np.Score), Weight: jsonfloat.Float(np.Weight), MaxCosine: jsonfloat.Float(np.MaxCosine),
					Scaled: jsonfloat.Float(np.Scaled), BestImage: np.BestImage, BestRegion: np.BestRegion}
				for _, a := range np.Alignment {
					d.Alignment = append(d.Alignment, jsonfloat.Float(a))
				}
				s.NPs = append(s.NPs, d)
			}
		}
		for _, im := range r.Images {
			gi := groovistImage{ID: im.ID, Regions: im.Regions, Used: im.Used}
			if im.Err != nil {
				gi.Error = im.Err.Error()
			}
			s.Images = append(s.Images, gi)
		}
		out.Stories = append(out.Stories, s)
	}
	return out
}

// WriteCSV writes results as `storyeval groovist -format csv` prints them:
// id, score, the number of phrases and of failed images, the temporal
// misalignment and the NP proportion per story, then the mean and the mean
// of defined scores. Undefined values are written NaN.
func WriteCSV(w io.Writer, res []Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"id", "groovist", "nps", "failed_images", "temporal_misalignment", "np_proportion"})
	for _, r := range res {
		failed := 0
		for _, im := range r.Images {
			if im.Err != nil {
				failed++
			}
		}
		_ = cw.Write([]string{r.ID, jsonfloat.CSV(r.Score), strconv.Itoa(len(r.NPs)), strconv.Itoa(failed),
			jsonfloat.CSV(r.TemporalMisalignment), jsonfloat.CSV(r.NPProportion)})
	}
	_ = cw.Write([]string{"(mean)", jsonfloat.CSV(Mean(res)), "", "", "", ""})
	_ = cw.Write([]string{"(mean of defined)", jsonfloat.CSV(MeanDefined(res)), "", "", "", ""})
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes results as `storyeval groovist` prints them: θ, the
// mean and the mean of defined scores, then per story the score, each
// phrase's score (in phrase order), the diagnostics and the images'
// regions, and with details each phrase's weight, cosines and best image
// and region; indented, undefined values null.
func WriteJSON(w io.Writer, res []Result, theta float64, details bool) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(reportOf(res, theta, details))
}
