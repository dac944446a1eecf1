package nn

import (
	"math/rand"

	"github.com/storyeval/storyeval/internal/parallel"
)

// Dropout draws the dropout masks inside a transformer encoder (embeddings,
// attention probabilities, attention and feed-forward outputs, as
// transformers' BertModel applies hidden_dropout_prob and
// attention_probs_dropout_prob in train mode) from a counter-based hash of
// (seed, site, element), so that the backward pass regenerates any mask
// element instead of storing the masks: the attention masks alone would be
// as large as the attention probabilities.
type Dropout struct {
	p         float64
	seed      uint64
	threshold uint64 // an element is dropped when its hash is below p·2⁶⁴
}

// NewDropout returns the masks of one forward pass (inactive when p
// is 0 or rng is nil).
func NewDropout(p float64, rng *rand.Rand) Dropout {
	if p <= 0 || rng == nil {
		return Dropout{}
	}
	return Dropout{p: p, seed: rng.Uint64(), threshold: uint64(p * (1 << 63) * 2)}
}

// Active reports whether the masks drop anything (p > 0).
func (d Dropout) Active() bool { return d.p > 0 }

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

// Factor returns the multiplier of element i of a stream: 0 when dropped,
// 1/(1−p) when kept (inverted dropout, as torch.nn.Dropout).
func (d Dropout) Factor(stream uint64, i int) float64 {
	z := d.seed ^ stream*0x9E3779B97F4A7C15
	z += uint64(i) * 0xD1B54A32D192ED03
	// splitmix64's finaliser.
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	z ^= z >> 31
	if z < d.threshold {
		return 0
	}
	return 1 / (1 - d.p)
}

// ApplyDropout multiplies x (the elements 0… of a stream) by its mask in
// place; it does nothing when d is inactive.
func ApplyDropout[T Float](d Dropout, stream uint64, x []T) {
	if !d.Active() {
		return
	}
	parallel.Chunks(len(x), 4096, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			x[i] *= T(d.Factor(stream, i))
		}
	})
}

// CopyDropout returns x times its mask in dst (x itself when inactive).
func CopyDropout[T Float](d Dropout, stream uint64, x, dst []T) []T {
	if !d.Active() {
		return x
	}
	copy(dst, x)
	ApplyDropout(d, stream, dst)
	return dst
}
