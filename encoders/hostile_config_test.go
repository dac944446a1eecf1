package encoders

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestHostileConfigsFailFastAndSmall loads every fixture model of each
// family with one config.json field replaced by a hostile or mismatched
// value (a trillion layers, a vocabulary the weights do not have, one layer
// more than the checkpoint holds, a negative width…). Each must fail with
// an error naming the field, under a 256 MiB memory limit, having allocated
// less than 64 MiB — before the fix, a trillion layers exhausted memory and
// a million took 2 GB.
func TestHostileConfigsFailFastAndSmall(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
	type hostile struct {
		field string // dotted path in config.json
		value func(old float64) float64
	}
	huge := func(float64) float64 { return 1e12 }
	million := func(float64) float64 { return 1e6 }
	plusOne := func(v float64) float64 { return v + 1 }
	negative := func(float64) float64 { return -1 }
	cases := map[string][]hostile{
		"bert": {{"num_hidden_layers", huge}, {"num_hidden_layers", million}, {"num_hidden_layers", plusOne},
			{"vocab_size", huge}, {"vocab_size", plusOne}, {"hidden_size", negative}, {"intermediate_size", plusOne},
			{"max_position_embeddings", huge}, {"type_vocab_size", plusOne}, {"num_attention_heads", huge}},
		"albert": {{"num_hidden_layers", huge}, {"num_hidden_groups", million}, {"inner_group_num", plusOne},
			{"embedding_size", plusOne}, {"vocab_size", huge}, {"intermediate_size", plusOne}},
		"vit": {{"num_hidden_layers", huge}, {"num_hidden_layers", plusOne}, {"image_size", huge},
			{"patch_size", negative}, {"hidden_size", plusOne}, {"num_channels", million}},
		"clip": {{"text_config.num_hidden_layers", huge}, {"text_config.num_hidden_layers", plusOne},
			{"vision_config.num_hidden_layers", huge}, {"vision_config.hidden_size", million},
			{"text_config.vocab_size", plusOne}, {"projection_dim", huge}, {"vision_config.image_size", plusOne}},
	}
	load := map[string]func(string) error{
		"bert":   func(d string) error { _, err := LoadBERT(d); return err },
		"albert": func(d string) error { _, err := LoadALBERT(d); return err },
		"vit":    func(d string) error { _, err := LoadViT(d); return err },
		"clip":   func(d string) error { _, err := LoadCLIP(d); return err },
	}
	checked := 0
	for family, hs := range cases {
		for name, dir := range fixtureModels(t, family) {
			var cfg map[string]any
			readJSONFile(t, filepath.Join(dir, "config.json"), &cfg)
			for _, h := range hs {
				t.Run(name+"/"+h.field, func(t *testing.T) {
					modified := hostileCopy(t, dir, cfg, h.field, h.value)
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					err := load[family](modified)
					runtime.ReadMemStats(&after)
					if err == nil {
						t.Fatalf("%s with a changed %s loaded", name, h.field)
					}
					field := h.field[strings.LastIndex(h.field, ".")+1:]
					if !strings.Contains(err.Error(), field) {
						t.Errorf("error does not name %s: %v", field, err)
					}
					if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
						t.Errorf("allocated %d MiB before failing", alloc>>20)
					}
				})
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no fixture model to modify")
	}
}

// hostileCopy writes a model directory whose config.json is cfg with field
// (a dotted path) replaced by value(old) and whose other files link to
// dir's.
func hostileCopy(t *testing.T, dir string, cfg map[string]any, field string, value func(float64) float64) string {
	t.Helper()
	out := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "config.json" {
			if err := os.Symlink(filepath.Join(dir, e.Name()), filepath.Join(out, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	data, _ := json.Marshal(cfg) // a deep copy to modify
	var c map[string]any
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	m := c
	parts := strings.Split(field, ".")
	for _, p := range parts[:len(parts)-1] {
		m = m[p].(map[string]any)
	}
	old, _ := m[parts[len(parts)-1]].(float64)
	m[parts[len(parts)-1]] = value(old)
	data, err = json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "config.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}
