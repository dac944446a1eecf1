package embcache

import (
	"testing"

	"github.com/storyeval/storyeval/encoders/imageproc"
)

// TestDecodeRegion: the memory budget (a pointer, different every run)
// and zero limits written as their defaults leave the description alone;
// the JPEG decoder, another pixel limit and the box change it.
func TestDecodeRegion(t *testing.T) {
	a := imageproc.DecodeOptions{Budget: imageproc.NewDecodeBudget(1 << 20), MaxPixels: imageproc.DefaultMaxPixels}
	b := imageproc.DecodeOptions{Budget: imageproc.NewDecodeBudget(1 << 20)}
	if DecodeRegion(a, nil) != DecodeRegion(b, nil) || DecodeRegion(a, nil) != DecodeRegion(imageproc.DecodeOptions{}, nil) {
		t.Fatalf("budgets change the region: %s / %s", DecodeRegion(a, nil), DecodeRegion(b, nil))
	}
	c := imageproc.DecodeOptions{JPEG: imageproc.JPEGStdlib}
	box := imageproc.Box{Left: 1, Top: 2, Right: 3, Bottom: 4}
	box2 := box
	box2.Right = 3.5
	seen := map[string]bool{}
	raised := imageproc.DecodeOptions{MaxPixels: 2 * imageproc.DefaultMaxPixels}
	for _, r := range []string{DecodeRegion(a, nil), DecodeRegion(c, nil), DecodeRegion(raised, nil), DecodeRegion(a, &box), DecodeRegion(a, &box2)} {
		if seen[r] {
			t.Fatalf("two different decodings share the region %q", r)
		}
		seen[r] = true
	}
}
