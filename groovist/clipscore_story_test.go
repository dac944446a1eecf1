package groovist

import (
	"context"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/internal/pairwise"
	"github.com/storyeval/storyeval/internal/sentences"
	"github.com/storyeval/storyeval/story"
)

// storyImages returns n images of the CLIPScore fixture folder (cycling
// through them when it holds fewer), starting at the from-th.
func storyImages(t *testing.T, from, n int) []story.Image {
	t.Helper()
	dir := filepath.Join(e2efixtures.Metric("clipscore"), "images")
	ids, paths, err := ImageFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) == 0 {
		t.Fatalf("%s holds no image", dir)
	}
	out := make([]story.Image, n)
	for k := range out {
		j := (from + k) % len(ids)
		out[k] = story.Image{ID: ids[j], Path: paths[j]}
	}
	return out
}

// clipStoryCases are stories over the fixture images covering both
// alignments, usable and unusable references, a story longer than CLIP's
// 77 tokens and images shared between stories.
func clipStoryCases(t *testing.T) ([]story.Story, [][]string) {
	long := strings.Repeat("the family walked along the river and talked about the long day they had ", 8)
	stories := []story.Story{
		{ID: "sentences", Text: "A dog runs on the grass. Two people ride a bicycle near the river! Is that the bride?", Images: storyImages(t, 0, 3)},
		{ID: "whole", Text: "We went to the wedding. It was a red car day.", Images: storyImages(t, 3, 4)},
		{ID: "long", Text: long, Images: storyImages(t, 6, 2)},
		{ID: "shared", Text: "The dog again. The river again.", Images: storyImages(t, 0, 2)},
	}
	refs := [][]string{
		{"a dog on grass. people by a river. a wedding.", "just one sentence here.", "one. two. three."},
		{"a whole reference story.", "another one. with two sentences."},
		nil,
		{"a single sentence, unusable with two images."},
	}
	return stories, refs
}

// TestScoreStoriesMatchesCaptionScores checks every story and pair against
// CLIPScorer.Score run separately, story by story, on the equivalent
// captions: the sentence (or the whole story) with its image and the
// aligned references.
func TestScoreStoriesMatchesCaptionScores(t *testing.T) {
	t.Logf("fixtures: %s", e2efixtures.Dir())
	m, tok := loadFixtureCLIP(t)
	s, err := NewCLIPScorer(m, tok)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	stories, refs := clipStoryCases(t)
	got, err := s.ScoreStories(ctx, stories, refs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(stories) {
		t.Fatalf("%d results for %d stories", len(got), len(stories))
	}
	seen := map[StoryAlignment]bool{}
	for i, st := range stories {
		r := got[i]
		if r.ID != st.ID {
			t.Errorf("result %d is %q, want %q", i, r.ID, st.ID)
		}
		sents := sentences.Split(st.Text)
		wantAlign := AlignWholeStory
		if len(sents) == len(st.Images) {
			wantAlign = AlignSentences
		}
		seen[wantAlign] = true
		if r.Alignment != wantAlign || r.Sentences != len(sents) {
			t.Errorf("%s: alignment %v with %d sentences, want %v with %d", st.ID, r.Alignment, r.Sentences, wantAlign, len(sents))
		}
		// The equivalent captions, scored on their own.
		var usable [][]string
		for _, ref := range refs[i] {
			if wantAlign == AlignWholeStory {
				usable = append(usable, nil)
				continue
			}
			if rs := sentences.Split(ref); len(rs) == len(st.Images) {
				usable = append(usable, rs)
			}
		}
		if r.References != len(usable) {
			t.Errorf("%s: %d usable references, want %d", st.ID, r.References, len(usable))
		}
		items := make([]Caption, len(st.Images))
		for k, im := range st.Images {
			items[k] = Caption{ID: im.ID, Image: im.Path, Candidate: st.Text}
			if wantAlign == AlignSentences {
				items[k].Candidate = sents[k]
				for _, rs := range usable {
					items[k].References = append(items[k].References, rs[k])
				}
			} else {
				items[k].References = refs[i]
			}
		}
		want, err := s.Score(ctx, items)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Pairs) != len(items) {
			t.Fatalf("%s: %d pairs, want %d", st.ID, len(r.Pairs), len(items))
		}
		var cs, rcs []float64
		for k, p := range r.Pairs {
			w := want[k]
			if p.Image != items[k].ID || p.Index != k || p.Text != items[k].Candidate || !reflect.DeepEqual(p.References, items[k].References) {
				t.Errorf("%s pair %d: image %q #%d text %q refs %q, want %q #%d %q %q", st.ID, k, p.Image, p.Index, p.Text, p.References, items[k].ID, k, items[k].Candidate, items[k].References)
			}
			if !sameFloat(p.CLIPScore, w.CLIPScore) || !sameFloat(p.MaxRefCosine, w.MaxRefCosine) || !sameFloat(p.RefCLIPScore, w.RefCLIPScore) || p.HasRefs != w.HasRefs {
				t.Errorf("%s pair %d: %+v, Score gives %+v", st.ID, k, p, w)
			}
			cs = append(cs, w.CLIPScore)
			if w.HasRefs {
				rcs = append(rcs, w.RefCLIPScore)
			}
		}
		if !sameFloat(r.CLIPScore, pairwise.Mean(cs)) {
			t.Errorf("%s: CLIPScore %v, mean of the pairs %v", st.ID, r.CLIPScore, pairwise.Mean(cs))
		}
		wantRef := math.NaN()
		if len(rcs) > 0 {
			wantRef = pairwise.Mean(rcs)
		}
		if r.HasRefs != (len(rcs) > 0) || !sameFloat(r.RefCLIPScore, wantRef) {
			t.Errorf("%s: RefCLIPScore %v (HasRefs %v), want %v", st.ID, r.RefCLIPScore, r.HasRefs, wantRef)
		}
		if math.IsNaN(r.CLIPScore) || r.CLIPScore < 0 {
			t.Errorf("%s: CLIPScore %v", st.ID, r.CLIPScore)
		}
		lg := r.LeastGrounded()
		for _, p := range r.Pairs {
			if p.CLIPScore < lg.CLIPScore {
				t.Errorf("%s: LeastGrounded %v but pair %d scores %v", st.ID, lg.CLIPScore, p.Index, p.CLIPScore)
			}
		}
	}
	if !seen[AlignSentences] || !seen[AlignWholeStory] {
		t.Errorf("the cases cover alignments %v, want both", seen)
	}
}

// Without references no story has a RefCLIPScore, and the CLIPScores are
// those of the run with references.
func TestScoreStoriesWithoutReferences(t *testing.T) {
	m, tok := loadFixtureCLIP(t)
	s, err := NewCLIPScorer(m, tok)
	if err != nil {
		t.Fatal(err)
	}
	stories, refs := clipStoryCases(t)
	with, err := s.ScoreStories(context.Background(), stories, refs)
	if err != nil {
		t.Fatal(err)
	}
	without, err := s.ScoreStories(context.Background(), stories, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range without {
		if r.HasRefs || !math.IsNaN(r.RefCLIPScore) || r.References != 0 {
			t.Errorf("%s: RefCLIPScore %v (HasRefs %v, %d references) without references", r.ID, r.RefCLIPScore, r.HasRefs, r.References)
		}
		if !sameFloat(r.CLIPScore, with[i].CLIPScore) {
			t.Errorf("%s: CLIPScore %v without references, %v with", r.ID, r.CLIPScore, with[i].CLIPScore)
		}
	}
}

func TestScoreStoriesErrors(t *testing.T) {
	m, tok := loadFixtureCLIP(t)
	s, err := NewCLIPScorer(m, tok)
	if err != nil {
		t.Fatal(err)
	}
	imgs := storyImages(t, 0, 2)
	for _, c := range []struct {
		name    string
		stories []story.Story
		refs    [][]string
		want    []string
	}{
		{"blank story", []story.Story{{ID: "s1", Text: " \n", Images: imgs}}, nil, []string{`"s1"`, "empty"}},
		{"no images", []story.Story{{ID: "s2", Text: "A dog."}}, nil, []string{`"s2"`, "no images"}},
		{"image without path", []story.Story{{ID: "s3", Text: "A. B.", Images: []story.Image{imgs[0], {ID: "x9"}}}}, nil, []string{`"s3"`, `"x9"`, "no path"}},
		{"reference lists", []story.Story{{ID: "s4", Text: "A. B.", Images: imgs}}, [][]string{{"a"}, {"b"}}, []string{"2 reference lists for 1 stories"}},
		{"unreadable image", []story.Story{{ID: "s5", Text: "A. B.", Images: []story.Image{imgs[0], {ID: "gone", Path: filepath.Join(t.TempDir(), "gone.jpg")}}}}, nil, []string{"gone.jpg"}},
	} {
		_, err := s.ScoreStories(context.Background(), c.stories, c.refs)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", c.name, err, w)
			}
		}
	}
}

func TestStoryAlignmentString(t *testing.T) {
	for a, want := range map[StoryAlignment]string{AlignSentences: "sentences", AlignWholeStory: "whole story", 7: "StoryAlignment(7)"} {
		if a.String() != want {
			t.Errorf("%d: %q, want %q", int(a), a.String(), want)
		}
	}
	if p := (StoryCLIPScore{}).LeastGrounded(); p.Index != -1 || !math.IsNaN(p.CLIPScore) {
		t.Errorf("LeastGrounded of no pairs: %+v", p)
	}
}

// sameFloat reports a == b, NaN equal to NaN.
func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
