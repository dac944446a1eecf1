package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestModelsCommand(t *testing.T) {
	dir := t.TempDir()
	touch := func(rel string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A complete RoViST-C (checkpoint under its converted name), CLIP with
	// the .bin weights, and nothing else.
	for _, f := range []string{"rovist/sop_model_epoch4.safetensors", "rovist/albert-large-v1/config.json", "rovist/albert-large-v1/spiece.model",
		"clip/config.json", "clip/pytorch_model.bin", "clip/vocab.json", "clip/merges.txt", "rovist/glove.6B.300d.txt.gz"} {
		touch(f)
	}
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"models", "-dir", dir, "-format", "json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got []modelsStatus
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	enabled := map[string]bool{}
	missing := map[string][]string{}
	for _, s := range got {
		enabled[s.Metric] = s.Enabled
		for _, m := range s.Missing {
			missing[s.Metric] = append(missing[s.Metric], m.Path)
		}
	}
	want := map[string]bool{"RoViST-C": true, "RoViST-VG": false, "GROOViST": true, "CLIPScore": true, "Vrank": false}
	for m, e := range want {
		if enabled[m] != e {
			t.Errorf("%s enabled = %v, want %v", m, enabled[m], e)
		}
	}
	if strings.Join(missing["RoViST-VG"], ",") != "rovist/r2p_model_epoch2.pth.tar,rovist/vit-base-patch16-224-in21k/config.json,rovist/vit-base-patch16-224-in21k/preprocessor_config.json,rovist/idf_dict.pkl" {
		t.Errorf("RoViST-VG missing %q (the .gz GloVe counts as found)", missing["RoViST-VG"])
	}
	stdout.Reset()
	if code := runMain([]string{"models", "-dir", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("table: exit %d", code)
	}
	if !strings.Contains(stdout.String(), "usydnlp/rovist release") || !strings.Contains(stdout.String(), "RoViST-C") {
		t.Errorf("table does not say where to get the missing files:\n%s", stdout.String())
	}
	if code := runMain([]string{"models", "-dir", filepath.Join(dir, "nope")}, &stdout, &stderr); code == 0 {
		t.Error("missing folder accepted")
	}
}
