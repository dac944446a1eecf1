package nn

import (
	"math/rand"

	"github.com/storyeval/storyeval/encoders/compute"
)

// Dropout is compute.Dropout: the counter-based masks of a training pass,
// which the backward pass regenerates instead of storing.
type Dropout = compute.Dropout

// NewDropout returns the masks of one forward pass (inactive when p is 0
// or rng is nil).
func NewDropout(p float64, rng *rand.Rand) Dropout { return compute.NewDropout(p, rng) }

// Mask sites: the embeddings, and three per layer (the attention
// probabilities, the attention output and the feed-forward output). Pass
// them to Site with the layer index.
const (
	SiteEmbeddings = 1
	SiteAttnProbs  = 1
	SiteAttnOut    = 2
	SiteFFNOut     = 3
)

// Site returns the stream of a layer's mask site (layer −1: embeddings).
func Site(layer, s int) uint64 { return uint64(layer+1)<<4 | uint64(s) }

// ApplyDropout multiplies x (the elements 0… of a stream) by its mask in
// place (compute.DropoutHost); it does nothing when d is inactive.
func ApplyDropout[T Float](d Dropout, stream uint64, x []T) { compute.DropoutHost(d, stream, x) }

// CopyDropout returns x times its mask in dst (x itself when inactive).
func CopyDropout[T Float](d Dropout, stream uint64, x, dst []T) []T {
	if !d.Active() {
		return x
	}
	copy(dst, x)
	ApplyDropout(d, stream, dst)
	return dst
}
