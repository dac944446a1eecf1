package encoders

import (
	"math"
	"math/rand"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
)

// stepModel is a small BERT with Vrank's head (tanh pooler, Linear(H, 1)):
// its parameters, or their gradients.
type stepModel struct {
	word, pos, typ []float32
	embLN          nn.Norm[float32]
	layers         []nn.EncoderLayer[float32]
	pooler, head   nn.Linear[float32]
}

const stepV, stepH, stepI, stepHeads, stepLayers = 30, 8, 16, 2, 2

func newStepModel(rng *rand.Rand) *stepModel {
	m := &stepModel{word: make([]float32, stepV*stepH), pos: make([]float32, 8*stepH), typ: make([]float32, 2*stepH),
		embLN: nn.NewNorm[float32](stepH), pooler: nn.NewLinear[float32](stepH, stepH), head: nn.NewLinear[float32](1, stepH)}
	for range stepLayers {
		m.layers = append(m.layers, nn.NewEncoderLayer[float32](stepH, stepI))
	}
	if rng != nil {
		for _, p := range m.tensors() {
			for i := range p {
				p[i] = float32(0.3 * rng.NormFloat64())
			}
		}
	}
	return m
}

// tensors lists every parameter slice.
func (m *stepModel) tensors() [][]float32 {
	ts := [][]float32{m.word, m.pos, m.typ, m.embLN.G, m.embLN.B, m.pooler.W, m.pooler.B, m.head.W, m.head.B}
	for i := range m.layers {
		l := &m.layers[i]
		for _, x := range []*nn.Linear[float32]{&l.Q, &l.K, &l.V, &l.O, &l.FC1, &l.FC2} {
			ts = append(ts, x.W, x.B)
		}
		ts = append(ts, l.LN1.G, l.LN1.B, l.LN2.G, l.LN2.B)
	}
	return ts
}

// trainingStep runs one Vrank step (embeddings with dropout, post-LN
// layers with dropout and the last computing only [CLS], tanh pooler,
// head, MSE) on be through the nn layers and the TrainBackend operations
// alone, accumulating the gradients into g, and returns the loss.
func trainingStep(be compute.TrainBackend, tensor func([]float32) compute.Tensor, m, g *stepModel) float64 {
	const B, S, H = 3, 5, stepH
	ids := []int{2, 7, 9, 3, 0, 2, 11, 29, 0, 0, 2, 4, 4, 4, 3}
	types := []int{0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1}
	keyValid := []bool{true, true, true, true, false, true, true, true, false, false, true, true, true, true, true}
	target := []float64{0.5, -1, 2}
	drop := nn.NewDropout(0.2, rand.New(rand.NewSource(9)))
	buf := func(n int) compute.Tensor { return tensor(make([]float32, n)) }
	norm := func(n *nn.Norm[float32]) nn.NormT { return nn.NormT{G: tensor(n.G), B: tensor(n.B)} }
	lin := func(l *nn.Linear[float32]) nn.LinearT {
		return nn.LinearT{W: tensor(l.W), B: tensor(l.B), Out: l.Out, In: l.In}
	}

	x := buf(B * S * H)
	be.Embed(x, H, []compute.Tensor{tensor(m.word), tensor(m.pos), tensor(m.typ)}, [][]int{ids, nil, types}, []int{0, S, 0})
	emb := nn.NormSave{XHat: buf(B * S * H), RStd: buf(B * S)}
	norm(&m.embLN).Forward(be, x, x, H, 1e-12, &emb)
	be.Dropout(x, drop, nn.Site(-1, nn.SiteEmbeddings))
	e := &nn.EncoderPass[float32]{B: B, S: S, H: H, Heads: stepHeads, KeyValid: keyValid, Eps: 1e-12, Drop: drop,
		Act: compute.GELU, ActBuf: new([]float32), Backend: be, Tensor: tensor}
	caches := make([]nn.PostLNCache[float32], stepLayers)
	for li := range m.layers {
		sq := S
		if li == stepLayers-1 {
			sq = 1
		}
		x = nn.PostLNForwardT(m.layers[li].Tensors(tensor), x, sq, li, e, &caches[li])
	}
	first := []int{0, 1, 2} // the last layer's rows are the [CLS] rows
	cls, pre, pooled, pred, dpred := buf(B*H), buf(B*H), buf(B*H), buf(B), buf(B)
	be.Rows(cls, x, H, first)
	pl := lin(&m.pooler)
	be.Gemm(false, true, B, H, H, 1, cls, H, pl.W, H, 0, pre, H)
	be.BiasActSave(pooled, pre, pl.B, H, compute.Tanh)
	lin(&m.head).Forward(be, pred, pooled, B, compute.Identity)
	loss := be.MSELoss(dpred, pred, target)

	dpooled, dcls, dx := buf(B*H), buf(B*H), buf(B*H)
	lin(&m.head).Backward(be, lin(&g.head), pooled, dpred, B, dpooled, 0)
	be.BiasActBackward(dpooled, tensor(g.pooler.B), dpooled, pre, H, compute.Tanh)
	pl.Backward(be, nn.LinearT{W: tensor(g.pooler.W)}, cls, dpooled, B, dcls, 0)
	be.RowsBackward(dx, dcls, H, first)
	w := nn.NewPostLNWork(e, stepI)
	for li := stepLayers - 1; li >= 0; li-- {
		dx = nn.PostLNBackwardT(m.layers[li].Tensors(tensor), g.layers[li].Tensors(tensor), &caches[li], dx, li, e, w)
	}
	be.Dropout(dx, drop, nn.Site(-1, nn.SiteEmbeddings))
	norm(&m.embLN).Backward(be, norm(&g.embLN), &emb, dx, dx, H)
	be.EmbedBackward([]compute.Tensor{tensor(g.word), tensor(g.pos), tensor(g.typ)}, H, [][]int{ids, nil, types}, []int{0, S, 0}, dx)
	return loss
}

// TestTrainingStepOnReferenceBackend runs one BERT/Vrank training step
// and an Adam update on the CPU backend and on refBackend (naive float64
// loops, its own tensors, reached only through compute.TrainBackend and an
// nn.Mirror): the loss, every gradient and every updated parameter agree
// within float32 tolerance, so training depends on the interface alone.
func TestTrainingStepOnReferenceBackend(t *testing.T) {
	cpuModel, refModel := newStepModel(rand.New(rand.NewSource(1))), newStepModel(rand.New(rand.NewSource(1)))
	cpuGrad, refGrad := newStepModel(nil), newStepModel(nil)
	cpu := compute.CPU()
	lossCPU := trainingStep(cpu, func(x []float32) compute.Tensor {
		if len(x) == 0 {
			return nil
		}
		return compute.Host(x)
	}, cpuModel, cpuGrad)
	var ref refBackend
	mirror := nn.NewMirror(ref)
	lossRef := trainingStep(ref, mirror.Tensor, refModel, refGrad)
	if math.Abs(lossCPU-lossRef) > 1e-5*math.Abs(lossCPU) {
		t.Errorf("loss: CPU %.9g, reference %.9g", lossCPU, lossRef)
	}
	gc, gr := cpuGrad.tensors(), refGrad.tensors()
	pc, pr := cpuModel.tensors(), refModel.tensors()
	// Each difference is taken relative to its tensor's largest gradient,
	// or to 1e-4 of the model's largest for a tensor whose gradient is
	// only rounding residue (the key biases': a softmax ignores a shift of
	// its input), which has no digits to compare.
	scales, top := make([]float64, len(gc)), 0.0
	for i := range gc {
		mirror.Download(gr[i])
		for _, v := range gc[i] {
			scales[i] = math.Max(scales[i], math.Abs(float64(v)))
		}
		top = math.Max(top, scales[i])
	}
	worst := 0.0
	for i := range gc {
		for j := range gc[i] {
			worst = math.Max(worst, math.Abs(float64(gc[i][j]-gr[i][j]))/math.Max(scales[i], 1e-4*top))
		}
	}
	t.Logf("loss %.6g; worst gradient difference %.3g of its tensor's largest", lossCPU, worst)
	if worst > 1e-5 {
		t.Errorf("gradients differ by %.3g of their tensor's largest value", worst)
	}
	// Adam on the CPU's gradients, on both backends.
	s := compute.AdamStep{LR: 1e-3, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, WeightDecay: 0.01, Step: 1}
	for i := range pc {
		mc, vc := make([]float32, len(pc[i])), make([]float32, len(pc[i]))
		cpu.Adam(compute.Host(pc[i]), compute.Host(gc[i]), compute.Host(mc), compute.Host(vc), s)
		rp := mirror.Tensor(pr[i])
		ref.Adam(rp, ref.Upload(gc[i]), ref.Alloc(len(pr[i])), ref.Alloc(len(pr[i])), s)
		mirror.Download(pr[i])
		for j := range pc[i] {
			if d := math.Abs(float64(pc[i][j] - pr[i][j])); d > 1e-6 {
				t.Fatalf("Adam: parameter %d[%d]: CPU %g, reference %g", i, j, pc[i][j], pr[i][j])
			}
		}
	}
}
