package groovist

import (
	"context"
	"testing"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/story"
	"gorgonia.org/tensor"
)

type countingText struct {
	inner encoders.TextEncoder
	seen  map[string]int
}

func (c *countingText) EmbedTexts(ctx context.Context, texts []string) (*tensor.Dense, error) {
	for _, s := range texts {
		c.seen[s]++
	}
	return c.inner.EmbedTexts(ctx, texts)
}

type countingImages struct {
	inner encoders.ImageEncoder
	n     int
}

func (c *countingImages) EmbedImages(ctx context.Context, imgs []imageproc.PixelValues) (*tensor.Dense, error) {
	c.n += len(imgs)
	return c.inner.EmbedImages(ctx, imgs)
}

// TestEmbeddingsOncePerRun: phrases and images shared by stories are
// embedded once.
func TestEmbeddingsOncePerRun(t *testing.T) {
	f := readGroovistFixture(t)
	s := fixtureScorer(t, f)
	ct := &countingText{inner: s.Text, seen: map[string]int{}}
	ci := &countingImages{inner: s.Images}
	s.Text, s.Images = ct, ci
	in := f.inputs()[0]
	twin := Input{Story: story.Story{ID: "twin", Images: in.Images}, NPs: append([]string{"a new phrase"}, in.NPs...)}
	res, err := s.Score(context.Background(), []Input{in, twin}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for text, n := range ct.seen {
		if n != 1 {
			t.Errorf("%q embedded %d times", text, n)
		}
	}
	want := 0
	for _, im := range res[0].Images {
		want += im.Used
	}
	if ci.n != want {
		t.Errorf("%d crops embedded, want %d (each once)", ci.n, want)
	}
	if res[0].Score != Rescore(res[:1], Options{})[0].Score {
		t.Error("Rescore with the same options changed the score")
	}
}
