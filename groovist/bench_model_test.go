package groovist

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// TestRandomCLIPWriter checks the benchmarks' random-weight writer on the
// tiny fixture configuration: the file loads, and it holds the tensors the
// fixture model lists (its position_ids buffer aside).
func TestRandomCLIPWriter(t *testing.T) {
	var cfg encoders.CLIPConfig
	if err := encoders.ReadConfig(e2efixtures.Metric("clip"), &cfg); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeRandomCLIP(t, dir, cfg)
	if _, err := encoders.LoadCLIP(dir); err != nil {
		t.Fatal(err)
	}
	var index struct {
		Tensors map[string]struct {
			Shape []int `json:"shape"`
		} `json:"tensors"`
	}
	data, err := os.ReadFile(filepath.Join(e2efixtures.Metric("clip"), "weights_index.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &index); err != nil {
		t.Fatal(err)
	}
	ours := map[string][]int{}
	for _, s := range clipTensorShapes(cfg) {
		ours[s[0].(string)] = s[1].([]int)
	}
	for name, ti := range index.Tensors {
		if filepath.Ext(name) == ".position_ids" {
			continue
		}
		got, ok := ours[name]
		if !ok || len(got) != len(ti.Shape) {
			t.Errorf("%s: ours %v, fixture %v", name, got, ti.Shape)
			continue
		}
		for i := range got {
			if got[i] != ti.Shape[i] {
				t.Errorf("%s: ours %v, fixture %v", name, got, ti.Shape)
				break
			}
		}
	}
}
