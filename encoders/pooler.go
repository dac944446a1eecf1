package encoders

import "github.com/storyeval/storyeval/encoders/compute"

// poolCLS is BERT's and ALBERT's pooler: tanh(dense(h)) at position 0 of
// each sequence.
func poolCLS(be compute.Backend, pooler *linear, x compute.Tensor, batch, seq int) compute.Tensor {
	cls := firstRows(be, x, batch, seq, pooler.in)
	out := be.Alloc(batch * pooler.out)
	pooler.applyAct(be, out, cls, batch, compute.Tanh)
	be.Free(cls)
	return out
}

// firstRows gathers the row at position 0 of each of batch sequences of
// seq rows of width w.
func firstRows(be compute.Backend, x compute.Tensor, batch, seq, w int) compute.Tensor {
	idx := make([]int, batch)
	for b := range idx {
		idx[b] = b * seq
	}
	out := be.Alloc(batch * w)
	be.Rows(out, x, w, idx)
	return out
}
