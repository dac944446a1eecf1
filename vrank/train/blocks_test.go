package train

import (
	"context"
	"math/rand"
	"testing"
)

// The blocks themselves (linear, LayerNorm, GELU, attention, dropout masks)
// are checked in encoders/nn; this checks that the network wires the
// encoder dropout in.

// TestEncoderDropoutChangesForward checks that a forward pass with encoder
// dropout differs from one without on every prediction.
func TestEncoderDropoutChangesForward(t *testing.T) {
	cfg := tinyBERT(20)
	p := newParams[float64](cfg, false)
	initRandomParams(p, rand.New(rand.NewSource(3)), 0.5)
	net := &network[float64]{p: p, H: cfg.HiddenSize, I: cfg.IntermediateSize, heads: cfg.NumAttentionHeads, eps: 1e-12}
	plain, err := net.forward(context.Background(), tinyBatch(), rand.New(rand.NewSource(1)))
	if err != nil {
		t.Fatal(err)
	}
	want := append([]float64(nil), plain.pred...)
	net.encDropout = 0.3
	dropped, err := net.forward(context.Background(), tinyBatch(), rand.New(rand.NewSource(1)))
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for i := range want {
		if dropped.pred[i] == want[i] {
			same++
		}
	}
	if same > 0 {
		t.Errorf("%d of %d predictions unchanged by encoder dropout", same, len(want))
	}
}
