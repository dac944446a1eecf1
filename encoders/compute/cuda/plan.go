package cuda

import "fmt"

// BatchPlan sizes batches to the GPU's free memory.
type BatchPlan struct {
	// Free is the device memory available, in bytes (Device.MemInfo).
	Free uint64
	// Fixed is what the run needs whatever the batch (weights, workspace).
	Fixed uint64
	// PerItem is what one item of a batch adds (its activations).
	PerItem uint64
	// Headroom is the fraction of Free left unused for the allocator's
	// fragmentation and cuBLAS's workspace; 0 means DefaultHeadroom.
	Headroom float64
}

// DefaultHeadroom leaves a tenth of the free memory unused.
const DefaultHeadroom = 0.1

// Size returns the largest batch, at most limit (limit ≤ 0: no limit),
// whose memory fits, or an error naming the sizes when not even one item
// does.
func (p BatchPlan) Size(limit int) (int, error) {
	h := p.Headroom
	if h <= 0 {
		h = DefaultHeadroom
	}
	if h >= 1 {
		return 0, fmt.Errorf("cuda: batch plan: headroom %g leaves no memory", h)
	}
	usable := uint64(float64(p.Free) * (1 - h))
	if p.PerItem == 0 {
		return 0, fmt.Errorf("cuda: batch plan: an item needs no memory")
	}
	if p.Fixed+p.PerItem > usable {
		return 0, fmt.Errorf("cuda: batch plan: one item needs %.1f MiB beside %.1f MiB fixed, %.1f MiB of the %.1f MiB free are usable",
			mib(p.PerItem), mib(p.Fixed), mib(usable), mib(p.Free))
	}
	n := (usable - p.Fixed) / p.PerItem
	if limit > 0 && n > uint64(limit) {
		n = uint64(limit)
	}
	return int(n), nil
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// EncoderForwardBytes estimates the device memory one sequence of seq
// tokens adds to a transformer encoder's forward pass, with activations
// kept for one layer at a time (as the CPU path's scratch): the hidden
// states, Q, K, V, the context, the attention output and the residual
// ([seq, hidden] each), the feed-forward activation [seq, inter] and the
// attention scores [heads, seq, seq], in float32.
func EncoderForwardBytes(seq, hidden, inter, heads int) uint64 {
	values := uint64(seq) * (7*uint64(hidden) + uint64(inter) + uint64(heads)*uint64(seq))
	return 4 * values
}
