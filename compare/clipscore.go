package compare

import (
	"context"
	"fmt"
	"slices"

	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/story"
)

// clipScore is story-level CLIPScore and RefCLIPScore per story.
type clipScore struct {
	spec
	c *groovist.CLIPScorer
}

// CLIPScore returns story-level CLIPScore per story with c and, when the
// suite has references, RefCLIPScore; the diagnostics name the image–text
// pair the story grounds worst. It needs every sequence's image files.
func CLIPScore(c *groovist.CLIPScorer) Metric {
	return clipScore{spec{name: "clipscore", columns: []string{"CLIPScore", "RefCLIPScore"}}, c}
}

// Unavailable implements Metric: RefCLIPScore needs references (said
// first), and both columns need the image files.
func (m clipScore) Unavailable(s *story.Suite) []Unavailable {
	why := suiteImagePathsMissing(s)
	var out []Unavailable
	for _, c := range m.columns {
		switch {
		case c == "RefCLIPScore" && !s.HasReferences():
			out = append(out, Unavailable{Metric: c, Needs: needsReferences})
		case why != "":
			out = append(out, Unavailable{Metric: c, Needs: why})
		}
	}
	return out
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

// Score implements Metric: every system's stories in one call, so that
// each image is encoded once for the run.
func (m clipScore) Score(ctx context.Context, in *Inputs) ([]Column, error) {
	stories, err := systemStories(in.Suite, in.Systems)
	if err != nil {
		return nil, err
	}
	var refs [][]string
	if in.Suite.HasReferences() {
		refs = make([][]string, len(stories))
		for i, st := range stories {
			seq, _ := in.Suite.Get(st.ID)
			refs[i] = seq.References
		}
	}
	res, err := m.c.ScoreStories(ctx, stories, refs)
	if err != nil {
		return nil, err
	}
	return allSystems(in, res, func(sys string, res []groovist.StoryCLIPScore) []Column {
		c := newColumn("CLIPScore", sys, len(res))
		r := newColumn("RefCLIPScore", sys, len(res))
		for i, sc := range res {
			c.Scores[sys][i] = sc.CLIPScore
			c.Notes[sys][i] = clipScoreNote(sc)
			if sc.HasRefs {
				r.Scores[sys][i] = sc.RefCLIPScore
			}
			r.Notes[sys][i] = refCLIPScoreNote(sc, len(in.Suite.At(i).References))
		}
		return []Column{c, r}
	}), nil
}

// clipScoreNote names the pair with the lowest CLIPScore and, when the
// story's sentences do not match its images, says that each image was
// scored against the whole story.
func clipScoreNote(r groovist.StoryCLIPScore) string {
	w := r.LeastGrounded()
	if r.Alignment == groovist.AlignWholeStory {
		return fmt.Sprintf("least grounded: image %d (%s) (CLIPScore %.3f); each image scored with the whole story (%d sentences for %d images)", w.Index+1, w.Image, w.CLIPScore, r.Sentences, len(r.Pairs))
	}
	return fmt.Sprintf("least grounded: image %d (%s) with %s (CLIPScore %.3f)", w.Index+1, w.Image, quoteShort(w.Text), w.CLIPScore)
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
