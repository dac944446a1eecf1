package groovist

import (
	"fmt"

	"github.com/storyeval/storyeval/limits"
)

// LoadCaptionsDir is LoadCaptions over the images of imagesDir
// (ImageFiles). A folder that cannot be read or holds no image is an
// *InputError for "images".
func LoadCaptionsDir(candsPath, refsPath, imagesDir string, lim limits.Limits) ([]Caption, error) {
	ids, paths, err := ImageFiles(imagesDir)
	if err == nil && len(ids) == 0 {
		err = fmt.Errorf("%s: no .png, .jpg, .jpeg or .tiff file", imagesDir)
	}
	if err != nil {
		return nil, &InputError{"images", err}
	}
	return LoadCaptions(candsPath, refsPath, ids, paths, lim)
}
