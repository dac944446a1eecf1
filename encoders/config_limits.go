package encoders

import (
	"fmt"
	"slices"
)

// Bounds on config.json sizes, checked before anything is allocated so that
// a hostile or corrupt config (say "num_hidden_layers": 1000000000000) fails
// at once with the field's name instead of exhausting memory. Each bound is
// far above every published checkpoint of these architectures (at most 48
// layers, widths of 16 384, vocabularies of 250 002 pieces, 8 192
// positions) and the checkpoint's tensors are checked against the config
// before the weights are read.
const (
	maxLayers    = 1 << 10
	maxWidth     = 1 << 16
	maxHeads     = 1 << 10
	maxVocab     = 1 << 22
	maxPositions = 1 << 16
	maxTypeVocab = 1 << 10
	maxImageSize = 1 << 13
	maxChannels  = 64
)

// configLimit is one config.json size and its allowed range 1..max.
type configLimit struct {
	field      string
	value, max int
}

// checkLimits checks every size against its range, in the order given.
func checkLimits(what string, limits ...configLimit) error {
	for _, l := range limits {
		if l.value <= 0 || l.value > l.max {
			return fmt.Errorf("%s: %s = %d, want 1 to %d", what, l.field, l.value, l.max)
		}
	}
	return nil
}

// shapeCheck is a parameter whose stored shape the config determines.
type shapeCheck struct {
	param  string // relative to the reader's prefix
	shape  []int
	fields string // the config fields that give shape, for the message
}

// checkShapes compares the stored shapes of the parameters with what the
// config implies, from the checkpoint's index alone (nothing is read), so a
// config that does not match the weights fails before the model's memory is
// allocated. Random weights (benchmarks) have nothing to check.
func (r *weightReader) checkShapes(what string, checks ...shapeCheck) error {
	if r.random != nil {
		return nil
	}
	for _, c := range checks {
		shape, ok := r.info(c.param)
		if !ok {
			return fmt.Errorf("%s: parameter %s%s (from %s) is not in the checkpoint", what, r.prefix, c.param, c.fields)
		}
		if !slices.Equal(shape, c.shape) {
			return fmt.Errorf("%s: parameter %s%s is %v in the checkpoint, %v by %s", what, r.prefix, c.param, shape, c.shape, c.fields)
		}
	}
	return nil
}
