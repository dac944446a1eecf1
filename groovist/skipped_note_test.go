package groovist

import (
	"errors"
	"testing"
)

// TestSkippedImageString checks the warning line for one story and for
// several, with an id that needs quoting.
func TestSkippedImageString(t *testing.T) {
	err := errors.New("no crop file x.jpg")
	for _, tc := range []struct {
		s    SkippedImage
		want string
	}{
		{SkippedImage{ID: "im01", Stories: 1, Err: err}, `image "im01" skipped in 1 story, scored as the reference does (alignment 0): no crop file x.jpg`},
		{SkippedImage{ID: "a\"b", Stories: 3, Err: err}, `image "a\"b" skipped in 3 stories, scored as the reference does (alignment 0): no crop file x.jpg`},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}
