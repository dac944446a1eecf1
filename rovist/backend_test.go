package rovist

import (
	"context"
	"slices"
	"testing"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/backendtest"
	"github.com/storyeval/storyeval/story"
)

// checkRanOn checks that run used be for its products and gave the CPU's
// values, and that closing the model freed its weights there.
func checkRanOn[T comparable](t *testing.T, what string, be *backendtest.Counting, want []T, run func() ([]T, error), close func() error) {
	t.Helper()
	got, err := run()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if be.Gemms.Load() == 0 {
		t.Errorf("%s ran no product on the backend it was loaded onto", what)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: %v on the given backend, %v on the CPU", what, got, want)
	}
	if err := close(); err != nil {
		t.Fatal(err)
	}
	if be.Frees.Load() == 0 {
		t.Errorf("%s: Close freed nothing on the backend", what)
	}
}

// TestCoherenceModelOnBackend checks that LoadCoherenceModel's options
// choose the backend ALBERT runs on.
func TestCoherenceModelOnBackend(t *testing.T) {
	f, cpu := loadCoherenceFixture(t)
	var stories []story.Story
	for _, st := range f.stories.All() {
		if len(stories) < 2 {
			stories = append(stories, st)
		}
	}
	probs := func(m *CoherenceModel) ([]float64, error) {
		res, err := m.Score(context.Background(), stories, CoherenceOptions{})
		var out []float64
		for _, r := range res {
			for _, p := range r.Pairs {
				out = append(out, p.Prob)
			}
		}
		return out, err
	}
	want, err := probs(cpu)
	if err != nil || len(want) == 0 {
		t.Fatalf("CPU: %v, %d scores", err, len(want))
	}
	be := backendtest.NewCounting()
	m, err := LoadCoherenceModel(f.checkpoint, f.albertDir, encoders.Options{Backend: be})
	if err != nil {
		t.Fatal(err)
	}
	checkRanOn(t, "RoViST-C", be, want, func() ([]float64, error) { return probs(m) }, m.Close)
}

// TestGroundingModelOnBackend checks that LoadGroundingModel's options
// choose the backend the ViT runs on.
func TestGroundingModelOnBackend(t *testing.T) {
	f := loadGroundingFixture(t)
	img := &imageproc.RGB{Width: 32, Height: 24, Pix: make([]uint8, 32*24*3)}
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	embed := func(m *GroundingModel) ([]float32, error) {
		pv, err := m.Preprocess(img)
		if err != nil {
			return nil, err
		}
		e, err := m.EmbedImages(context.Background(), []imageproc.PixelValues{pv})
		if err != nil {
			return nil, err
		}
		return e[0], nil
	}
	cpu, err := LoadGroundingModel(f.checkpoint, f.vitDir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := embed(cpu)
	if err != nil {
		t.Fatal(err)
	}
	be := backendtest.NewCounting()
	m, err := LoadGroundingModel(f.checkpoint, f.vitDir, encoders.Options{Backend: be})
	if err != nil {
		t.Fatal(err)
	}
	checkRanOn(t, "RoViST-VG", be, want, func() ([]float32, error) { return embed(m) }, m.Close)
}
