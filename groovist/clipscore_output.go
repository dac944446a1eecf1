package groovist

import (
	"encoding/csv"
	"encoding/json"
	"io"

	"github.com/storyeval/storyeval/internal/jsonfloat"
)

// clipScoreItem and clipScoreReport are WriteCLIPScoreJSON's output; field
// order is output order.
type clipScoreItem struct {
	ID           string           `json:"id"`
	CLIPScore    jsonfloat.Float  `json:"CLIPScore"`
	RefCLIPScore *jsonfloat.Float `json:"RefCLIPScore,omitempty"`
	MaxRefCosine *jsonfloat.Float `json:"max_ref_cosine,omitempty"`
}

type clipScoreReport struct {
	CLIPScore    jsonfloat.Float  `json:"CLIPScore"`
	RefCLIPScore *jsonfloat.Float `json:"RefCLIPScore,omitempty"`
	Items        []clipScoreItem  `json:"items"`
}

// WriteCLIPScoreCSV writes scores as `storyeval clipscore -format csv`
// prints them: id, CLIPScore and RefCLIPScore per caption, then the corpus
// means (CorpusMeans) under the id "(mean)"; undefined values are NaN.
func WriteCLIPScoreCSV(w io.Writer, scores []CaptionScore) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"id", "CLIPScore", "RefCLIPScore"})
	for _, r := range scores {
		_ = cw.Write([]string{r.ID, jsonfloat.CSV(r.CLIPScore), jsonfloat.CSV(r.RefCLIPScore)})
	}
	c, ref := CorpusMeans(scores)
	_ = cw.Write([]string{"(mean)", jsonfloat.CSV(c), jsonfloat.CSV(ref)})
	cw.Flush()
	return cw.Error()
}

// WriteCLIPScoreJSON writes scores as `storyeval clipscore` prints them,
// indented: the corpus CLIPScore, the corpus RefCLIPScore when refs (the
// run had references), then per caption its CLIPScore and, when it has
// references, its RefCLIPScore and largest reference cosine; undefined
// values are null.
func WriteCLIPScoreJSON(w io.Writer, scores []CaptionScore, refs bool) error {
	c, ref := CorpusMeans(scores)
	out := clipScoreReport{CLIPScore: jsonfloat.Float(c)}
	if refs {
		out.RefCLIPScore = jsonfloat.Ptr(ref)
	}
	for _, r := range scores {
		it := clipScoreItem{ID: r.ID, CLIPScore: jsonfloat.Float(r.CLIPScore)}
		if r.HasRefs {
			it.RefCLIPScore, it.MaxRefCosine = jsonfloat.Ptr(r.RefCLIPScore), jsonfloat.Ptr(r.MaxRefCosine)
		}
		out.Items = append(out.Items, it)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
