package train

import (
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/internal/trainckpt"
)

// openTensors opens a checkpoint's optimizer file for
// trainckpt.ReadMoments with encoders/checkpoint.
func openTensors(path string) (trainckpt.TensorFile, error) {
	st, err := checkpoint.Open(path)
	if err != nil {
		return nil, err
	}
	return st, nil
}
