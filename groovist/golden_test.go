package groovist

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/internal/npy"
	"github.com/storyeval/storyeval/internal/wnlemma"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/story"
)

type goldenScores struct {
	Groovist *float64            `json:"groovist"`
	NPScores map[string]*float64 `json:"NP_scores"`
}

type goldenStory struct {
	NPsInput      []string      `json:"NPs_input"`
	NPsKept       []string      `json:"NPs_kept"`
	CrWeights     []float64     `json:"cr_weights"`
	CrDetail      []goldenNP    `json:"cr_detail"`
	ClipInputIDs  [][]int       `json:"clip_input_ids"`
	ImageIDs      []string      `json:"image_ids"`
	Images        []goldenImage `json:"images"`
	AlignmentRows [][]float64   `json:"alignment_rows"`
	MaxAlignment  []float64     `json:"max_alignment"`
	Scaled        []float64     `json:"scaled_x2_5"`
	ThetaPreset   goldenScores  `json:"theta_preset"`
	ThetaEst      goldenScores  `json:"theta_est"`
}

type goldenNP struct {
	NP    string `json:"np"`
	Words []struct {
		Word   string   `json:"word"`
		Path   string   `json:"path"`
		Lemma  string   `json:"lemma"`
		Rating *float64 `json:"rating"`
	} `json:"words"`
}

type goldenImage struct {
	ImageID string `json:"image_id"`
	OK      bool   `json:"ok"`
	Error   string `json:"error"`
	NRows   int    `json:"n_rows"`
	NUsed   int    `json:"n_used"`
}

// groovistFixture is the e2e groovist folder, read.
type groovistFixture struct {
	dir        string
	raw        map[string]json.RawMessage
	stories    map[string]goldenStory
	storyRaw   map[string]map[string]json.RawMessage
	order      []string
	nps        map[string][]string
	thetaPre   float64
	thetaEst   float64
	imagesPerS int
}

func readGroovistFixture(t *testing.T) *groovistFixture {
	t.Helper()
	f := &groovistFixture{dir: e2efixtures.Metric("groovist")}
	t.Logf("fixtures: %s", f.dir)
	readPythonJSON(t, filepath.Join(f.dir, "expected.json"), &f.raw)
	var per map[string]json.RawMessage
	if err := json.Unmarshal(f.raw["per_story"], &per); err != nil {
		t.Fatal(err)
	}
	f.stories = map[string]goldenStory{}
	f.storyRaw = map[string]map[string]json.RawMessage{}
	for id, raw := range per {
		var g goldenStory
		if err := json.Unmarshal(raw, &g); err != nil {
			t.Fatalf("per_story %s: %v", id, err)
		}
		f.stories[id] = g
		var m map[string]json.RawMessage
		_ = json.Unmarshal(raw, &m)
		f.storyRaw[id] = m
	}
	data, err := os.ReadFile(filepath.Join(f.dir, "nphrases.json"))
	if err != nil {
		t.Fatal(err)
	}
	f.order = orderedKeys(t, data)
	if err := json.Unmarshal(data, &f.nps); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(f.raw["theta_preset"], &f.thetaPre); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(f.raw["theta_est"], &f.thetaEst); err != nil {
		t.Fatal(err)
	}
	return f
}

// iniTheta reads theta of a section of a config.ini.
func iniTheta(t *testing.T, path, section string) float64 {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	cur := ""
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			cur = strings.Trim(line, "[]")
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok && cur == section && strings.TrimSpace(k) == "theta" {
			x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				t.Fatal(err)
			}
			return x
		}
	}
	t.Fatalf("%s: no theta in [%s]", path, section)
	return 0
}

// fixtureInputs are the fixture's stories as the reference ran them
// (--dataset AESOP: image ids sid_0 … sid_2, NP lists given).
func (f *groovistFixture) inputs() []Input {
	in := make([]Input, len(f.order))
	for i, id := range f.order {
		var imgs []story.Image
		for _, iid := range AESOPImageIDs(id) {
			imgs = append(imgs, story.Image{ID: iid})
		}
		in[i] = Input{Story: story.Story{ID: id, Images: imgs}, NPs: f.nps[id]}
	}
	return in
}

func TestGoldenGROOViST(t *testing.T) {
	f := readGroovistFixture(t)
	m, tok := loadFixtureCLIP(t)
	s, err := NewScorer(m, tok)
	if err != nil {
		t.Fatal(err)
	}
	ratings, err := LoadRatings(filepath.Join(f.dir, "concreteness_ratings.csv"))
	if err != nil {
		t.Fatal(err)
	}
	pronouns, err := LoadPronouns(filepath.Join(f.dir, "all_pronouns.txt"))
	if err != nil {
		t.Fatal(err)
	}
	s.Ratings, s.Pronouns = ratings, pronouns
	s.Entities, err = regions.Load(filepath.Join(f.dir, "aesop_entities.csv"), regions.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.CropsDir = filepath.Join(f.dir, "aesop-entities")
	c := newCounter(t)
	defer c.report()

	// θ: the config files the runs used, and the expected values.
	pre := iniTheta(t, filepath.Join(f.dir, "config_theta_preset.ini"), "AESOP")
	c.ok("expected.json", pre == f.thetaPre, "theta_preset %v, config says %v", f.thetaPre, pre)
	c.ok("config_theta_preset.ini", pre == ThetaAESOP, "AESOP preset %v, want the published %v", pre, ThetaAESOP)
	est := iniTheta(t, filepath.Join(f.dir, "config_theta_est.ini"), "AESOP")
	c.ok("config_theta_est.ini", est == f.thetaEst, "theta_est %v in config, %v in expected.json", est, f.thetaEst)

	ctx := context.Background()
	res, err := s.Score(ctx, f.inputs(), Options{Theta: ThetaOf(f.thetaPre)})
	if err != nil {
		t.Fatal(err)
	}
	gotEst := EstimateTheta(res)
	c.ok("expected.json", close32(gotEst, &f.thetaEst), "EstimateTheta = %v, want %v", gotEst, f.thetaEst)
	resEst := Rescore(res, Options{Theta: ThetaOf(f.thetaEst)})

	if len(f.stories) != len(f.order) {
		t.Errorf("expected.json has %d stories, nphrases.json %d", len(f.stories), len(f.order))
	}
	text := s.Text.(*CLIPText)
	for i, id := range f.order {
		g, ok := f.stories[id]
		if !ok {
			t.Errorf("story %s: not in expected.json", id)
			continue
		}
		for key := range f.storyRaw[id] {
			if !knownStoryKeys[key] {
				t.Errorf("story %s: expected.json key %q is not checked", id, key)
			}
		}
		r := res[i]
		c.ok("expected.json", reflect.DeepEqual(r.Input, g.NPsInput), "%s NPs_input %q, want %q", id, r.Input, g.NPsInput)
		kept := make([]string, len(r.NPs))
		for k, np := range r.NPs {
			kept[k] = np.NP
		}
		c.ok("expected.json", reflect.DeepEqual(kept, g.NPsKept) || len(kept) == 0 && len(g.NPsKept) == 0, "%s NPs_kept %q, want %q", id, kept, g.NPsKept)
		checkWeights(c, id, r, g)
		ids, err := text.Tokens(kept)
		if len(kept) > 0 && err != nil {
			t.Fatal(err)
		}
		c.ok("expected.json", len(ids) == len(g.ClipInputIDs), "%s: %d clip_input_ids rows, want %d", id, len(ids), len(g.ClipInputIDs))
		for k := range g.ClipInputIDs {
			c.ok("expected.json", k < len(ids) && reflect.DeepEqual(ids[k], g.ClipInputIDs[k]), "%s clip_input_ids[%d] differ", id, k)
		}
		checkImages(c, id, r, g)
		for k, row := range g.AlignmentRows {
			for n, want := range row {
				got := math.NaN()
				if n < len(r.NPs) && k < len(r.NPs[n].Alignment) {
					got = float64(r.NPs[n].Alignment[k])
				}
				c.ok("expected.json", close32(got, &want), "%s alignment_rows[%d][%d] = %v, want %v", id, k, n, got, want)
			}
		}
		for n := range g.MaxAlignment {
			got, gotS := math.NaN(), math.NaN()
			if n < len(r.NPs) {
				got, gotS = float64(r.NPs[n].MaxCosine), float64(r.NPs[n].Scaled)
			}
			c.ok("expected.json", close32(got, &g.MaxAlignment[n]), "%s max_alignment[%d] = %v, want %v", id, n, got, g.MaxAlignment[n])
			c.ok("expected.json", close32(gotS, &g.Scaled[n]), "%s scaled_x2_5[%d] = %v, want %v", id, n, gotS, g.Scaled[n])
		}
		checkScores(c, "expected.json", id+" theta_preset", r, g.ThetaPreset)
		checkScores(c, "expected.json", id+" theta_est", resEst[i], g.ThetaEst)
	}
	for key := range f.raw {
		if !knownTopKeys[key] {
			t.Errorf("expected.json key %q is not checked", key)
		}
	}
	// The verbatim original outputs, inside expected.json and as files.
	for _, run := range []struct {
		key, file string
		res       []Result
	}{{"scores_theta_preset", "scores_theta_preset.json", res}, {"scores_theta_est", "scores_theta_est.json", resEst}} {
		var inExp map[string]goldenScores
		if err := json.Unmarshal(f.raw[run.key], &inExp); err != nil {
			t.Fatal(err)
		}
		var inFile map[string]goldenScores
		readPythonJSON(t, filepath.Join(f.dir, run.file), &inFile)
		for i, id := range f.order {
			checkScores(c, "expected.json", run.key+" "+id, run.res[i], inExp[id])
			checkScores(c, run.file, id, run.res[i], inFile[id])
		}
		c.ok(run.file, len(inFile) == len(f.order), "%s has %d stories, want %d", run.file, len(inFile), len(f.order))
	}
	for _, k := range []struct {
		key string
		res []Result
	}{{"overall_line_theta_preset", res}, {"overall_line_theta_est", resEst}} {
		var line string
		_ = json.Unmarshal(f.raw[k.key], &line)
		got := "overall GROOViST score: " + pythonFloat(Mean(k.res))
		if want := line; strings.HasSuffix(want, "nan") || math.IsNaN(Mean(k.res)) {
			c.ok("expected.json", got == want, "%s: %q, want %q", k.key, got, want)
		} else {
			wantV, _ := strconv.ParseFloat(strings.TrimPrefix(want, "overall GROOViST score: "), 64)
			c.ok("expected.json", close32(Mean(k.res), &wantV), "%s: %q, want %q", k.key, got, want)
		}
	}
	checkMissingCrops(t, c, f, res)
	checkFallbackWords(t, c, f)
	checkFirst8Pixels(t, c, f, s)
}

var knownStoryKeys = map[string]bool{"NPs_input": true, "NPs_kept": true, "cr_weights": true, "cr_detail": true,
	"clip_input_ids": true, "image_ids": true, "images": true, "alignment_rows": true, "max_alignment": true,
	"scaled_x2_5": true, "theta_preset": true, "theta_est": true}

var knownTopKeys = map[string]bool{"per_story": true, "theta_preset": true, "theta_est": true,
	"overall_line_theta_preset": true, "overall_line_theta_est": true, "scores_theta_preset": true,
	"scores_theta_est": true, "missing_crop_files": true, "wordnet_fallback_words": true,
	"openai_clip_class_max_abs_diff_groovist": true}

// pythonFloat formats x as Python's str(float).
func pythonFloat(x float64) string {
	if math.IsNaN(x) {
		return "nan"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

func checkWeights(c *counter, id string, r Result, g goldenStory) {
	c.t.Helper()
	c.ok("expected.json", len(r.NPs) == len(g.CrWeights), "%s: %d weights, want %d", id, len(r.NPs), len(g.CrWeights))
	for n, want := range g.CrWeights {
		if n >= len(r.NPs) {
			break
		}
		c.ok("expected.json", r.NPs[n].Weight == want, "%s cr_weights[%d] = %v, want %v", id, n, r.NPs[n].Weight, want)
	}
	for n, d := range g.CrDetail {
		if n >= len(r.NPs) {
			c.ok("expected.json", false, "%s cr_detail[%d] has no phrase", id, n)
			continue
		}
		words := r.NPs[n].Words
		c.ok("expected.json", d.NP == r.NPs[n].NP && len(words) == len(d.Words), "%s cr_detail[%d]: %q with %d words, want %q with %d", id, n, r.NPs[n].NP, len(words), d.NP, len(d.Words))
		for w, dw := range d.Words {
			if w >= len(words) {
				break
			}
			got := words[w]
			path := "direct"
			if got.Lemma != "" || !got.Found && got.Word != "" {
				path = "wordnet_lemma"
			}
			same := got.Word == dw.Word && path == dw.Path && (dw.Path == "direct" || got.Lemma == dw.Lemma) &&
				(dw.Rating == nil && !got.Found || dw.Rating != nil && got.Found && got.Rating == *dw.Rating)
			c.ok("expected.json", same, "%s cr_detail[%d] word %d: %+v, want %+v", id, n, w, got, dw)
		}
	}
}

func checkImages(c *counter, id string, r Result, g goldenStory) {
	c.t.Helper()
	gotIDs := make([]string, len(r.Images))
	for k, im := range r.Images {
		gotIDs[k] = im.ID
	}
	c.ok("expected.json", reflect.DeepEqual(gotIDs, g.ImageIDs), "%s image_ids %q, want %q", id, gotIDs, g.ImageIDs)
	c.ok("expected.json", len(r.Images) == len(g.Images), "%s: %d images, want %d", id, len(r.Images), len(g.Images))
	for k, gi := range g.Images {
		if k >= len(r.Images) {
			break
		}
		im := r.Images[k]
		same := im.ID == gi.ImageID && (im.Err == nil) == gi.OK && im.Regions == gi.NRows && (!gi.OK || im.Used == gi.NUsed)
		if gi.Error == "FileNotFoundError" {
			same = same && errors.Is(im.Err, fs.ErrNotExist)
		}
		c.ok("expected.json", same, "%s images[%d] = %+v, want %+v", id, k, im, gi)
	}
}

func checkScores(c *counter, file, what string, r Result, g goldenScores) {
	c.t.Helper()
	c.ok(file, close32(r.Score, g.Groovist), "%s groovist = %v, want %v", what, r.Score, fmtPtr(g.Groovist))
	c.ok(file, len(g.NPScores) == len(r.NPs), "%s: %d NP_scores, want %d", what, len(r.NPs), len(g.NPScores))
	for _, np := range r.NPs {
		want, ok := g.NPScores[np.NP]
		c.ok(file, ok && close32(float64(np.Score), want), "%s NP_scores[%q] = %v, want %v", what, np.NP, np.Score, fmtPtr(want))
	}
}

func fmtPtr(p *float64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

func checkMissingCrops(t *testing.T, c *counter, f *groovistFixture, res []Result) {
	var missing []struct {
		ImageID    string `json:"image_id"`
		RowInImage int    `json:"row_in_image"`
		BBox       string `json:"bbox"`
	}
	if err := json.Unmarshal(f.raw["missing_crop_files"], &missing); err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		_, err := os.Stat(regions.CropPath(filepath.Join(f.dir, "aesop-entities"), m.ImageID, m.BBox))
		c.ok("expected.json", errors.Is(err, fs.ErrNotExist), "missing crop %s %s exists", m.ImageID, m.BBox)
		found := false
		for _, r := range res {
			for _, im := range r.Images {
				if im.ID != m.ImageID {
					continue
				}
				found = true
				wantFail := m.RowInImage < RegionsPerImage
				c.ok("expected.json", (im.Err != nil) == wantFail, "image %s with crop %d missing: err %v", m.ImageID, m.RowInImage, im.Err)
			}
		}
		c.ok("expected.json", found, "image %s of a missing crop is in no story", m.ImageID)
	}
}

func checkFallbackWords(t *testing.T, c *counter, f *groovistFixture) {
	var pairs []string
	if err := json.Unmarshal(f.raw["wordnet_fallback_words"], &pairs); err != nil {
		t.Fatal(err)
	}
	lem, err := wnlemma.English()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		w, l, _ := strings.Cut(p, "->")
		c.ok("expected.json", lem.Lemma(w) == l, "lemma of %q = %q, want %q", w, lem.Lemma(w), l)
	}
}

func checkFirst8Pixels(t *testing.T, c *counter, f *groovistFixture, s *Scorer) {
	var index struct {
		Arrays map[string]struct {
			File string `json:"file"`
		} `json:"arrays"`
		Files []string `json:"pixel_values_first8_files"`
	}
	data, err := os.ReadFile(filepath.Join(f.dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &index); err != nil {
		t.Fatal(err)
	}
	for name, a := range index.Arrays {
		if name != "pixel_values_first8" {
			t.Errorf("array %s is not checked", name)
			continue
		}
		arr, err := npy.ReadFile(filepath.Join(f.dir, a.File))
		if err != nil {
			t.Fatal(err)
		}
		want := arr.F32
		per := len(want) / len(index.Files)
		for i, file := range index.Files {
			img, err := imageproc.DecodeFile(filepath.Join(f.dir, file), imageproc.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			pv, err := s.Processor.Preprocess(img, nil)
			if err != nil {
				t.Fatal(err)
			}
			same := len(pv.Data) == per
			for j := 0; same && j < per; j++ {
				same = pv.Data[j] == want[i*per+j]
			}
			c.ok(a.File, same, "%s: pixel values differ from the reference's", file)
		}
	}
}
