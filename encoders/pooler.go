package encoders

// poolCLS is BERT's and ALBERT's pooler: tanh(dense(h)) at position 0 of
// each sequence.
func poolCLS(pooler *linear, x []float32, batch, seq int) []float32 {
	H := pooler.in
	cls := make([]float32, batch*H)
	for b := 0; b < batch; b++ {
		copy(cls[b*H:(b+1)*H], x[b*seq*H:])
	}
	out := make([]float32, batch*pooler.out)
	pooler.apply(out, cls, batch)
	tanhInPlace(out)
	return out
}
