package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
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

// models convert rewrites the released RoViST-C checkpoint as safetensors
// (the torch.save dict's "model." prefix dropped), and the converted file
// gives the same coherence probabilities as the original.
func TestModelsConvertKeepsScores(t *testing.T) {
	dir := e2efixtures.Metric("rovist_c")
	t.Logf("end-to-end fixtures: %s", e2efixtures.Dir())
	out := filepath.Join(t.TempDir(), "sop_model_epoch4.safetensors")
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"models", "convert", "-in", filepath.Join(dir, "sop_model_epoch4.pth.tar"), "-out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	st, err := checkpoint.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	hasHead := st.Has("linear.weight")
	st.Close()
	if !hasHead {
		t.Fatal("converted file has no linear.weight: the model. prefix was not dropped")
	}
	albert := filepath.Join(dir, "albert-large-v1")
	orig, err := rovist.LoadCoherenceModel(filepath.Join(dir, "sop_model_epoch4.pth.tar"), albert)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := rovist.LoadCoherenceModel(out, albert)
	if err != nil {
		t.Fatal(err)
	}
	set, err := story.ReadJSON(filepath.Join(dir, "stories.json"), story.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := orig.ScoreSet(t.Context(), set, rovist.CoherenceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := conv.ScoreSet(t.Context(), set, rovist.CoherenceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pairs := 0
	for i := range a {
		if len(a[i].Pairs) != len(b[i].Pairs) {
			t.Fatalf("story %d: %d vs %d pairs", i, len(a[i].Pairs), len(b[i].Pairs))
		}
		for k := range a[i].Pairs {
			if a[i].Pairs[k].Logits != b[i].Pairs[k].Logits {
				t.Errorf("story %d pair %d: logits %v vs %v", i, k, a[i].Pairs[k].Logits, b[i].Pairs[k].Logits)
			}
			pairs++
		}
	}
	if pairs == 0 {
		t.Fatal("no pair compared")
	}
	if code := runMain([]string{"models", "convert", "-in", filepath.Join(dir, "stories.json"), "-out", out}, &stdout, &stderr); code == 0 {
		t.Error("a JSON file converted as a checkpoint")
	}
}
