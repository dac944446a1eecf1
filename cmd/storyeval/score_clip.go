package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/story"
)

// referenceColumns are the columns a metric adds only when the story set
// has human references; without them the column is reported unavailable.
var referenceColumns = map[string]bool{"RefCLIPScore": true}

// suiteColumns returns the columns m produces on suite s, and those it
// leaves out for want of references.
func suiteColumns(m scoreMetric, s *story.Suite) (cols, needRefs []string) {
	for _, c := range m.columns {
		if referenceColumns[c] && !s.HasReferences() {
			needRefs = append(needRefs, c)
			continue
		}
		cols = append(cols, c)
	}
	return cols, needRefs
}

// clipScoreMetric is story-level CLIPScore (and RefCLIPScore with
// references) of `score`.
func clipScoreMetric(available func(*story.Suite, scoreConfig) bool) scoreMetric {
	return scoreMetric{name: "clipscore", columns: []string{"CLIPScore", "RefCLIPScore"}, needs: "CLIPScore", available: available, run: scoreCLIPScore}
}

// loadCLIP loads the CLIP model and tokenizer of dir once per run: GROOViST
// and CLIPScore share them.
func (m *scoreModels) loadCLIP(dir string) (*encoders.CLIP, *tokenize.CLIP, error) {
	if m.clip == nil {
		model, err := encoders.LoadCLIP(dir)
		if err != nil {
			return nil, nil, err
		}
		tok, err := tokenize.LoadCLIP(dir, tokenize.CLIPOptions{})
		if err != nil {
			return nil, nil, err
		}
		m.clip, m.clipTokenizer, m.clipDir = model, tok, dir
	}
	return m.clip, m.clipTokenizer, nil
}

// suiteImagePathsMissing says which image of the suite has no file, or ""
// when every sequence has images and each has a path: CLIPScore reads the
// whole images.
func suiteImagePathsMissing(s *story.Suite) string {
	for _, seq := range s.All() {
		if len(seq.Images) == 0 {
			return fmt.Sprintf("the image files of every sequence in the story set (sequence %q lists no images)", seq.ID)
		}
		for _, im := range seq.Images {
			if im.Path == "" {
				return fmt.Sprintf("the image files of the story set (its \"images\" map of image id to file; sequence %q: image %q has no path)", seq.ID, im.ID)
			}
		}
	}
	return ""
}

// scoreCLIPScore computes story-level CLIPScore (and RefCLIPScore when the
// suite has references) per story with groovist's ScoreStories, all
// systems in one call so that each image is encoded once for the run; the
// notes name the image–text pair the story grounds worst.
func scoreCLIPScore(ctx context.Context, s *story.Suite, system string, cfg scoreConfig) ([]scoreColumn, error) {
	res, err := systemResults(cfg, "clipscore", s, system, func(stories []story.Story) ([]groovist.StoryCLIPScore, error) {
		var refs [][]string
		if s.HasReferences() {
			refs = make([][]string, len(stories))
			for i, st := range stories {
				seq, _ := s.Get(st.ID)
				refs[i] = seq.References
			}
		}
		return cfg.models.clipScorer.ScoreStories(ctx, stories, refs)
	})
	if err != nil {
		return nil, err
	}
	c := newColumn("CLIPScore", system, len(res))
	r := newColumn("RefCLIPScore", system, len(res))
	for i, sc := range res {
		c.Scores[system][i] = sc.CLIPScore
		c.Notes[system][i] = clipScoreNote(sc)
		if sc.HasRefs {
			r.Scores[system][i] = sc.RefCLIPScore
		}
		r.Notes[system][i] = refCLIPScoreNote(sc, len(s.At(i).References))
	}
	cols := []scoreColumn{c}
	if s.HasReferences() {
		cols = append(cols, r)
	}
	return cols, nil
}

// clipScoreNote names the pair with the lowest CLIPScore and, when the
// story's sentences do not match its images, says that each image was
// scored against the whole story.
func clipScoreNote(r groovist.StoryCLIPScore) string {
	w := r.LeastGrounded()
	note := fmt.Sprintf("least grounded: image %d (%s) with %s (CLIPScore %.3f)", w.Index+1, w.Image, quoteShort(w.Text), w.CLIPScore)
	if r.Alignment == groovist.AlignWholeStory {
		note = fmt.Sprintf("least grounded: image %d (%s) (CLIPScore %.3f); each image scored with the whole story (%d sentences for %d images)", w.Index+1, w.Image, w.CLIPScore, r.Sentences, len(r.Pairs))
	}
	return note
}

// refCLIPScoreNote names the pair with the lowest RefCLIPScore, or why the
// story has none.
func refCLIPScoreNote(r groovist.StoryCLIPScore, refs int) string {
	if !r.HasRefs {
		return fmt.Sprintf("undefined: none of the %d references has %d sentences, one per image", refs, len(r.Pairs))
	}
	worst := slices.MinFunc(r.Pairs, func(a, b groovist.PairScore) int {
		switch {
		case a.RefCLIPScore < b.RefCLIPScore:
			return -1
		case a.RefCLIPScore > b.RefCLIPScore:
			return 1
		}
		return 0
	})
	align := "their k-th sentences against sentence k"
	if r.Alignment == groovist.AlignWholeStory {
		align = "whole, against the whole story"
	}
	return fmt.Sprintf("lowest: image %d (%s) (RefCLIPScore %.3f; %d of %d references used, %s)", worst.Index+1, worst.Image, worst.RefCLIPScore, r.References, refs, align)
}

// quoteShort quotes a sentence for a note, cut after 80 characters.
func quoteShort(s string) string {
	r := []rune(s)
	if len(r) > 80 {
		return fmt.Sprintf("%q…", string(r[:80]))
	}
	return fmt.Sprintf("%q", s)
}
