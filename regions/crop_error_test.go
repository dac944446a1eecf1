package regions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestCropError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "7_[0, 0, 1, 1].jpg")
	_, openErr := os.Open(path)
	err := CropError("7", path, fmt.Errorf("decoding: %w", openErr))
	var mc *MissingCropError
	if !errors.As(err, &mc) || mc.ImageID != "7" || mc.Path != path || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("CropError of a missing file = %v, want a MissingCropError wrapping fs.ErrNotExist", err)
	}
	if got, want := err.Error(), `image "7": no crop file `+path; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	other := errors.New("not a JPEG")
	if got := CropError("7", path, other); got != other {
		t.Errorf("CropError of another error = %v, want it unchanged", got)
	}
	if CropError("7", path, nil) != nil {
		t.Error("CropError(nil) is not nil")
	}
}
