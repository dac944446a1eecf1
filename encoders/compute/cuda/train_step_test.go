package cuda

import (
	"math"
	mrand "math/rand"
	"math/rand/v2"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
)

// layerStep is one training step of a post-LN BERT layer with a
// regression head on its [CLS] rows, written with compute.TrainBackend's
// operations alone: forward with what the backward needs saved, MSE loss,
// backward, Adam on every parameter. It is the shape of a Vrank step (the
// other trainers differ in their loss), small enough to run in a second.
type layerStep struct {
	B, S, H, heads, I int
	x                 []float32 // the layer's input [B·S, H]
	valid             []bool    // key mask
	targets           []float64 // one per sequence
	params            map[string][]float32
	drop              compute.Dropout
}

// paramShapes lists the parameters as (name, rows, cols) of y = x·Wᵀ + b.
func (s *layerStep) paramNames() []string {
	return []string{"q.w", "q.b", "k.w", "k.b", "v.w", "v.b", "o.w", "o.b", "ln1.g", "ln1.b", "fc1.w", "fc1.b", "fc2.w", "fc2.b", "ln2.g", "ln2.b", "head.w", "head.b"}
}

func newLayerStep(r *rand.Rand) *layerStep {
	s := &layerStep{B: 4, S: 12, H: 64, heads: 4, I: 128, drop: compute.NewDropout(0.1, mrand.New(mrand.NewSource(5)))}
	s.x = randomValues(r, s.B*s.S*s.H, 1)
	s.valid = make([]bool, s.B*s.S)
	for i := range s.valid {
		s.valid[i] = i%s.S < 6+i/s.S*2
	}
	s.targets = []float64{0.5, -0.25, 1, 0}
	H, I := s.H, s.I
	size := map[string]int{"q.w": H * H, "k.w": H * H, "v.w": H * H, "o.w": H * H, "fc1.w": I * H, "fc1.b": I, "fc2.w": H * I, "head.w": H, "head.b": 1}
	s.params = map[string][]float32{}
	for _, name := range s.paramNames() {
		n, ok := size[name]
		if !ok {
			n = H
		}
		s.params[name] = randomValues(r, n, 0.1)
		if name == "ln1.g" || name == "ln2.g" {
			for i := range s.params[name] {
				s.params[name][i] += 1
			}
		}
	}
	return s
}

// run performs the step on be and returns the loss and, by name, every
// gradient ("d"+name) and updated parameter.
func (s *layerStep) run(be compute.TrainBackend) (float64, map[string][]float32) {
	B, S, H, I := s.B, s.S, s.H, s.I
	rows := B * S
	p, g, m, v := map[string]compute.Tensor{}, map[string]compute.Tensor{}, map[string]compute.Tensor{}, map[string]compute.Tensor{}
	for _, name := range s.paramNames() {
		p[name] = be.Upload(s.params[name])
		n := len(s.params[name])
		g[name], m[name], v[name] = be.Alloc(n), be.Alloc(n), be.Alloc(n)
	}
	// linear: y = x·Wᵀ + b with act, keeping the pre-activation in pre.
	linear := func(x compute.Tensor, name string, rows, out, in int, act compute.Activation) (y, pre compute.Tensor) {
		pre, y = be.Alloc(rows*out), be.Alloc(rows*out)
		be.Gemm(false, true, rows, out, in, 1, x, in, p[name+".w"], in, 0, pre, out)
		be.BiasActSave(y, pre, p[name+".b"], out, act)
		return y, pre
	}
	// linearBack accumulates dW, db and returns dx (added into dxInto when given).
	linearBack := func(x, dy, pre compute.Tensor, name string, rows, out, in int, act compute.Activation, dxInto compute.Tensor) compute.Tensor {
		be.BiasActBackward(dy, g[name+".b"], dy, pre, out, act)
		be.Gemm(true, false, out, in, rows, 1, dy, out, x, in, 1, g[name+".w"], in)
		dx, beta := dxInto, float32(1)
		if dx == nil {
			dx, beta = be.Alloc(rows*in), 0
		}
		be.Gemm(false, false, rows, in, out, 1, dy, out, p[name+".w"], in, beta, dx, in)
		return dx
	}
	x := be.Upload(s.x)
	q, qp := linear(x, "q", rows, H, H, compute.Identity)
	k, kp := linear(x, "k", rows, H, H, compute.Identity)
	vv, vp := linear(x, "v", rows, H, H, compute.Identity)
	shape := compute.AttentionShape{Batch: B, Seq: S, Heads: s.heads, HeadDim: H / s.heads, Scale: float32(1 / math.Sqrt(float64(H/s.heads)))}
	mask := compute.Mask{KeyValid: s.valid}
	ctx, probs := be.Alloc(rows*H), be.Alloc(B*s.heads*S*S)
	be.AttentionSave(ctx, q, k, vv, shape, mask, probs, s.drop, 1)
	a, ap := linear(ctx, "o", rows, H, H, compute.Identity)
	be.Add(a, x)
	h1, xhat1, rstd1 := be.Alloc(rows*H), be.Alloc(rows*H), be.Alloc(rows)
	be.LayerNormSave(h1, a, p["ln1.g"], p["ln1.b"], H, 1e-12, xhat1, rstd1)
	f, fp := linear(h1, "fc1", rows, I, H, compute.GELU)
	o, op := linear(f, "fc2", rows, H, I, compute.Identity)
	be.Add(o, h1)
	h2, xhat2, rstd2 := be.Alloc(rows*H), be.Alloc(rows*H), be.Alloc(rows)
	be.LayerNormSave(h2, o, p["ln2.g"], p["ln2.b"], H, 1e-12, xhat2, rstd2)
	cls := make([]int, B)
	for i := range cls {
		cls[i] = i * S
	}
	pooled := be.Alloc(B * H)
	be.Rows(pooled, h2, H, cls)
	pred, predPre := linear(pooled, "head", B, 1, H, compute.Tanh)
	dpred := be.Alloc(B)
	loss := be.MSELoss(dpred, pred, s.targets)

	dpooled := linearBack(pooled, dpred, predPre, "head", B, 1, H, compute.Tanh, nil)
	dh2 := be.Alloc(rows * H)
	be.RowsBackward(dh2, dpooled, H, cls)
	be.LayerNormBackward(dh2, g["ln2.g"], g["ln2.b"], dh2, xhat2, rstd2, p["ln2.g"], H)
	dh1 := be.Alloc(rows * H)
	be.Copy(dh1, dh2) // the residual
	df := linearBack(f, dh2, op, "fc2", rows, H, I, compute.Identity, nil)
	linearBack(h1, df, fp, "fc1", rows, I, H, compute.GELU, dh1)
	be.LayerNormBackward(dh1, g["ln1.g"], g["ln1.b"], dh1, xhat1, rstd1, p["ln1.g"], H)
	dctx := linearBack(ctx, dh1, ap, "o", rows, H, H, compute.Identity, nil)
	dq, dk, dv := be.Alloc(rows*H), be.Alloc(rows*H), be.Alloc(rows*H)
	be.AttentionBackward(dq, dk, dv, dctx, q, k, vv, probs, shape, mask, s.drop, 1)
	for _, c := range []struct {
		name    string
		dy, pre compute.Tensor
	}{{"q", dq, qp}, {"k", dk, kp}, {"v", dv, vp}} {
		linearBack(x, c.dy, c.pre, c.name, rows, H, H, compute.Identity, nil)
	}
	out := map[string][]float32{}
	for _, name := range s.paramNames() {
		grad := make([]float32, len(s.params[name]))
		be.Download(grad, g[name])
		out["d"+name] = grad
		be.Adam(p[name], g[name], m[name], v[name], compute.AdamStep{LR: 1e-3, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, WeightDecay: 0.01, Decoupled: true, Step: 1})
		upd := make([]float32, len(s.params[name]))
		be.Download(upd, p[name])
		out[name] = upd
	}
	return loss, out
}

// TestGPUTrainingStepMatchesCPU runs one training step of a BERT layer
// with a regression head (dropout on) on the CPU backend and on the GPU
// and compares the loss, every gradient and every updated weight within
// 1e-5 relative, the bound for a trainer's step.
func TestGPUTrainingStepMatchesCPU(t *testing.T) {
	b := openBackend(t, false)
	s := newLayerStep(rand.New(rand.NewPCG(51, 52)))
	wantLoss, want := s.run(compute.CPU())
	gotLoss, got := s.run(b)
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(gotLoss - wantLoss); d > trainTol*math.Max(1, math.Abs(wantLoss)) {
		t.Errorf("loss %v on CUDA, %v on the CPU", gotLoss, wantLoss)
	}
	t.Logf("loss %v (CPU %v)", gotLoss, wantLoss)
	for _, name := range s.paramNames() {
		closeTo(t, "gradient of "+name, got["d"+name], want["d"+name], trainTol)
		closeTo(t, "updated "+name, got[name], want[name], trainTol)
	}
}

// TestLayerStepOnCPU runs the step TestGPUTrainingStepMatchesCPU compares
// on the CPU alone (no GPU needed): every gradient is finite and not all
// zero, and the updated weights lower the loss of the same batch.
func TestLayerStepOnCPU(t *testing.T) {
	s := newLayerStep(rand.New(rand.NewPCG(51, 52)))
	loss, out := s.run(compute.CPU())
	if math.IsNaN(loss) || loss <= 0 {
		t.Fatalf("loss %v", loss)
	}
	for _, name := range s.paramNames() {
		nonzero := false
		for _, v := range out["d"+name] {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("gradient of %s has %v", name, v)
			}
			nonzero = nonzero || v != 0
		}
		if !nonzero {
			t.Errorf("gradient of %s is all zero", name)
		}
		s.params[name] = out[name]
	}
	after, _ := s.run(compute.CPU())
	if !(after < loss) {
		t.Errorf("loss %v after the step, %v before", after, loss)
	}
	t.Logf("loss %v, after one step %v", loss, after)
}
