package ngram

import (
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// meteorGolden is the part of a *.coco.json golden file METEOR tests read.
type meteorGolden struct {
	Modes map[string]struct {
		Tokenized *struct {
			Cands map[string]string   `json:"cands"`
			Refs  map[string][]string `json:"refs"`
		} `json:"tokenized"`
		Corpus map[string]float64            `json:"corpus"`
		Items  map[string]map[string]float64 `json:"items"`
	} `json:"modes"`
}

type meteorCases struct {
	Cands map[string]string   `json:"cands"`
	Refs  map[string][]string `json:"refs"`
}

func meteorReadJSON(t testing.TB, name string, v any) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := json.NewDecoder(zr).Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func TestMeteorMatchesCocoToolkit(t *testing.T) {
	m, err := NewMeteor(MeteorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"captions_small", "ptb_edge", "synth_300_seed11"} {
		var raw meteorCases
		var gold meteorGolden
		meteorReadJSON(t, name+".json.gz", &raw)
		meteorReadJSON(t, name+".coco.json.gz", &gold)
		for _, mode := range []string{"ptb", "raw"} {
			g := gold.Modes[mode]
			cands, refs := raw.Cands, raw.Refs
			if mode == "ptb" {
				cands, refs = g.Tokenized.Cands, g.Tokenized.Refs
			}
			corpus, items, err := m.Corpus(cands, refs)
			if err != nil {
				t.Fatal(err)
			}
			exact := 0
			for id, want := range g.Items {
				got := items[id]
				if got == want["METEOR"] {
					exact++
				} else if math.Abs(got-want["METEOR"]) > 1e-9 {
					t.Errorf("%s/%s item %s: METEOR %.17g, want %.17g", name, mode, id, got, want["METEOR"])
				}
			}
			if math.Abs(corpus-g.Corpus["METEOR"]) > 1e-9 {
				t.Errorf("%s/%s corpus: METEOR %.17g, want %.17g", name, mode, corpus, g.Corpus["METEOR"])
			}
			t.Logf("%s/%s: %d/%d items bit-identical, corpus %v (want %v)", name, mode, exact, len(g.Items), corpus, g.Corpus["METEOR"])
		}
	}
}

// TestMeteorSynth5000x5 checks the corpus METEOR of the 5,000x5 synthetic
// corpus (raw strings) against the toolkit's value recorded with its timings.
func TestMeteorSynth5000x5(t *testing.T) {
	if testing.Short() {
		t.Skip("25,000 alignments; run without -short")
	}
	var raw meteorCases
	meteorReadJSON(t, synth5000File, &raw)
	var timings struct {
		Runs struct {
			Coco []struct {
				Modes map[string]struct {
					Corpus map[string]float64 `json:"corpus"`
				} `json:"modes"`
			} `json:"coco"`
		} `json:"runs"`
	}
	meteorReadJSON(t, "synth_5000x5.timings.json.gz", &timings)
	if len(timings.Runs.Coco) == 0 {
		t.Fatal("synth_5000x5.timings.json.gz: no coco runs")
	}
	want := timings.Runs.Coco[0].Modes["raw"].Corpus["METEOR"]
	m, err := NewMeteor(MeteorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	corpus, items, err := m.Corpus(raw.Cands, raw.Refs)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 5000 {
		t.Errorf("%d items, want 5000", len(items))
	}
	if corpus != want {
		t.Errorf("corpus METEOR %.17g, want %.17g", corpus, want)
	}
}
