package encoders

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"gorgonia.org/tensor"
)

// textBatch is a padded batch of token sequences in flat row-major form.
type textBatch struct {
	batch, seq int
	ids, types []int
	keyValid   []bool
}

// newTextBatch checks that the encodings form a rectangular batch whose ids
// fit the vocabulary, types fit typeVocab (0 to skip the check) and length
// fits maxPos.
func newTextBatch(encs []tokenize.Encoding, vocab, typeVocab, maxPos int) (*textBatch, error) {
	if len(encs) == 0 {
		return nil, fmt.Errorf("empty batch")
	}
	seq := encs[0].Len()
	if seq == 0 {
		return nil, fmt.Errorf("sequence 0 is empty")
	}
	if seq > maxPos {
		return nil, fmt.Errorf("sequences of %d tokens exceed the model's %d positions (truncate when encoding)", seq, maxPos)
	}
	tb := &textBatch{batch: len(encs), seq: seq, ids: make([]int, 0, len(encs)*seq), types: make([]int, 0, len(encs)*seq), keyValid: make([]bool, 0, len(encs)*seq)}
	for b, e := range encs {
		if e.Len() != seq || len(e.IDs) != seq || len(e.AttentionMask) != seq {
			return nil, fmt.Errorf("sequence %d has %d tokens, sequence 0 has %d: pad the batch", b, e.Len(), seq)
		}
		for t := 0; t < seq; t++ {
			id := e.IDs[t]
			if id < 0 || id >= vocab {
				return nil, fmt.Errorf("sequence %d position %d: token id %d outside the vocabulary of %d", b, t, id, vocab)
			}
			typ := 0
			if len(e.TypeIDs) == seq {
				typ = e.TypeIDs[t]
			} else if len(e.TypeIDs) != 0 {
				return nil, fmt.Errorf("sequence %d has %d token types for %d tokens", b, len(e.TypeIDs), seq)
			}
			if typeVocab > 0 && (typ < 0 || typ >= typeVocab) {
				return nil, fmt.Errorf("sequence %d position %d: token type %d outside 0..%d", b, t, typ, typeVocab-1)
			}
			tb.ids = append(tb.ids, id)
			tb.types = append(tb.types, typ)
			tb.keyValid = append(tb.keyValid, e.AttentionMask[t] != 0)
		}
	}
	return tb, nil
}

// denseOf wraps data as a float32 tensor of the given shape.
func denseOf(data []float32, shape ...int) *tensor.Dense {
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data))
}

// embed writes word + absolute position + token type embeddings of width w
// for every token of the batch into x (BERT's and ALBERT's embeddings
// before their LayerNorm).
func (tb *textBatch) embed(be compute.Backend, x compute.Tensor, w int, word, pos, typ compute.Tensor) {
	be.Embed(x, w, []compute.Tensor{word, pos, typ}, [][]int{tb.ids, nil, tb.types}, []int{0, tb.seq, 0})
}
