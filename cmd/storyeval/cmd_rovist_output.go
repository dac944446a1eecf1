package main

import (
	"encoding/csv"
	"io"

	"github.com/storyeval/storyeval/rovist"
)

// writeRoViSTCSV writes id and one column per computed metric (vg and
// vg_scaled, c, nr), rovist when all three were computed, then the system
// means under the id "(system)".
func writeRoViSTCSV(w io.Writer, rows []rovist.Scores, hasVG, hasC, hasNR bool) error {
	cw := csv.NewWriter(w)
	header := []string{"id"}
	if hasVG {
		header = append(header, "vg", "vg_scaled")
	}
	if hasC {
		header = append(header, "c")
	}
	if hasNR {
		header = append(header, "nr")
	}
	all := hasVG && hasC && hasNR
	if all {
		header = append(header, "rovist")
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, r := range rows {
		rec := []string{r.ID}
		if hasVG {
			rec = append(rec, formatFloat(r.VG.Score), formatFloat(r.VG.Scaled))
		}
		if hasC {
			rec = append(rec, formatFloat(r.C.Score))
		}
		if hasNR {
			rec = append(rec, formatFloat(r.NR.Score))
		}
		if all {
			rec = append(rec, formatFloat(r.Overall))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	sys := rovist.SystemMeans(rows)
	rec := []string{rovistSystemID}
	if hasVG {
		rec = append(rec, formatFloat(sys.VG), formatFloat(sys.VGScaled))
	}
	if hasC {
		rec = append(rec, formatFloat(sys.C))
	}
	if hasNR {
		rec = append(rec, formatFloat(sys.NR))
	}
	if all {
		rec = append(rec, formatFloat(sys.Overall))
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// JSON output: the scores with their diagnostics.
type (
	rovistJSON struct {
		Stories []rovistStoryJSON `json:"stories"`
		System  rovistSystemJSON  `json:"system"`
	}
	rovistStoryJSON struct {
		ID     string         `json:"id"`
		VG     *vgJSON        `json:"vg,omitempty"`
		C      *coherenceJSON `json:"c,omitempty"`
		NR     *nrJSON        `json:"nr,omitempty"`
		RoViST *Float         `json:"rovist,omitempty"`
	}
	rovistSystemJSON struct {
		VG       *Float `json:"vg,omitempty"`
		VGScaled *Float `json:"vg_scaled,omitempty"`
		C        *Float `json:"c,omitempty"`
		NR       *Float `json:"nr,omitempty"`
		RoViST   *Float `json:"rovist,omitempty"`
		ScaledVG bool   `json:"rovist_uses_scaled_vg"`
	}
	vgJSON struct {
		Score  Float      `json:"score"`
		Scaled Float      `json:"scaled"`
		Nouns  []nounJSON `json:"nouns"`
		Images []imgJSON  `json:"images"`
	}
	nounJSON struct {
		Noun       string `json:"noun"`
		InGloVe    bool   `json:"in_glove"`
		IDF        Float  `json:"idf"`
		Recall     Float  `json:"recall"`
		BestImage  int    `json:"best_image"`
		BestRegion int    `json:"best_region"`
	}
	imgJSON struct {
		ID      string   `json:"id"`
		Listed  int      `json:"regions_listed"`
		Regions []string `json:"regions_used"`
	}
	coherenceJSON struct {
		Score Float      `json:"score"`
		Pairs []pairJSON `json:"pairs"`
	}
	pairJSON struct {
		First     int    `json:"first"`
		Second    int    `json:"second"`
		A         string `json:"a"`
		B         string `json:"b"`
		Identical bool   `json:"identical"`
		Truncated bool   `json:"truncated,omitempty"`
		Prob      Float  `json:"prob_coherent"`
	}
	nrJSON struct {
		Score Float `json:"score"`
	}
)

func floatPtr(x float64) *Float { f := Float(x); return &f }

func writeRoViSTJSON(w io.Writer, rows []rovist.Scores, scaledVG bool) error {
	out := rovistJSON{Stories: make([]rovistStoryJSON, len(rows))}
	var hasVG, hasC, hasNR bool
	for i, r := range rows {
		s := rovistStoryJSON{ID: r.ID}
		if r.VG != nil {
			hasVG = true
			v := &vgJSON{Score: Float(r.VG.Score), Scaled: Float(r.VG.Scaled), Nouns: []nounJSON{}, Images: []imgJSON{}}
			for _, n := range r.VG.Nouns {
				v.Nouns = append(v.Nouns, nounJSON{Noun: n.Noun, InGloVe: n.InGloVe, IDF: Float(n.IDF), Recall: Float(n.Recall), BestImage: n.BestImage, BestRegion: n.BestRegion})
			}
			for _, im := range r.VG.Images {
				v.Images = append(v.Images, imgJSON{ID: im.ID, Listed: im.Listed, Regions: im.RegionLabels})
			}
			s.VG = v
		}
		if r.C != nil {
			hasC = true
			c := &coherenceJSON{Score: Float(r.C.Score), Pairs: []pairJSON{}}
			for _, p := range r.C.Pairs {
				c.Pairs = append(c.Pairs, pairJSON{First: p.First, Second: p.Second, A: p.A, B: p.B, Identical: p.Identical, Truncated: p.Truncated, Prob: Float(p.Prob)})
			}
			s.C = c
		}
		if r.NR != nil {
			hasNR = true
			s.NR = &nrJSON{Score: Float(r.NR.Score)}
		}
		if hasVG && hasC && hasNR {
			s.RoViST = floatPtr(r.Overall)
		}
		out.Stories[i] = s
	}
	sys := rovist.SystemMeans(rows)
	out.System.ScaledVG = scaledVG
	if hasVG {
		out.System.VG, out.System.VGScaled = floatPtr(sys.VG), floatPtr(sys.VGScaled)
	}
	if hasC {
		out.System.C = floatPtr(sys.C)
	}
	if hasNR {
		out.System.NR = floatPtr(sys.NR)
	}
	if hasVG && hasC && hasNR {
		out.System.RoViST = floatPtr(sys.Overall)
	}
	return writeJSON(w, out)
}
