package groovist

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/story"
)

// writeTestPNG writes a w×h PNG of a colour gradient.
func writeTestPNG(t *testing.T, path string, w, h int) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(4 * x), uint8(4 * y), 128, 255})
		}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// TestSkippedListsFailedImagesOnce scores two stories over images under a
// 1,000-pixel decode limit: a 16×16 crop is used; a 64×64 one is over the
// limit, an undecodable one and one without regions fail too. Skipped must
// list the three failures once each, in order, with their story counts,
// and mark only the large one TooLarge, naming its file and size.
func TestSkippedListsFailedImagesOnce(t *testing.T) {
	m, tok := loadFixtureCLIP(t)
	s, err := NewScorer(m, tok)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	writeTestPNG(t, filepath.Join(tmp, "small_[0, 0, 1, 1].jpg"), 16, 16)
	writeTestPNG(t, filepath.Join(tmp, "large_[0, 0, 1, 1].jpg"), 64, 64)
	if err := os.WriteFile(filepath.Join(tmp, "bad_[0, 0, 1, 1].jpg"), []byte("not an image"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Entities, err = regions.Read(strings.NewReader("image_id,bbox\nsmall,\"[0, 0, 1, 1]\"\nlarge,\"[0, 0, 1, 1]\"\nbad,\"[0, 0, 1, 1]\"\n"), "regions.csv", regions.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.CropsDir = tmp
	s.Decode.MaxPixels = 1000
	img := func(ids ...string) []story.Image {
		out := make([]story.Image, len(ids))
		for i, id := range ids {
			out[i] = story.Image{ID: id}
		}
		return out
	}
	res, err := s.Score(context.Background(), []Input{
		{Story: story.Story{ID: "a", Images: img("small", "large", "bad")}, NPs: []string{"a dog"}},
		{Story: story.Story{ID: "b", Images: img("none", "large", "small")}, NPs: []string{"a cat"}},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := Skipped(res)
	want := []struct {
		id       string
		stories  int
		tooLarge bool
		msg      string
	}{
		{"large", 2, true, "64x64"},
		{"bad", 1, false, "bad_[0, 0, 1, 1].jpg"},
		{"none", 1, false, "none"},
	}
	if len(got) != len(want) {
		t.Fatalf("Skipped = %+v, want %d images", got, len(want))
	}
	for i, w := range want {
		g := got[i]
		t.Logf("skipped %s (%d stories): %v", g.ID, g.Stories, g.Err)
		if g.ID != w.id || g.Stories != w.stories || g.TooLarge != w.tooLarge || g.Err == nil || !strings.Contains(g.Err.Error(), w.msg) {
			t.Errorf("skipped[%d] = %+v (%v), want %s in %d stories, too large %v, error naming %q", i, g, g.Err, w.id, w.stories, w.tooLarge, w.msg)
		}
	}
	if res[0].Images[0].Err != nil || res[0].Images[0].Used != 1 {
		t.Errorf("the small image must be used: %+v", res[0].Images[0])
	}
}
