package train

import (
	"context"
	"math/rand"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
)

// vitB16 is google/vit-base-patch16-224-in21k's geometry with RoViST-VG's
// heads.
func vitB16() vgGeometry {
	return vgGeometry{hidden: 768, layers: 12, heads: 12, intermediate: 3072, channels: 3, patchSize: 16, imageSize: 224,
		eps: 1e-12, joint: 1024, wordDim: 300}
}

// benchVGTrainer builds a trainer with random weights of geometry g, and a
// batch of n random preprocessed images and word vectors.
func benchVGTrainer(g vgGeometry, n int) (*VGTrainer, [][]float32, []float32) {
	rng := rand.New(rand.NewSource(1))
	p := randomVGParams[float32](g, rng, 0.02)
	t := &VGTrainer{opts: VGTrainOptions{}.withDefaults(), geom: g, dev: nn.Device{Backend: compute.CPU()},
		net:   &vgNetwork[float32]{p: p, heads: g.heads, eps: g.eps, buf: &nn.Arena[float32]{}},
		grads: p.zeroLike(), m: nn.ZerosLike(p.tensors()), v: nn.ZerosLike(p.tensors()), tau: 1,
		opt: nn.Adam{LR: 5e-5, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, WeightDecay: 1e-5}}
	pix := make([][]float32, n)
	for i := range pix {
		pix[i] = make([]float32, g.channels*g.imageSize*g.imageSize)
		for j := range pix[i] {
			pix[i][j] = float32(2*rng.Float64() - 1)
		}
	}
	words := make([]float32, n*g.wordDim)
	for i := range words {
		words[i] = float32(rng.NormFloat64() * 0.3)
	}
	return t, pix, words
}

// vgForwardFLOPs counts the multiply-adds ×2 of the ViT and heads on n
// images.
func vgForwardFLOPs(g vgGeometry, n int) float64 {
	S := float64(g.patches() + 1)
	H, I := float64(g.hidden), float64(g.intermediate)
	layer := 2*S*(4*H*H+2*H*I) + 2*2*S*S*H
	patch := 2 * float64(g.patches()) * H * float64(g.channels*g.patchSize*g.patchSize)
	heads := 2 * (H*H + H*float64(g.joint) + float64(g.wordDim*g.joint))
	return float64(n) * (float64(g.layers)*layer + patch + heads)
}

// BenchmarkVGForward is the forward pass and loss of the training network
// on 8 regions with the full-size ViT-B/16.
func BenchmarkVGForward(b *testing.B) {
	t, pix, words := benchVGTrainer(vitB16(), 8)
	ctx := context.Background()
	// One untimed pass fills the arena: the figure is a steady-state pass.
	if _, err := t.lossAndGradientsOf(ctx, pix, words, false); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := t.lossAndGradientsOf(ctx, pix, words, false); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(vgForwardFLOPs(t.geom, 8)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkVGTrainStep is one training step on 8 regions with the
// full-size ViT-B/16: forward, symmetric loss, backward and Adam.
func BenchmarkVGTrainStep(b *testing.B) {
	t, pix, words := benchVGTrainer(vitB16(), 8)
	ctx := context.Background()
	if _, err := t.lossAndGradientsOf(ctx, pix, words, true); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := t.lossAndGradientsOf(ctx, pix, words, true); err != nil {
			b.Fatal(err)
		}
		t.update()
	}
	b.ReportMetric(3*vgForwardFLOPs(t.geom, 8)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s(3×fwd)")
}
