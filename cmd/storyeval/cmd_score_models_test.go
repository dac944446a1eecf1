package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/regions"
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
// metric package run directly on the same models. CLIPScore reads each
// image as its first region crop (by name), the only image files of the
// fixture.
func TestScoreLearnedMetricsMatchPackages(t *testing.T) {
	vg := e2efixtures.Metric("rovist_vg")
	t.Logf("end-to-end fixtures: %s", e2efixtures.Dir())
	src, err := story.LoadJSON(filepath.Join(vg, "test_stories.json"), story.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	regionsCSV, crops := filepath.Join(vg, "vist_entities.csv"), filepath.Join(vg, "vist-entities")
	imageFiles := firstCrops(t, crops, src)
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
		for k := range st.Images {
			st.Images[k].Path = imageFiles[st.Images[k].ID]
		}
		texts["orig"] = append(texts["orig"], st)
		rev := st
		rev.Text = reverse(st.Text)
		texts["rev"] = append(texts["rev"], rev)
	}
	data, err := json.Marshal(map[string]any{"systems": systems, "images": imageFiles, "sequences": seqs})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	suitePath := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(suitePath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	models := fixtureModelsDir(t)
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	args := []string{"score", "-in", suitePath, "-models", models, "-regions", regionsCSV, "-crops", crops, "-metrics", "nr,c,vg,groovist,clipscore,vrank", "-vg-default-idf", "1.5", "-out", out, "-resamples", "50", "-rounds", "50"}
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
	idf, err := rovist.LoadIDF(filepath.Join(models, "rovist", "idf_dict.pkl"), limits.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ents, err := regions.Load(regionsCSV, regions.Options{IDs: regions.IntegerIDs})
	if err != nil {
		t.Fatal(err)
	}
	grounder := &rovist.Grounder{Model: gm, GloVe: glove, IDF: idf, Regions: rovist.CropFolder{Entities: ents, Dir: crops}}
	clip, tok := loadCLIPFolder(t, filepath.Join(models, "clip"))
	gs, err := groovist.NewScorer(clip, tok)
	if err != nil {
		t.Fatal(err)
	}
	if gs.Entities, err = regions.Load(regionsCSV, regions.Options{}); err != nil {
		t.Fatal(err)
	}
	gs.CropsDir = crops
	cs, err := groovist.NewCLIPScorer(clip, tok)
	if err != nil {
		t.Fatal(err)
	}
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
		cl, err := cs.ScoreStories(ctx, stories, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Vrank: both orders of the pair, combined antisymmetrically.
		other := texts[systems[1-map[string]int{"orig": 0, "rev": 1}[sys]]]
		var a, b []string
		for i := range stories {
			a, b = append(a, stories[i].Text), append(b, other[i].Text)
		}
		forward, err := vr.Predict(ctx, a, b)
		if err != nil {
			t.Fatal(err)
		}
		backward, err := vr.Predict(ctx, b, a)
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
			set("CLIPScore", st.ID, sys, cl[i].CLIPScore)
			win := 0.0
			if forward[i]-backward[i] < 0 {
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
	if got := strings.Join(rows[0], ","); got != "id,system,RoViST-NR,RoViST-C,RoViST-VG,GROOViST,CLIPScore,Vrank win rate" {
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
	if checked != src.Len()*2*6 {
		t.Fatalf("checked %d scores, want %d", checked, src.Len()*2*6)
	}
	// The two systems' Vrank wins of a sequence are consistent: one wins,
	// or (a zero combined gap) neither.
	for _, st := range texts[systems[0]] {
		key := func(sys string) [2]string { return [2]string{st.ID, sys} }
		if sum := want["Vrank win rate"][key(systems[0])] + want["Vrank win rate"][key(systems[1])]; sum > 1 {
			t.Errorf("sequence %s: both systems win the Vrank pair", st.ID)
		}
	}
	t.Logf("checked %d learned-metric scores", checked)

	// The image flags reach every metric that decodes images: a pixel
	// limit below any crop's size stops RoViST-VG and CLIPScore with the
	// flag named; GROOViST, as the reference, scores a story without the
	// images whose crops do not load, so every score changes.
	for _, metric := range []string{"vg", "groovist", "clipscore"} {
		stdout.Reset()
		stderr.Reset()
		args := []string{"score", "-in", suitePath, "-models", models, "-regions", regionsCSV, "-crops", crops, "-metrics", metric, "-vg-default-idf", "1.5", "-out", out, "-max-image-pixels", "4", "-image-memory", "1"}
		code := runMain(args, &stdout, &stderr)
		if metric != "groovist" {
			if code != 1 || !strings.Contains(stderr.String(), "-max-image-pixels") {
				t.Errorf("-metrics %s -max-image-pixels 4: exit %d, stderr %q; want exit 1 naming the flag", metric, code, stderr.String())
			}
			continue
		}
		if code != 0 {
			t.Fatalf("-metrics groovist -max-image-pixels 4: exit %d: %s", code, stderr.String())
		}
		// Each skipped image is named, as the groovist command names it.
		if !strings.Contains(stderr.String(), "storyeval score: warning: image ") || !strings.Contains(stderr.String(), "(raise the limit with -max-image-pixels)") {
			t.Errorf("-metrics groovist -max-image-pixels 4: no skipped-image warning naming the flag in stderr:\n%s", stderr.String())
		}
		changed := 0
		for _, row := range readScoresCSV(t, filepath.Join(out, "scores.csv"))[1:] {
			w := want["GROOViST"][[2]string{row[0], row[1]}]
			if math.IsNaN(w) {
				continue // undefined (no noun phrases) either way
			}
			if got := parseCSVFloat(t, row[2]); sameFloat(got, w) {
				t.Errorf("GROOViST of %s/%s with no crop loadable: %v, as with every crop", row[0], row[1], got)
			}
			changed++
		}
		if changed == 0 {
			t.Error("-metrics groovist -max-image-pixels 4: no defined score to compare")
		}
	}
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

// firstCrops maps each image of the stories to its first region crop in
// dir (by file name).
func firstCrops(t *testing.T, dir string, set *story.Set) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, st := range set.All() {
		for _, im := range st.Images {
			for _, e := range entries { // sorted by name
				if strings.HasPrefix(e.Name(), im.ID+"_") {
					out[im.ID] = filepath.Join(dir, e.Name())
					break
				}
			}
			if out[im.ID] == "" {
				t.Fatalf("%s: no crop of image %s", dir, im.ID)
			}
		}
	}
	return out
}

// clipScoreSuite writes a story set over the CLIPScore fixture's images:
// sequences of three images, a system whose stories have one sentence per
// image ("sent") and one whose stories do not ("whole"), references that
// that split into three sentences or not (every sequence has some: score
// asks for references in every sequence, as the n-gram metrics do).
func clipScoreSuite(t *testing.T, withRefs bool) (path string, systems []string, stories map[string][]story.Story, refs [][]string) {
	t.Helper()
	ids, paths, err := groovist.ImageFiles(filepath.Join(e2efixtures.Metric("clipscore"), "images"))
	if err != nil {
		t.Fatal(err)
	}
	const perSeq = 3
	n := len(ids) / perSeq
	if n < 3 {
		t.Fatalf("%d fixture images: want at least %d", len(ids), 3*perSeq)
	}
	images := map[string]string{}
	for i, id := range ids {
		images[id] = paths[i]
	}
	systems = []string{"sent", "whole"}
	stories = map[string][]story.Story{}
	refLists := [][]string{
		{"a dog on the grass. two people by a river. a wedding.", "one sentence only."},
		{"only one sentence here."},
		{"a dog. a river. a bride.", "the end. of the day. we went home."},
	}
	seqs := map[string]any{}
	for k := range n {
		id := fmt.Sprintf("seq%d", k)
		var imgs []story.Image
		for _, im := range ids[k*perSeq : (k+1)*perSeq] {
			imgs = append(imgs, story.Image{ID: im, Path: images[im]})
		}
		text := map[string]string{
			"sent":  fmt.Sprintf("In story %d a dog runs on the grass. Two people ride near the river. The bride smiles at last.", k),
			"whole": fmt.Sprintf("A long day out, story %d. Everyone had fun.", k),
		}
		var r []string
		if withRefs {
			r = refLists[min(k, len(refLists)-1)]
		}
		refs = append(refs, r)
		seqs[id] = map[string]any{"images": ids[k*perSeq : (k+1)*perSeq], "stories": text, "references": r}
		for _, sys := range systems {
			stories[sys] = append(stories[sys], story.Story{ID: id, Text: text[sys], Images: imgs})
		}
	}
	data, err := json.Marshal(map[string]any{"systems": systems, "images": images, "sequences": seqs})
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "suite.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, systems, stories, refs
}

// TestScoreCLIPScoreMatchesPackage checks every CLIPScore and RefCLIPScore
// of scores.csv against groovist's ScoreStories on the same stories, with
// both alignments, with references usable and unusable, and without
// references.
func TestScoreCLIPScoreMatchesPackage(t *testing.T) {
	t.Logf("end-to-end fixtures: %s", e2efixtures.Dir())
	models := fixtureModelsDir(t)
	for _, withRefs := range []bool{true, false} {
		suitePath, systems, stories, refs := clipScoreSuite(t, withRefs)
		out := filepath.Join(t.TempDir(), "out")
		var stdout, stderr bytes.Buffer
		if code := runMain([]string{"score", "-in", suitePath, "-models", models, "-metrics", "nr,clipscore", "-out", out, "-resamples", "50", "-rounds", "50"}, &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		clip, tok := loadCLIPFolder(t, filepath.Join(models, "clip"))
		cs, err := groovist.NewCLIPScorer(clip, tok)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]map[[2]string]float64{"CLIPScore": {}, "RefCLIPScore": {}}
		aligned := map[groovist.StoryAlignment]bool{}
		refKinds := map[string]bool{}
		var notes []string
		for _, sys := range systems {
			var r [][]string
			if withRefs {
				r = refs
			}
			res, err := cs.ScoreStories(context.Background(), stories[sys], r)
			if err != nil {
				t.Fatal(err)
			}
			for _, sc := range res {
				want["CLIPScore"][[2]string{sc.ID, sys}] = sc.CLIPScore
				want["RefCLIPScore"][[2]string{sc.ID, sys}] = sc.RefCLIPScore
				aligned[sc.Alignment] = true
				switch {
				case !withRefs:
				case sc.HasRefs:
					refKinds["used"] = true
				default:
					refKinds["unusable"] = true
				}
				// The note's opening, the same for both alignments.
				w := sc.LeastGrounded()
				notes = append(notes, fmt.Sprintf("least grounded: image %d (%s)", w.Index+1, w.Image))
			}
		}
		if !aligned[groovist.AlignSentences] || !aligned[groovist.AlignWholeStory] {
			t.Errorf("alignments covered: %v, want both", aligned)
		}
		if withRefs && len(refKinds) != 2 {
			t.Errorf("reference cases covered: %v, want used and unusable", refKinds)
		}
		rows := readScoresCSV(t, filepath.Join(out, "scores.csv"))
		header := "id,system,RoViST-NR,CLIPScore"
		if withRefs {
			header += ",RefCLIPScore"
		} else if w := "RefCLIPScore skipped: needs human references in the story set"; !strings.Contains(stderr.String(), w) {
			t.Errorf("stderr %q lacks %q", stderr.String(), w)
		}
		if got := strings.Join(rows[0], ","); got != header {
			t.Fatalf("header %q, want %q", got, header)
		}
		checked := 0
		for _, row := range rows[1:] {
			for c := 3; c < len(row); c++ {
				got := parseCSVFloat(t, row[c])
				w, ok := want[rows[0][c]][[2]string{row[0], row[1]}]
				if !ok || !sameFloat(got, w) {
					t.Errorf("%s of %s/%s: scores.csv %v, groovist %v", rows[0][c], row[0], row[1], got, w)
				}
				checked++
			}
		}
		cols := 1
		if withRefs {
			cols = 2
		}
		if n := len(stories["sent"]) * len(systems) * cols; checked != n || len(rows)-1 != len(stories["sent"])*len(systems) {
			t.Fatalf("checked %d CLIPScore values in %d rows, want %d", checked, len(rows)-1, n)
		}
		t.Logf("references %v: checked %d CLIPScore/RefCLIPScore values", withRefs, checked)
		// The report lists the worst stories with their notes.
		report, err := os.ReadFile(filepath.Join(out, "report.html"))
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, n := range notes {
			if strings.Contains(string(report), template.HTMLEscapeString(n)) {
				found++
			}
		}
		if found == 0 {
			t.Errorf("report.html holds none of the CLIPScore notes %q", notes)
		}
	}
}

// CLIPScore is unavailable, with a line naming what is missing, without
// the CLIP weights or without the story set's image files; the other
// metrics still run.
func TestScoreCLIPScoreUnavailable(t *testing.T) {
	suiteWithPaths, _, _, _ := clipScoreSuite(t, true)
	noPaths := filepath.Join(t.TempDir(), "suite.json")
	if err := os.WriteFile(noPaths, []byte(`{"sequences": {"x": {"images": ["i1"], "references": ["a dog ."], "stories": {"s": "a dog ran . the dog sat ."}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	noImages := filepath.Join(t.TempDir(), "suite.json")
	if err := os.WriteFile(noImages, []byte(`{"sequences": {"y": {"stories": {"s": "a dog ran ."}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	noWeights := fixtureModelsDir(t)
	if err := os.Remove(filepath.Join(noWeights, "clip", "model.safetensors")); err != nil {
		t.Fatal(err)
	}
	models := fixtureModelsDir(t)
	for _, c := range []struct {
		name, suite, models string
		want                []string
	}{
		{"no weights", suiteWithPaths, noWeights, []string{"CLIPScore skipped: needs the file " + filepath.Join(noWeights, "clip", "model.safetensors"), "RefCLIPScore skipped: needs the file"}},
		{"no image paths", noPaths, models, []string{`CLIPScore skipped: needs the image files of the story set (its "images" map of image id to file; sequence "x": image "i1" has no path)`, "RefCLIPScore skipped: needs the image files"}},
		{"no images", noImages, models, []string{`CLIPScore skipped: needs the image files of every sequence in the story set (sequence "y" lists no images)`, "RefCLIPScore skipped: needs human references"}},
		{"no models folder", noPaths, "", []string{"CLIPScore skipped: needs -models DIR"}},
	} {
		out := filepath.Join(t.TempDir(), "out")
		args := []string{"score", "-in", c.suite, "-metrics", "nr,clipscore", "-out", out}
		if c.models != "" {
			args = append(args, "-models", c.models)
		}
		var stdout, stderr bytes.Buffer
		if code := runMain(args, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, stderr.String())
		}
		for _, w := range c.want {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%s: stderr %q lacks %q", c.name, stderr.String(), w)
			}
		}
		rows := readScoresCSV(t, filepath.Join(out, "scores.csv"))
		if got := strings.Join(rows[0], ","); got != "id,system,RoViST-NR" {
			t.Errorf("%s: header %q", c.name, got)
		}
		var sum struct {
			Unavailable []compare.Unavailable `json:"unavailable"`
		}
		data, err := os.ReadFile(filepath.Join(out, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &sum); err != nil {
			t.Fatal(err)
		}
		if len(sum.Unavailable) == 0 || sum.Unavailable[0].Metric != "CLIPScore" || !strings.HasPrefix("CLIPScore skipped: needs "+sum.Unavailable[0].Needs, c.want[0]) {
			t.Errorf("%s: summary.json unavailable %+v", c.name, sum.Unavailable)
		}
	}
}

// readScoresCSV reads scores.csv.
func readScoresCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(f)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// loadCLIPFolder loads the CLIP model and tokenizer of a models folder's
// clip/ directory, as score does.
func loadCLIPFolder(t *testing.T, dir string) (*encoders.CLIP, *tokenize.CLIP) {
	t.Helper()
	clip, err := encoders.LoadCLIP(dir)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokenize.LoadCLIP(dir, tokenize.CLIPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return clip, tok
}
