package train

import (
	"math/rand"

	"github.com/storyeval/storyeval/encoders/tokenize"
)

// maskedBatch is a padded batch whose inputs have been masked, with the
// positions the loss is computed on and their original tokens.
type maskedBatch struct {
	in *batchInput
	// rows are the selected positions (b·S + t), in row order; labels their
	// original ids.
	rows   []int
	labels []int
}

// mlmSpecial holds the ids masking needs.
type mlmSpecial struct {
	mask, cls, sep, pad int
	vocab               int
}

// maskBatch pads the encodings into a batch and masks it with BERT's recipe
// as transformers' DataCollatorForLanguageModeling applies it: every token
// that is not [CLS], [SEP] or padding is selected with probability prob; a
// selected token becomes [MASK] with probability 0.8, else a uniformly
// random vocabulary id with probability 0.5, else stays as it is (80 / 10 /
// 10 %). The loss is computed on the selected positions only.
func maskBatch(encs []tokenize.Encoding, sp mlmSpecial, prob float64, rng *rand.Rand) *maskedBatch {
	S := 0
	for _, e := range encs {
		S = max(S, e.Len())
	}
	in := &batchInput{B: len(encs), S: S, ids: make([]int, len(encs)*S), types: make([]int, len(encs)*S), keyValid: make([]bool, len(encs)*S)}
	mb := &maskedBatch{in: in}
	for b, e := range encs {
		for t, id := range e.IDs {
			r := b*S + t
			in.ids[r], in.types[r], in.keyValid[r] = id, e.TypeIDs[t], true
			if id == sp.cls || id == sp.sep || id == sp.pad {
				continue
			}
			if rng.Float64() >= prob {
				continue
			}
			mb.rows = append(mb.rows, r)
			mb.labels = append(mb.labels, id)
			switch {
			case rng.Float64() < 0.8:
				in.ids[r] = sp.mask
			case rng.Float64() < 0.5:
				in.ids[r] = rng.Intn(sp.vocab)
			}
		}
	}
	return mb
}
