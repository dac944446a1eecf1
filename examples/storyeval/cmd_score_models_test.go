package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
	"github.com/storyeval/storyeval/vrank"
)

// fixtureModelsDir lays the tiny models of the end-to-end fixtures out as a
// models folder (symbolic links), as a user's folder of released files.
func fixtureModelsDir(t *testing.T) string {
	t.Helper()
	e2e, err := filepath.Abs(e2efixtures.Dir())
	if err != nil {
		t.Fatal(err)
	}
	tok, err := filepath.Abs(filepath.Join("..", "..", "testdata", "encoders", "fixtures", "tokenizers", "clip_full"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for link, target := range map[string]string{
		"rovist/sop_model_epoch4.pth.tar":   filepath.Join(e2e, "rovist_c", "sop_model_epoch4.pth.tar"),
		"rovist/albert-large-v1":            filepath.Join(e2e, "rovist_c", "albert-large-v1"),
		"rovist/r2p_model_epoch2.pth.tar":   filepath.Join(e2e, "rovist_vg", "r2p_model_epoch2.pth.tar"),
		"rovist/vit-base-patch16-224-in21k": filepath.Join(e2e, "rovist_vg", "vit-base-patch16-224-in21k"),
		"rovist/glove.6B.300d.txt":          filepath.Join(e2e, "rovist_vg", "glove.6B.300d.txt"),
		"rovist/idf_dict.pkl":               filepath.Join(e2e, "rovist_vg", "idf_dict.pkl"),
		"clip/config.json":                  filepath.Join(e2e, "clip", "config.json"),
		"clip/model.safetensors":            filepath.Join(e2e, "clip", "model.safetensors"),
		"clip/vocab.json.gz":                filepath.Join(tok, "vocab.json.gz"),
		"clip/merges.txt.gz":                filepath.Join(tok, "merges.txt.gz"),
		"vrank":                             filepath.Join(e2e, "vrank", "model"),
	} {
		p := filepath.Join(dir, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestScoreLearnedMetricsMatchPackages runs score with every learned metric
// on the RoViST-VG fixture's stories (as written, and with their sentences
// in reverse order as a second system) and checks each score against the
// metric package run directly on the same models.
func TestScoreLearnedMetricsMatchPackages(t *testing.T) {
	vg := e2efixtures.Metric("rovist_vg")
	t.Logf("end-to-end fixtures: %s", e2efixtures.Dir())
	src, err := story.ReadJSON(filepath.Join(vg, "test_stories.json"), story.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	reverse := func(text string) string {
		parts := strings.Split(strings.TrimSpace(text), " . ")
		for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
			parts[i], parts[j] = parts[j], parts[i]
		}
		return strings.TrimSuffix(strings.Join(parts, " . "), " .") + " ."
	}
	type seqJSON struct {
		Images  []string          `json:"images"`
		Stories map[string]string `json:"stories"`
	}
	seqs := map[string]seqJSON{}
	systems := []string{"orig", "rev"}
	texts := map[string][]story.Story{}
	for _, st := range src.All() {
		seqs[st.ID] = seqJSON{Images: st.ImageIDs(), Stories: map[string]string{"orig": st.Text, "rev": reverse(st.Text)}}
		texts["orig"] = append(texts["orig"], st)
		rev := st
		rev.Text = reverse(st.Text)
		texts["rev"] = append(texts["rev"], rev)
	}
	data, err := json.Marshal(map[string]any{"systems": systems, "sequences": seqs})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	suitePath := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(suitePath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	models := fixtureModelsDir(t)
	regions, crops := filepath.Join(vg, "vist_entities.csv"), filepath.Join(vg, "vist-entities")
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	args := []string{"score", "-in", suitePath, "-models", models, "-regions", regions, "-crops", crops, "-metrics", "nr,c,vg,groovist,vrank", "-vg-default-idf", "1.5", "-out", out, "-resamples", "50", "-rounds", "50"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}

	// The packages on the same files.
	ctx := context.Background()
	want := map[string]map[[2]string]float64{}
	set := func(metric, id, sys string, v float64) {
		if want[metric] == nil {
			want[metric] = map[[2]string]float64{}
		}
		want[metric][[2]string{id, sys}] = v
	}
	coh, err := rovist.LoadCoherenceModel(filepath.Join(models, "rovist", "sop_model_epoch4.pth.tar"), filepath.Join(models, "rovist", "albert-large-v1"))
	if err != nil {
		t.Fatal(err)
	}
	gm, err := rovist.LoadGroundingModel(filepath.Join(models, "rovist", "r2p_model_epoch2.pth.tar"), filepath.Join(models, "rovist", "vit-base-patch16-224-in21k"))
	if err != nil {
		t.Fatal(err)
	}
	glove, err := rovist.LoadGloVe(filepath.Join(models, "rovist", "glove.6B.300d.txt"), nil, rovist.GloVeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	idf, err := rovist.ReadIDF(filepath.Join(models, "rovist", "idf_dict.pkl"))
	if err != nil {
		t.Fatal(err)
	}
	ents, err := rovist.ReadEntitiesCSV(regions)
	if err != nil {
		t.Fatal(err)
	}
	grounder := &rovist.Grounder{Model: gm, GloVe: glove, IDF: idf, Regions: rovist.CropFolder{Entities: ents, Dir: crops}}
	clip, err := encoders.LoadCLIP(filepath.Join(models, "clip"))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokenize.LoadCLIP(filepath.Join(models, "clip"), tokenize.CLIPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gs, err := groovist.NewScorer(clip, tok)
	if err != nil {
		t.Fatal(err)
	}
	if gs.Entities, err = groovist.LoadEntities(regions); err != nil {
		t.Fatal(err)
	}
	gs.CropsDir = crops
	vr, err := vrank.Load(filepath.Join(models, "vrank"))
	if err != nil {
		t.Fatal(err)
	}
	for _, sys := range systems {
		stories := texts[sys]
		c, err := coh.Score(ctx, stories, rovist.CoherenceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		g, err := grounder.Score(ctx, stories, rovist.VGOptions{UseDefaultIDF: true, DefaultIDF: 1.5})
		if err != nil {
			t.Fatal(err)
		}
		in := make([]groovist.Input, len(stories))
		for i, st := range stories {
			in[i] = groovist.Input{Story: st}
		}
		gr, err := gs.Score(ctx, in, groovist.Options{})
		if err != nil {
			t.Fatal(err)
		}
		other := texts[systems[1-map[string]int{"orig": 0, "rev": 1}[sys]]]
		var a, b []string
		for i := range stories {
			a, b = append(a, stories[i].Text), append(b, other[i].Text)
		}
		gaps, err := vr.Predict(ctx, a, b)
		if err != nil {
			t.Fatal(err)
		}
		for i, st := range stories {
			nr, err := rovist.NonRedundancy(st.Text, rovist.NROptions{})
			if err != nil {
				t.Fatal(err)
			}
			set("RoViST-NR", st.ID, sys, nr.Score)
			set("RoViST-C", st.ID, sys, c[i].Score)
			set("RoViST-VG", st.ID, sys, g[i].Score)
			set("GROOViST", st.ID, sys, gr[i].Score)
			win := 0.0
			if gaps[i] < 0 {
				win = 1
			}
			set("Vrank win rate", st.ID, sys, win)
		}
	}
	f, err := os.ReadFile(filepath.Join(out, "scores.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(f)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0], ","); got != "id,system,RoViST-NR,RoViST-C,RoViST-VG,GROOViST,Vrank win rate" {
		t.Fatalf("header %q", got)
	}
	checked := 0
	for _, row := range rows[1:] {
		for c := 2; c < len(row); c++ {
			got := parseCSVFloat(t, row[c])
			w, ok := want[rows[0][c]][[2]string{row[0], row[1]}]
			if !ok || !sameFloat(got, w) {
				t.Errorf("%s of %s/%s: scores.csv %v, package %v", rows[0][c], row[0], row[1], got, w)
			}
			checked++
		}
	}
	if checked != src.Len()*2*5 {
		t.Fatalf("checked %d scores, want %d", checked, src.Len()*2*5)
	}
	t.Logf("checked %d learned-metric scores", checked)
}

// A models folder without the RoViST-VG files disables that metric with a
// line naming the missing file; the other metrics still run.
func TestScoreMissingModelFileDisablesItsMetric(t *testing.T) {
	models := fixtureModelsDir(t)
	if err := os.Remove(filepath.Join(models, "rovist", "idf_dict.pkl")); err != nil {
		t.Fatal(err)
	}
	suite := filepath.Join(t.TempDir(), "suite.json")
	if err := os.WriteFile(suite, []byte(`{"sequences": {"x": {"stories": {"s": "a dog ran . the dog sat ."}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"score", "-in", suite, "-models", models, "-regions", "r.csv", "-crops", "c", "-metrics", "nr,c,vg", "-out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if want := "RoViST-VG skipped: needs the file " + filepath.Join(models, "rovist", "idf_dict.pkl"); !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q lacks %q", stderr.String(), want)
	}
	data, err := os.ReadFile(filepath.Join(out, "scores.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "id,system,RoViST-NR,RoViST-C\n") {
		t.Errorf("scores.csv %q", data)
	}
}
