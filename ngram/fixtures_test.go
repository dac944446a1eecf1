package ngram

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// synth5000File is the 5000×5 benchmark corpus, relative to testdata/: it
// lives in the repository-root testdata module (left out of the module zip
// for its size).
const synth5000File = "../../testdata/ngram/synth_5000x5_seed1.json.gz"

// readGzipJSON decodes testdata/<name> (gzipped JSON) into v.
func readGzipJSON(t testing.TB, name string, v any) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := json.NewDecoder(gz).Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// caseFile is the peers' input format.
type caseFile struct {
	Cands map[string]string   `json:"cands"`
	Refs  map[string][]string `json:"refs"`
}

// cocoGolden is a *.coco.json file: the COCO caption toolkit's output.
type cocoGolden struct {
	Modes map[string]struct {
		Tokenized *caseFile                     `json:"tokenized"`
		Corpus    map[string]float64            `json:"corpus"`
		Items     map[string]map[string]float64 `json:"items"`
	} `json:"modes"`
}

// sacreGolden is a *.sacrebleu.json file.
type sacreGolden struct {
	Modes map[string]struct {
		Corpus map[string]float64            `json:"corpus"`
		Items  map[string]map[string]float64 `json:"items"`
	} `json:"modes"`
}

// goldenCases are the case files that have COCO and SacreBLEU goldens.
var goldenCases = []string{"captions_small", "ptb_edge", "synth_300_seed11"}
