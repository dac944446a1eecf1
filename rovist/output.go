package rovist

import (
	"encoding/csv"
	"encoding/json"
	"io"

	"github.com/storyeval/storyeval/internal/jsonfloat"
)

// SystemID labels the row of system means in WriteCSV's output.
const SystemID = "(system)"

// Computed says which of the three scores were computed, the columns
// WriteCSV writes.
type Computed struct {
	VG, C, NR bool // RoViST-VG, RoViST-C, RoViST-NR
}

// WriteCSV writes the scores as `storyeval rovist -format csv` prints
// them: a header, id and one column per computed metric (vg and
// vg_scaled, c, nr), rovist when all three were computed, one row per
// story, then the system means (SystemMeans) under the id SystemID.
// Undefined scores are written NaN.
func WriteCSV(w io.Writer, rows []Scores, computed Computed) error {
	hasVG, hasC, hasNR := computed.VG, computed.C, computed.NR
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
			rec = append(rec, jsonfloat.CSV(r.VG.Score), jsonfloat.CSV(r.VG.Scaled))
		}
		if hasC {
			rec = append(rec, jsonfloat.CSV(r.C.Score))
		}
		if hasNR {
			rec = append(rec, jsonfloat.CSV(r.NR.Score))
		}
		if all {
			rec = append(rec, jsonfloat.CSV(r.Overall))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	sys := SystemMeans(rows)
	rec := []string{SystemID}
	if hasVG {
		rec = append(rec, jsonfloat.CSV(sys.VG), jsonfloat.CSV(sys.VGScaled))
	}
	if hasC {
		rec = append(rec, jsonfloat.CSV(sys.C))
	}
	if hasNR {
		rec = append(rec, jsonfloat.CSV(sys.NR))
	}
	if all {
		rec = append(rec, jsonfloat.CSV(sys.Overall))
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
		ID     string           `json:"id"`
		VG     *vgJSON          `json:"vg,omitempty"`
		C      *coherenceJSON   `json:"c,omitempty"`
		NR     *nrJSON          `json:"nr,omitempty"`
		RoViST *jsonfloat.Float `json:"rovist,omitempty"`
	}
	rovistSystemJSON struct {
		VG       *jsonfloat.Float `json:"vg,omitempty"`
		VGScaled *jsonfloat.Float `json:"vg_scaled,omitempty"`
		C        *jsonfloat.Float `json:"c,omitempty"`
		NR       *jsonfloat.Float `json:"nr,omitempty"`
		RoViST   *jsonfloat.Float `json:"rovist,omitempty"`
		ScaledVG bool             `json:"rovist_uses_scaled_vg"`
	}
	vgJSON struct {
		Score  jsonfloat.Float `json:"score"`
		Scaled jsonfloat.Float `json:"scaled"`
		Nouns  []nounJSON      `json:"nouns"`
		Images []imgJSON       `json:"images"`
	}
	nounJSON struct {
		Noun       string          `json:"noun"`
		InGloVe    bool            `json:"in_glove"`
		IDF        jsonfloat.Float `json:"idf"`
		Recall     jsonfloat.Float `json:"recall"`
		BestImage  int             `json:"best_image"`
		BestRegion int             `json:"best_region"`
	}
	imgJSON struct {
		ID      string   `json:"id"`
		Listed  int      `json:"regions_listed"`
		Regions []string `json:"regions_used"`
	}
	coherenceJSON struct {
		Score jsonfloat.Float `json:"score"`
		Pairs []pairJSON      `json:"pairs"`
	}
	pairJSON struct {
		First     int             `json:"first"`
		Second    int             `json:"second"`
		A         string          `json:"a"`
		B         string          `json:"b"`
		Identical bool            `json:"identical"`
		Truncated bool            `json:"truncated,omitempty"`
		Prob      jsonfloat.Float `json:"prob_coherent"`
	}
	nrJSON struct {
		Score jsonfloat.Float `json:"score"`
	}
)

// WriteJSON writes the scores with their diagnostics as `storyeval
// rovist` prints them: {"stories": [...], "system": {...}}, indented, with
// the members of the scores computed, undefined values null. scaledVG
// records whether the overall score used the scaled VG
// (CombineOptions.ScaledVG).
func WriteJSON(w io.Writer, rows []Scores, scaledVG bool) error {
	out := rovistJSON{Stories: make([]rovistStoryJSON, len(rows))}
	var hasVG, hasC, hasNR bool
	for i, r := range rows {
		s := rovistStoryJSON{ID: r.ID}
		if r.VG != nil {
			hasVG = true
			v := &vgJSON{Score: jsonfloat.Float(r.VG.Score), Scaled: jsonfloat.Float(r.VG.Scaled), Nouns: []nounJSON{}, Images: []imgJSON{}}
			for _, n := range r.VG.Nouns {
				v.Nouns = append(v.Nouns, nounJSON{Noun: n.Noun, InGloVe: n.InGloVe, IDF: jsonfloat.Float(n.IDF), Recall: jsonfloat.Float(n.Recall), BestImage: n.BestImage, BestRegion: n.BestRegion})
			}
			for _, im := range r.VG.Images {
				v.Images = append(v.Images, imgJSON{ID: im.ID, Listed: im.Listed, Regions: im.RegionLabels})
			}
			s.VG = v
		}
		if r.C != nil {
			hasC = true
			c := &coherenceJSON{Score: jsonfloat.Float(r.C.Score), Pairs: []pairJSON{}}
			for _, p := range r.C.Pairs {
				c.Pairs = append(c.Pairs, pairJSON{First: p.First, Second: p.Second, A: p.A, B: p.B, Identical: p.Identical, Truncated: p.Truncated, Prob: jsonfloat.Float(p.Prob)})
			}
			s.C = c
		}
		if r.NR != nil {
			hasNR = true
			s.NR = &nrJSON{Score: jsonfloat.Float(r.NR.Score)}
		}
		if hasVG && hasC && hasNR {
			s.RoViST = jsonfloat.Ptr(r.Overall)
		}
		out.Stories[i] = s
	}
	sys := SystemMeans(rows)
	out.System.ScaledVG = scaledVG
	if hasVG {
		out.System.VG, out.System.VGScaled = jsonfloat.Ptr(sys.VG), jsonfloat.Ptr(sys.VGScaled)
	}
	if hasC {
		out.System.C = jsonfloat.Ptr(sys.C)
	}
	if hasNR {
		out.System.NR = jsonfloat.Ptr(sys.NR)
	}
	if hasVG && hasC && hasNR {
		out.System.RoViST = jsonfloat.Ptr(sys.Overall)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
