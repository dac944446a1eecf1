package groovist

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/story"
)

func fixtureScorer(t *testing.T, f *groovistFixture) *Scorer {
	t.Helper()
	m, tok := loadFixtureCLIP(t)
	s, err := NewScorer(m, tok)
	if err != nil {
		t.Fatal(err)
	}
	if s.Entities, err = regions.Load(filepath.Join(f.dir, "aesop_entities.csv"), regions.Options{}); err != nil {
		t.Fatal(err)
	}
	s.CropsDir = filepath.Join(f.dir, "aesop-entities")
	return s
}

// TestExtractedPhrasesMatchGiven: for every fixture story whose text the
// chunker turns into exactly spaCy's list, scoring from the text gives the
// scores of the given list, plus the analyses T and P.
func TestExtractedPhrasesMatchGiven(t *testing.T) {
	f := readGroovistFixture(t)
	s := fixtureScorer(t, f)
	var texts map[string]string
	data, err := os.ReadFile(filepath.Join(f.dir, "stories.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &texts); err != nil {
		t.Fatal(err)
	}
	var given, extracted []Input
	for _, in := range f.inputs() {
		text, ok := texts[in.ID]
		if !ok || strings.HasPrefix(text, "(synthetic") {
			continue
		}
		nps, err := Phrases(text, NounPhrases)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(nps, in.NPs) {
			continue
		}
		given = append(given, in)
		in.NPs, in.Text = nil, text
		extracted = append(extracted, in)
	}
	if len(given) == 0 {
		t.Skip("the chunker matches spaCy on no fixture story")
	}
	ctx := context.Background()
	a, err := s.Score(ctx, given, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Score(ctx, extracted, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if a[i].Score != b[i].Score {
			t.Errorf("%s: %v from the text, %v from the list", a[i].ID, b[i].Score, a[i].Score)
		}
		if math.IsNaN(b[i].NPProportion) || b[i].NPProportion <= 0 || b[i].NPProportion > 1 {
			t.Errorf("%s: P = %v", b[i].ID, b[i].NPProportion)
		}
		if T := b[i].TemporalMisalignment; math.IsNaN(T) || T < 0 || T > 1 {
			t.Errorf("%s: T = %v", b[i].ID, T)
		}
		if !math.IsNaN(a[i].TemporalMisalignment) {
			t.Errorf("%s: T without sentences should be NaN", a[i].ID)
		}
	}
	t.Logf("%d stories scored from their text", len(a))
}

// TestImagesAndBoxes: cropping a decoded image to a box that covers it
// gives the scores of reading it as a crop file.
func TestImagesAndBoxes(t *testing.T) {
	f := readGroovistFixture(t)
	s := fixtureScorer(t, f)
	in := f.inputs()[0]
	in.NPs = []string{"a dog", "the festival"}
	var boxed []story.Image
	for _, img := range in.Images {
		var regs []story.Region
		for _, r := range s.Entities.Regions(img.ID) {
			p := regions.CropPath(s.CropsDir, r.ImageID, r.BBox)
			im, err := imageproc.DecodeFile(p, imageproc.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			// one "image" per crop: the crop file itself, boxed whole
			regs = append(regs, story.Region{Box: [4]float64{0, 0, float64(im.Width), float64(im.Height)}})
			boxed = append(boxed, story.Image{ID: img.ID, Path: p, Regions: regs[len(regs)-1:]})
			break
		}
	}
	ctx := context.Background()
	viaBoxes, err := (&Scorer{Text: s.Text, Images: s.Images, Processor: s.Processor}).Score(ctx,
		[]Input{{Story: story.Story{ID: in.ID, Images: boxed}, NPs: in.NPs}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for k, img := range boxed {
		e, err := s.imagePlan(story.Image{ID: img.ID})
		if err != nil {
			t.Fatal(err)
		}
		pv, err := s.loadCrops(ctx, e, s.Decode)
		if err != nil {
			t.Fatal(err)
		}
		emb, err := s.Images.EmbedImages(ctx, pv[:1])
		if err != nil {
			t.Fatal(err)
		}
		txt, err := s.Text.EmbedTexts(ctx, in.NPs)
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := splitRows(txt, len(in.NPs))
		img0, _ := splitRows(emb, 1)
		for n := range in.NPs {
			if got, want := viaBoxes[0].NPs[n].Alignment[k], dot(rows[n], img0[0]); got != want {
				t.Errorf("image %d phrase %d: %v via boxes, %v via the crop file", k, n, got, want)
			}
		}
	}
}
