package groovist

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/story"
)

func TestReadRatings(t *testing.T) {
	r, err := ReadRatings(strings.NewReader("\uFEFFWord;Conc.M\r\nroadsweeper;4.85\r\n\r\nthe;1.43;extra\r\nthe;1.5\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := r.Rating("roadsweeper"); !ok || v != 4.85 {
		t.Errorf("roadsweeper = %v %v", v, ok)
	}
	if v, _ := r.Rating("the"); v != 1.5 {
		t.Errorf("a later line must win: the = %v", v)
	}
	if _, ok := r.Rating("Word"); ok {
		t.Error("the header line was read as a rating")
	}
	for _, bad := range []string{
		"Word;Conc.M\ndog\n",       // no separator
		"Word;Conc.M\ndog;high\n",  // not a number
		"Word;Conc.M\ndog;nan\n",   // not finite
		"Word;Conc.M\ndog;0x1p2\n", // Python's float() refuses hex
		"Word;Conc.M\n",            // nothing rated
		"",                         // empty
	} {
		if _, err := ReadRatings(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadRatings(%q): no error", bad)
		}
	}
}

func TestWeightFallbackAndDefault(t *testing.T) {
	r, err := ReadRatings(strings.NewReader("Word;Conc.M\nthe;1.43\ndress;4.93\n"))
	if err != nil {
		t.Fatal(err)
	}
	// "dresses" is rated through its WordNet lemma; "xyzzy" not at all.
	w, detail, err := r.Weight("the dresses xyzzy")
	if err != nil {
		t.Fatal(err)
	}
	the, dress := 1.43, 4.93
	if w != (the+dress)/2 || detail[1].Lemma != "dress" || detail[2].Found {
		t.Errorf("weight %v, detail %+v", w, detail)
	}
	if w, _, _ := r.Weight("xyzzy"); w != 1 {
		t.Errorf("an unrated phrase weighs %v, want 1", w)
	}
}

func TestReadPronouns(t *testing.T) {
	p, err := ReadPronouns(strings.NewReader("it\r\n we \nthey"))
	if err != nil {
		t.Fatal(err)
	}
	got := p.Filter([]string{"it", "the dog", "we", "the dog", "it all", "they"})
	if strings.Join(got, "|") != "the dog|it all" {
		t.Errorf("Filter = %q", got)
	}
	if !DefaultPronouns().Contains("I") || !DefaultPronouns().Contains("i") {
		t.Error("GROOViST's list has both i and I")
	}
}

// TestScoreEdgeCases: a story without phrases is undefined (NaN), a story
// without images is an error, an undecodable crop fails only its image,
// a missing crops folder is an error.
func TestScoreEdgeCases(t *testing.T) {
	m, tok := loadFixtureCLIP(t)
	s, err := NewScorer(m, tok)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	// one good crop copied from the fixtures, one broken file
	src := filepath.Join(e2efixtures.Metric("groovist"), "aesop-entities")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(src, entries[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "good_[0, 0, 1, 1].jpg"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "bad_[0, 0, 1, 1].jpg"), []byte("not a jpeg"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Entities, err = regions.Read(strings.NewReader("image_id,bbox\ngood,\"[0, 0, 1, 1]\"\nbad,\"[0, 0, 1, 1]\"\n"), "entities.csv", regions.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.CropsDir = tmp
	imgs := []story.Image{{ID: "good"}, {ID: "bad"}, {ID: "none"}}
	ctx := context.Background()
	res, err := s.Score(ctx, []Input{
		{Story: story.Story{ID: "empty", Images: imgs}, NPs: []string{}},
		{Story: story.Story{ID: "pronouns", Images: imgs}, NPs: []string{"it", "we"}},
		{Story: story.Story{ID: "dog", Images: imgs}, NPs: []string{"a dog"}},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res[:2] {
		if r.Defined || !math.IsNaN(r.Score) {
			t.Errorf("%s: score %v defined %v, want NaN", r.ID, r.Score, r.Defined)
		}
	}
	d := res[2]
	if !d.Defined || d.Images[0].Err != nil || d.Images[1].Err == nil || d.Images[2].Err == nil {
		t.Fatalf("images %+v", d.Images)
	}
	if d.NPs[0].Alignment[1] != 0 || d.NPs[0].Alignment[2] != 0 {
		t.Errorf("failed images must leave 0: %v", d.NPs[0].Alignment)
	}
	if _, err := s.Score(ctx, []Input{{Story: story.Story{ID: "noimg"}, NPs: []string{"a dog"}}}, Options{}); err == nil {
		t.Error("a story without images: no error")
	}
	s.CropsDir = filepath.Join(tmp, "missing")
	if _, err := s.Score(ctx, []Input{{Story: story.Story{ID: "dog", Images: imgs}, NPs: []string{"a dog"}}}, Options{}); err == nil || !strings.Contains(err.Error(), "crops folder") {
		t.Errorf("missing crops folder: %v", err)
	}
	long := strings.Repeat("dog ", 100)
	s.CropsDir = tmp
	_, err = s.Score(ctx, []Input{{Story: story.Story{ID: "short", Images: imgs}, NPs: []string{"a dog"}},
		{Story: story.Story{ID: "long", Images: imgs}, NPs: []string{"a cat", long}}}, Options{})
	// The error names the story and the phrase (quoted, cut to 200 bytes),
	// not the phrase's index in an embedding batch.
	if err == nil || !strings.Contains(err.Error(), `story "long": the noun phrase "dog dog`) || !strings.Contains(err.Error(), "… (400 bytes) has 102 CLIP tokens, more than the context of 77") {
		t.Errorf("a phrase over 77 tokens: %v (clip.tokenize raises)", err)
	}
	// A crop file that is not there: the image contributes nothing, and
	// its error is a MissingCropError naming it.
	gone := filepath.Join(tmp, "good_[0, 0, 1, 1].jpg")
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	res, err = s.Score(ctx, []Input{{Story: story.Story{ID: "gone", Images: imgs}, NPs: []string{"a dog"}}}, Options{})
	var mc *regions.MissingCropError
	if err != nil || !errors.As(res[0].Images[0].Err, &mc) || mc.ImageID != "good" || mc.Path != gone {
		t.Errorf("missing crop: err %v, image error %v, want a MissingCropError of image good, %s", err, res[0].Images[0].Err, gone)
	}
}

// TestAblationsAndRescore checks the options against hand computations on
// the scores Score returns.
func TestAblationsAndRescore(t *testing.T) {
	r := Result{NPs: []NPScore{{Scaled: 1, Weight: 2}, {Scaled: 0.25, Weight: 4}}}
	got := Rescore([]Result{r}, Options{Theta: ThetaOf(0.5)})[0]
	// 1 ≥ 0.5 keeps 1·2 = 2; 0.25 < 0.5 becomes −0.25·4 = −1; mean 0.5
	if got.Score != 0.5 || got.NPs[1].Score != -1 {
		t.Errorf("penalised: %v %v", got.Score, got.NPs[1].Score)
	}
	got = Rescore([]Result{r}, Options{Theta: ThetaOf(0.5), NoPenalty: true})[0]
	if got.Score != 1.5 {
		t.Errorf("−P: %v, want 1.5", got.Score)
	}
	got = Rescore([]Result{r}, Options{Theta: ThetaOf(0.5), Tanh: true})[0]
	if got.Score != math.Tanh(0.5) {
		t.Errorf("tanh: %v", got.Score)
	}
	if th := EstimateTheta([]Result{r}); th != 0.625 {
		t.Errorf("EstimateTheta = %v, want 0.625", th)
	}
	idf := story.ComputeIDF([][]string{{"the dog"}, {"the cat"}}, story.IDFOptions{SplitWords: true})
	if idf["the"] != 0 || idf["dog"] != math.Log(2) {
		t.Errorf("idf %v", idf)
	}
	if w := idfWeight(idf, "the dog"); w != math.Log(2)/2 {
		t.Errorf("idf weight %v", w)
	}
	sents := [][]string{{"a dog", "it"}, {"a cat", "a dog"}}
	nps := []NPScore{{NP: "a dog", BestImage: 0}, {NP: "a cat", BestImage: 0}}
	// sentence 0: a dog → image 0 (aligned) = 0; sentence 1: a cat → 0 (mis), a dog → 0 (mis) = 1
	if T := temporalMisalignment(sents, nps, 2); T != 0.5 {
		t.Errorf("T = %v, want 0.5", T)
	}
}
