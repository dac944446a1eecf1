package groovist

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/storyeval/storyeval/internal/pairwise"
	"github.com/storyeval/storyeval/internal/sentences"
	"github.com/storyeval/storyeval/story"
)

// StoryAlignment says how ScoreStories paired a story's images with its
// text.
type StoryAlignment int

const (
	// AlignSentences pairs sentence k with image k: the story splits into
	// exactly as many sentences as it has images.
	AlignSentences StoryAlignment = iota
	// AlignWholeStory pairs every image with the whole story text: the
	// story's sentence count differs from its image count.
	AlignWholeStory
)

// String returns "sentences" or "whole story".
func (a StoryAlignment) String() string {
	switch a {
	case AlignSentences:
		return "sentences"
	case AlignWholeStory:
		return "whole story"
	}
	return fmt.Sprintf("StoryAlignment(%d)", int(a))
}

// PairScore is the CLIPScore of one image–text pair of a story.
type PairScore struct {
	// Image is the image id and Index its position in the story's images.
	Image string
	Index int
	// Text is the candidate text paired with the image: its sentence, or
	// the whole story under AlignWholeStory.
	Text string
	// References are the reference texts of the pair: the Index-th
	// sentence of each usable reference, or whole references under
	// AlignWholeStory.
	References []string
	// CLIPScore, MaxRefCosine, RefCLIPScore and HasRefs are
	// CLIPScorer.Score's CaptionScore of the pair.
	CLIPScore    float64
	MaxRefCosine float64
	RefCLIPScore float64
	HasRefs      bool
}

// StoryCLIPScore is the story-level CLIPScore of one story.
type StoryCLIPScore struct {
	ID string
	// Alignment is how the images were paired with the text; Sentences is
	// the number of sentences the story splits into.
	Alignment StoryAlignment
	Sentences int
	// CLIPScore is the mean of the pairs' CLIPScore (np.mean).
	CLIPScore float64
	// RefCLIPScore is the mean of the pairs' RefCLIPScore; NaN when no
	// reference was usable (HasRefs false). References counts the usable
	// references.
	RefCLIPScore float64
	HasRefs      bool
	References   int
	// Pairs are the scored image–text pairs, one per image in image order.
	Pairs []PairScore
}

// LeastGrounded returns the pair with the lowest CLIPScore (the first of
// equal ones): the image the story's text describes worst. A result with
// no pairs gives Index -1 and NaN scores.
func (r StoryCLIPScore) LeastGrounded() PairScore {
	if len(r.Pairs) == 0 {
		return PairScore{Index: -1, CLIPScore: math.NaN(), MaxRefCosine: math.NaN(), RefCLIPScore: math.NaN()}
	}
	worst := 0
	for k, p := range r.Pairs {
		if p.CLIPScore < r.Pairs[worst].CLIPScore {
			worst = k
		}
	}
	return r.Pairs[worst]
}

// ScoreStories computes a story-level CLIPScore and RefCLIPScore from
// image–sentence pairs, as the GROOViST paper (Surikuchi et al., 2023) uses
// the caption metric CLIPScore as a story baseline.
//
// Each story is split into sentences with NLTK's Punkt splitter, as
// GROOViST and RoViST split stories. When it has as many sentences as
// images, sentence k is paired with image k (AlignSentences); otherwise —
// a case the paired definition leaves open, settled here — every image is
// paired with the whole story text (AlignWholeStory), which clipscore.py's
// 77-token truncation cuts short for long stories. Each
// pair is scored by Score — "A photo depicts " before the text,
// CLIPScore = 2.5 · max(cos, 0) — and the story's CLIPScore is the mean
// over its pairs.
//
// refs, when not nil, holds one list of whole human stories per story (in
// the order of stories). Under AlignSentences a pair's references are the
// k-th sentences of the references that split into as many sentences as
// there are images, the others being unusable; under AlignWholeStory they
// are the whole references. The story's RefCLIPScore is the mean of the
// pairs' RefCLIPScore, NaN (HasRefs false) when no reference is usable.
//
// A story that is blank or has no images, or an image without a Path, is
// an error naming the story (and the image). Every distinct image and text
// of the call is embedded once: all stories go through one Score call.
// Results are in the order of stories.
func (s *CLIPScorer) ScoreStories(ctx context.Context, stories []story.Story, refs [][]string) ([]StoryCLIPScore, error) {
	if refs != nil && len(refs) != len(stories) {
		return nil, fmt.Errorf("ScoreStories: %d reference lists for %d stories", len(refs), len(stories))
	}
	out := make([]StoryCLIPScore, len(stories))
	var items []Caption
	for i, st := range stories {
		if st.IsBlank() {
			return nil, fmt.Errorf("story %q is empty", st.ID)
		}
		if len(st.Images) == 0 {
			return nil, fmt.Errorf("story %q has no images", st.ID)
		}
		for _, im := range st.Images {
			if im.Path == "" {
				return nil, fmt.Errorf("story %q: image %q has no path (CLIPScore needs the image file)", st.ID, im.ID)
			}
		}
		var storyRefs []string
		if refs != nil {
			storyRefs = refs[i]
		}
		r := alignStory(st, storyRefs)
		for _, p := range r.Pairs {
			items = append(items, Caption{ID: p.Image, Image: st.Images[p.Index].Path, Candidate: p.Text, References: p.References})
		}
		out[i] = r
	}
	scores, err := s.Score(ctx, items)
	if err != nil {
		return nil, err
	}
	n := 0
	for i := range out {
		r := &out[i]
		c := make([]float64, len(r.Pairs))
		var rc []float64
		for k := range r.Pairs {
			sc := scores[n]
			n++
			p := &r.Pairs[k]
			p.CLIPScore, p.MaxRefCosine, p.RefCLIPScore, p.HasRefs = sc.CLIPScore, sc.MaxRefCosine, sc.RefCLIPScore, sc.HasRefs
			c[k] = sc.CLIPScore
			if sc.HasRefs {
				rc = append(rc, sc.RefCLIPScore)
			}
		}
		r.CLIPScore = pairwise.Mean(c)
		r.RefCLIPScore = math.NaN()
		if len(rc) > 0 {
			r.HasRefs = true
			r.RefCLIPScore = pairwise.Mean(rc)
		}
	}
	return out, nil
}

// alignStory chooses the story's alignment and returns the result with
// its pairs' texts and references, its sentence count and its number of
// usable references filled in.
func alignStory(st story.Story, refs []string) StoryCLIPScore {
	n := len(st.Images)
	sents := sentences.Split(st.Text)
	r := StoryCLIPScore{ID: st.ID, Sentences: len(sents), Pairs: make([]PairScore, n)}
	for k, im := range st.Images {
		r.Pairs[k] = PairScore{Image: im.ID, Index: k}
	}
	if len(sents) != n {
		r.Alignment = AlignWholeStory
		r.References = len(refs)
		whole := slices.Clone(refs)
		for k := range r.Pairs {
			r.Pairs[k].Text, r.Pairs[k].References = st.Text, whole
		}
		return r
	}
	r.Alignment = AlignSentences
	for k := range r.Pairs {
		r.Pairs[k].Text = sents[k]
	}
	for _, ref := range refs {
		rs := sentences.Split(ref)
		if len(rs) != n {
			continue
		}
		r.References++
		for k := range r.Pairs {
			r.Pairs[k].References = append(r.Pairs[k].References, rs[k])
		}
	}
	return r
}
