package train

import (
	"context"
	"github.com/storyeval/storyeval/encoders/nn"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders"
)

// tinyBERT is a BERT small enough for finite differences and quick training.
func tinyBERT(vocab int) encoders.BERTConfig {
	return encoders.BERTConfig{VocabSize: vocab, HiddenSize: 8, NumHiddenLayers: 2, NumAttentionHeads: 2,
		IntermediateSize: 12, HiddenAct: "gelu", MaxPositionEmbeddings: 16, TypeVocabSize: 2, LayerNormEps: 1e-12}
}

// initRandomParams fills parameters as BERT initialises them (see
// vrank.NewRandom): normal(0, std) matrices, zero biases, unit LayerNorm
// gammas.
func initRandomParams[T nn.Float](p *params[T], rng *rand.Rand, std float64) {
	for _, t := range p.tensors() {
		for i := range t.Data {
			switch {
			case len(t.Shape) > 1:
				t.Data[i] = T(rng.NormFloat64() * std)
			case strings.HasSuffix(t.Name, "LayerNorm.weight"):
				t.Data[i] = 1
			default:
				t.Data[i] = 0
			}
		}
	}
}

// tinyBatch is three sequences of different lengths padded to 7 tokens,
// with both token types.
func tinyBatch() *batchInput {
	lens := []int{7, 4, 2}
	in := &batchInput{B: 3, S: 7}
	for b, n := range lens {
		for t := 0; t < in.S; t++ {
			in.ids = append(in.ids, (b*5+t*3)%20)
			in.types = append(in.types, (t*b)%2)
			in.keyValid = append(in.keyValid, t < n)
		}
	}
	return in
}

// TestBackwardMatchesFiniteDifferences checks every gradient of the float64
// network (embeddings, LayerNorms, attention, GELU feed-forward, pooler,
// dropout, head, MSE) against central differences of the loss. Because the
// gradient of each layer's parameters depends on the input gradients of
// every block above it, this checks each block's input gradient too.
func TestBackwardMatchesFiniteDifferences(t *testing.T) {
	for _, tc := range []struct {
		name       string
		pooler     bool
		dropout    float64
		encDropout float64
	}{{"cls", false, 0, 0}, {"pooler", true, 0, 0}, {"cls+dropout", false, 0.3, 0}, {"encoder dropout", true, 0.3, 0.2}} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tinyBERT(20)
			p := newParams[float64](cfg, tc.pooler)
			initRandomParams(p, rand.New(rand.NewSource(3)), 0.5)
			// Non-trivial LayerNorm parameters and biases.
			rng := rand.New(rand.NewSource(4))
			for _, nt := range p.tensors() {
				if len(nt.Shape) == 1 {
					for i := range nt.Data {
						nt.Data[i] += 0.3 * rng.NormFloat64()
					}
				}
			}
			net := &network[float64]{p: p, H: cfg.HiddenSize, I: cfg.IntermediateSize, heads: cfg.NumAttentionHeads, eps: 1e-12, dropout: tc.dropout, encDropout: tc.encDropout}
			in := tinyBatch()
			targets := []float64{0.7, -1.2, 0.1}
			loss := func() float64 {
				c, err := net.forward(context.Background(), in, rand.New(rand.NewSource(9)))
				if err != nil {
					t.Fatal(err)
				}
				l, _ := mseLoss(c.pred, targets)
				return l
			}
			c, err := net.forward(context.Background(), in, rand.New(rand.NewSource(9)))
			if err != nil {
				t.Fatal(err)
			}
			_, dpred := mseLoss(c.pred, targets)
			g := p.zeroLike()
			if err := net.backward(context.Background(), c, dpred, g); err != nil {
				t.Fatal(err)
			}
			gts := g.tensors()
			checked := 0
			for ti, nt := range p.tensors() {
				worst := 0.0
				for i := range nt.Data {
					orig := nt.Data[i]
					const h = 1e-5
					nt.Data[i] = orig + h
					up := loss()
					nt.Data[i] = orig - h
					down := loss()
					nt.Data[i] = orig
					num := (up - down) / (2 * h)
					ana := gts[ti].Data[i]
					err := math.Abs(num-ana) / math.Max(1e-3, math.Abs(num))
					worst = math.Max(worst, err)
					checked++
				}
				if worst > 1e-5 {
					t.Errorf("%s: worst relative error %.3g between analytic and numeric gradient", nt.Name, worst)
				}
			}
			t.Logf("%d gradient elements checked", checked)
		})
	}
}
