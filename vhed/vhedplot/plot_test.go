package vhedplot

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/vhed"
	"gonum.org/v1/plot"
)

// smallOverlapGaps are the Reference Absent predictions of the overlap
// metric on ../testdata/vhed_small.csv, computed by hand in
// vhed/assess_test.go (assessSmallRAOverlap).
var smallOverlapGaps = []float64{0, -4, 3, -2, 0, -1, math.NaN(), math.NaN(), -4}

// plotSeriesSmall assesses two scorers on the test file: the overlap
// metric with the Reference Absent algorithm and "story 2 is better".
func plotSeriesSmall(t *testing.T) []Series {
	t.Helper()
	pairs, err := vhed.Load("../testdata/vhed_small.csv", vhed.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ra, err := vhed.AssessPredictions(pairs, smallOverlapGaps, vhed.AssessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ones := make([]float64, len(pairs))
	for i := range ones {
		ones[i] = 1
	}
	// With story 2 always better, bucket [0.2, 0.3) holds only P1
	// (rank_norm −0.24): 0/1 right.
	second, err := vhed.AssessPredictions(pairs, ones, vhed.AssessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return []Series{{"overlap (RA)", ra}, {"story 2", second}}
}

func TestPlotFormats(t *testing.T) {
	series := plotSeriesSmall(t)
	dir := t.TempDir()
	byGap, err := AccuracyByGap(series)
	if err != nil {
		t.Fatal(err)
	}
	byOmega, err := AccuracyByOmega(series)
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]*plot.Plot{"gap": byGap, "omega": byOmega} {
		for _, ext := range []string{"png", "svg"} {
			path := filepath.Join(dir, name+"."+ext)
			if err := Save(path, p); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			switch ext {
			case "png":
				plotCheckPNG(t, path, data)
			case "svg":
				plotCheckSVG(t, path, data, series)
			}
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("%d files in the folder, want the 4 figures and no temporary file", len(entries))
	}
}

// plotCheckPNG decodes the figure and checks it has the drawn size and is
// not blank: it holds several colours.
func plotCheckPNG(t *testing.T, path string, data []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b := img.Bounds()
	if want := int(Width.Dots(96) + 0.5); b.Dx() != want {
		t.Errorf("%s: %d pixels wide, want %d", path, b.Dx(), want)
	}
	colors := map[[4]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			colors[[4]uint32{r, g, bl, a}] = true
		}
	}
	if len(colors) < 4 {
		t.Errorf("%s: only %d colours: blank figure?", path, len(colors))
	}
}

// plotCheckSVG parses the figure as XML and checks that the title, the
// axis ticks and both legend entries are written in it.
func plotCheckSVG(t *testing.T, path string, data []byte, series []Series) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var text strings.Builder
	elements := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: not valid XML: %v", path, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			elements++
		case xml.CharData:
			text.Write(tok)
		}
	}
	if elements < 20 {
		t.Errorf("%s: only %d elements", path, elements)
	}
	all := text.String()
	want := []string{"accuracy", series[0].Name, series[1].Name}
	if strings.Contains(path, "gap") {
		want = append(want, "[0, 0.1)", "[0.2, 0.3)", "≥ 0.3", "rank_norm")
	} else {
		want = append(want, "all pairs", "Ω5 (5 agree)", "Ω4,5")
	}
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("%s: no text %q", path, w)
		}
	}
}

func TestPlotErrors(t *testing.T) {
	if _, err := AccuracyByGap(nil); err == nil {
		t.Error("no series accepted")
	}
	series := plotSeriesSmall(t)
	series[1].Report.Buckets = series[1].Report.Buckets[:2]
	if _, err := AccuracyByGap(series); err == nil {
		t.Error("different buckets accepted")
	}
	series[1].Report.OmegaUnion.Ks = []int{5}
	if _, err := AccuracyByOmega(series); err == nil {
		t.Error("different Ω unions accepted")
	}
	series[1].Report.Omega = series[1].Report.Omega[:1]
	if _, err := AccuracyByOmega(series); err == nil {
		t.Error("different Ω subsets accepted")
	}
	p, err := AccuracyByOmega(series[:1])
	if err != nil {
		t.Fatal(err)
	}
	if err := Save(filepath.Join(t.TempDir(), "x.pdf"), p); err == nil {
		t.Error(".pdf accepted")
	}
}
