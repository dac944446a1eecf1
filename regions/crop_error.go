package regions

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/storyeval/storyeval/internal/errtext"
)

// MissingCropError reports a region whose crop file is not there: the
// regions file lists a region that the crops folder lacks (a wrong crops
// folder, or a regions file of another dataset). A caller can act on it,
// e.g. by pointing at the right folder or dropping the image.
type MissingCropError struct {
	// ImageID is the story image whose region it is.
	ImageID string
	// Path is the crop file looked for (CropPath).
	Path string
	// Err is the file system's error; errors.Is(err, fs.ErrNotExist)
	// holds for it.
	Err error
}

// Error names the image and the file.
func (e *MissingCropError) Error() string {
	return fmt.Sprintf("image %s: no crop file %s", errtext.Quote(e.ImageID), e.Path)
}

// Unwrap returns the file system's error.
func (e *MissingCropError) Unwrap() error { return e.Err }

// CropError returns a *MissingCropError when err reports that the crop
// file at path does not exist, and err unchanged otherwise (nil included).
func CropError(imageID, path string, err error) error {
	if err != nil && errors.Is(err, fs.ErrNotExist) {
		return &MissingCropError{ImageID: imageID, Path: path, Err: err}
	}
	return err
}
