package train

import (
	"math/rand"
	"testing"

	"github.com/storyeval/storyeval/encoders/tokenize"
)

// FuzzMaskBatch checks BERT's masking on arbitrary batches: only ordinary
// tokens are selected, labels are the original ids, unselected tokens are
// unchanged and every id stays in the vocabulary.
func FuzzMaskBatch(f *testing.F) {
	f.Add([]byte{2, 7, 8, 9, 3, 0, 2, 5, 3}, uint8(40), int64(1))
	f.Add([]byte{2, 3}, uint8(255), int64(2))
	f.Fuzz(func(t *testing.T, data []byte, p uint8, seed int64) {
		sp := mlmSpecial{mask: 4, cls: 2, sep: 3, pad: 0, vocab: 12}
		var encs []tokenize.Encoding
		var cur tokenize.Encoding
		for _, b := range data {
			cur.IDs = append(cur.IDs, int(b)%sp.vocab)
			cur.TypeIDs = append(cur.TypeIDs, 0)
			if b%5 == 0 {
				encs, cur = append(encs, cur), tokenize.Encoding{}
			}
		}
		if len(cur.IDs) > 0 {
			encs = append(encs, cur)
		}
		if len(encs) == 0 {
			return
		}
		prob := float64(p) / 256
		mb := maskBatch(encs, sp, prob, rand.New(rand.NewSource(seed)))
		selected := map[int]bool{}
		for i, r := range mb.rows {
			b, tok := r/mb.in.S, r%mb.in.S
			orig := encs[b].IDs[tok]
			if orig != mb.labels[i] || orig == sp.cls || orig == sp.sep || orig == sp.pad {
				t.Fatalf("row %d: label %d, original %d", r, mb.labels[i], orig)
			}
			selected[r] = true
		}
		for b, e := range encs {
			for tok, id := range e.IDs {
				r := b*mb.in.S + tok
				got := mb.in.ids[r]
				if got < 0 || got >= sp.vocab || (!selected[r] && got != id) || !mb.in.keyValid[r] {
					t.Fatalf("row %d: id %d, original %d, selected %v", r, got, id, selected[r])
				}
			}
		}
	})
}
