package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/compare"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

func TestModelsCommand(t *testing.T) {
	dir := t.TempDir()
	link := func(rel, target string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		abs, err := filepath.Abs(target)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, p); err != nil {
			t.Fatal(err)
		}
	}
	// A complete RoViST-C, CLIP with the weights under their .bin name and
	// the gzipped vocabulary, a GloVe file under its .gz name, and nothing
	// else: every file is a real one of the fixtures, since each is checked.
	rc, vg := e2efixtures.Metric("rovist_c"), e2efixtures.Metric("rovist_vg")
	for rel, target := range map[string]string{
		"rovist/sop_model_epoch4.pth.tar":     filepath.Join(rc, "sop_model_epoch4.pth.tar"),
		"rovist/albert-large-v1/config.json":  filepath.Join(rc, "albert-large-v1", "config.json"),
		"rovist/albert-large-v1/spiece.model": filepath.Join(rc, "albert-large-v1", "spiece.model"),
		"clip/config.json":                    filepath.Join(e2efixtures.Metric("clip"), "config.json"),
		"clip/pytorch_model.bin":              filepath.Join(e2efixtures.Metric("clip"), "model.safetensors"),
		"clip/vocab.json.gz":                  filepath.Join(clipTokenizerDir, "vocab.json.gz"),
		"clip/merges.txt.gz":                  filepath.Join(clipTokenizerDir, "merges.txt.gz"),
		"rovist/glove.6B.300d.txt.gz":         filepath.Join(vg, "glove.6B.300d.txt"),
	} {
		link(rel, target)
	}
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"models", "-dir", dir, "-format", "json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got []compare.ModelStatus
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
	set, err := story.LoadJSON(filepath.Join(dir, "stories.json"), story.ReadOptions{})
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

// TestModelsDirValidatesFiles: issue 24's folder, whose CLIP config is {}
// and whose weights are a zip bomb, no longer enables GROOViST and
// CLIPScore: each bad file is listed with what is wrong, and the bomb is
// refused without inflating it.
func TestModelsDirValidatesFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var bomb bytes.Buffer
	zw := zip.NewWriter(&bomb)
	w, _ := zw.Create("archive/data.pkl")
	zeros := make([]byte, 1<<20)
	for range 64 { // 64 MiB of zeros in about 64 KB
		w.Write(zeros)
	}
	zw.Close()
	write("clip/config.json", []byte("{}"))
	write("clip/model.safetensors", bomb.Bytes())
	write("clip/vocab.json", []byte("x"))
	write("clip/merges.txt", []byte("x"))
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"models", "-dir", dir, "-format", "json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got []compare.ModelStatus
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, s := range got {
		if s.Metric != "GROOViST" && s.Metric != "CLIPScore" {
			continue
		}
		if s.Enabled || len(s.Missing) != 0 {
			t.Errorf("%s: enabled %v, missing %v; want disabled by invalid files only", s.Metric, s.Enabled, s.Missing)
		}
		problems := map[string]string{}
		for _, p := range s.Invalid {
			problems[p.Path] = p.Error
		}
		for path, want := range map[string]string{
			"clip/config.json":       "projection_dim is 0 or missing",
			"clip/model.safetensors": "clip/model.safetensors",
			"clip/vocab.json":        "vocab.json",
		} {
			if !strings.Contains(problems[path], want) {
				t.Errorf("%s: %s: problem %q, want one saying %q", s.Metric, path, problems[path], want)
			}
		}
		t.Logf("%s: %v", s.Metric, problems)
	}
	stdout.Reset()
	if code := runMain([]string{"models", "-dir", dir}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "invalid "+filepath.Join(dir, "clip", "config.json")) {
		t.Errorf("table (exit %d) does not list the invalid config:\n%s", code, stdout.String())
	}
}
