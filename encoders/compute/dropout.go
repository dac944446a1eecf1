package compute

import "math/rand"

// Dropout draws the dropout masks of one training pass (embeddings,
// attention probabilities, attention and feed-forward outputs, as
// transformers' BertModel applies hidden_dropout_prob and
// attention_probs_dropout_prob in train mode) from a counter-based hash of
// (seed, stream, element), so that the backward pass regenerates any mask
// element instead of storing the masks — the attention masks alone would be
// as large as the attention probabilities — and a device computes them in
// its kernels (splitmix64's finaliser, 64-bit integer arithmetic only).
// The zero value drops nothing.
type Dropout struct {
	P         float64
	Seed      uint64
	Threshold uint64 // an element is dropped when its hash is below P·2⁶⁴
}

// NewDropout returns the masks of one forward pass (inactive when p is 0
// or rng is nil).
func NewDropout(p float64, rng *rand.Rand) Dropout {
	if p <= 0 || rng == nil {
		return Dropout{}
	}
	return Dropout{P: p, Seed: rng.Uint64(), Threshold: uint64(p * (1 << 63) * 2)}
}

// Active reports whether the masks drop anything (P > 0).
func (d Dropout) Active() bool { return d.P > 0 }

// Factor returns the multiplier of element i of a stream: 0 when dropped,
// 1/(1−P) when kept (inverted dropout, as torch.nn.Dropout).
func (d Dropout) Factor(stream uint64, i int) float64 {
	z := d.Seed ^ stream*0x9E3779B97F4A7C15
	z += uint64(i) * 0xD1B54A32D192ED03
	// splitmix64's finaliser.
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	z ^= z >> 31
	if z < d.Threshold {
		return 0
	}
	return 1 / (1 - d.P)
}
