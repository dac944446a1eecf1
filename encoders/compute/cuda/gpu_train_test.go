package cuda

import (
	"fmt"
	"math"
	mrand "math/rand"
	"math/rand/v2"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
)

// trainTol is the bound for a training step on CUDA against the
// CPU: 1e-5 relative (closeTo: relative above 1, absolute below).
const trainTol = 1e-5

// trainCase runs op on the CPU backend and on b with the same inputs and
// compares every tensor and scalar op returns within tol.
func trainCase(t *testing.T, b *Backend, what string, tol float64, inputs [][]float32,
	op func(be compute.TrainBackend, in []compute.Tensor) ([]compute.Tensor, []float64)) {
	t.Helper()
	run := func(be compute.TrainBackend) ([][]float32, []float64) {
		in := make([]compute.Tensor, len(inputs))
		for i, x := range inputs {
			in[i] = be.Upload(x)
		}
		outs, scalars := op(be, in)
		got := make([][]float32, len(outs))
		for i, o := range outs {
			got[i] = make([]float32, o.Len())
			be.Download(got[i], o)
		}
		return got, scalars
	}
	want, wantS := run(compute.CPU())
	got, gotS := run(b)
	if err := b.Err(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for i := range want {
		closeTo(t, what+" output "+string(rune('0'+i))+" (CUDA vs CPU backend)", got[i], want[i], tol)
	}
	for i := range wantS {
		if d := math.Abs(gotS[i] - wantS[i]); !(d <= tol*math.Max(1, math.Abs(wantS[i]))) {
			t.Errorf("%s: scalar %d is %v on CUDA, %v on the CPU", what, i, gotS[i], wantS[i])
		}
	}
}

func zeros(n int) []float32 { return make([]float32, n) }

// TestGPUTrainOpsMatchCPU runs every compute.TrainBackend operation on the
// CPU backend and on the GPU with the same inputs, at the sizes of BERT's
// layers (rows longer than a block, several blocks per row).
func TestGPUTrainOpsMatchCPU(t *testing.T) {
	b := openBackend(t, false)
	r := rand.New(rand.NewPCG(41, 42))
	const rows, w = 65, 768
	n := rows * w
	x, bias, dy := randomValues(r, n, 3), randomValues(r, w, 1), randomValues(r, n, 1)
	for act := compute.Identity; act <= compute.Tanh; act++ {
		trainCase(t, b, fmt.Sprintf("BiasActSave+BiasActBackward (activation %d)", act), trainTol, [][]float32{x, bias, dy, zeros(n), zeros(n), randomValues(r, w, 1)},
			func(be compute.TrainBackend, in []compute.Tensor) ([]compute.Tensor, []float64) {
				be.BiasActSave(in[3], in[0], in[1], w, act)
				be.BiasActBackward(in[4], in[5], in[2], in[0], w, act)
				return []compute.Tensor{in[3], in[0], in[4], in[5]}, nil
			})
	}
	trainCase(t, b, "LayerNormSave+LayerNormBackward", trainTol,
		[][]float32{x, randomValues(r, w, 1), randomValues(r, w, 1), dy, zeros(n), zeros(rows), randomValues(r, w, 1), randomValues(r, w, 1)},
		func(be compute.TrainBackend, in []compute.Tensor) ([]compute.Tensor, []float64) {
			dst := be.Alloc(n)
			be.LayerNormSave(dst, in[0], in[1], in[2], w, 1e-12, in[4], in[5])
			be.LayerNormBackward(in[3], in[6], in[7], in[3], in[4], in[5], in[1], w) // dx in place of dy
			return []compute.Tensor{dst, in[4], in[5], in[3], in[6], in[7]}, nil
		})

	for _, c := range []struct {
		name    string
		queries int
		causal  bool
		drop    float64
	}{{"all queries", 0, false, 0}, {"CLS query only", 1, false, 0}, {"causal", 0, true, 0}, {"dropout", 0, false, 0.1}, {"CLS, dropout", 1, false, 0.1}} {
		s := compute.AttentionShape{Batch: 3, Seq: 37, Heads: 4, HeadDim: 16, Queries: c.queries}
		s.Scale = float32(1 / math.Sqrt(16))
		H := s.Heads * s.HeadDim
		nq, nk, np := s.Batch*s.QueryRows()*H, s.Batch*s.Seq*H, s.Batch*s.Heads*s.QueryRows()*s.Seq
		valid := make([]bool, s.Batch*s.Seq)
		for i := range valid {
			valid[i] = i%s.Seq < 20+i/s.Seq*8
		}
		mask := compute.Mask{KeyValid: valid, Causal: c.causal}
		d := compute.NewDropout(c.drop, mrand.New(mrand.NewSource(1)))
		trainCase(t, b, "AttentionSave+AttentionBackward "+c.name, trainTol,
			[][]float32{randomValues(r, nq, 2), randomValues(r, nk, 2), randomValues(r, nk, 1), randomValues(r, nq, 1)},
			func(be compute.TrainBackend, in []compute.Tensor) ([]compute.Tensor, []float64) {
				dst, probs := be.Alloc(nq), be.Alloc(np)
				be.AttentionSave(dst, in[0], in[1], in[2], s, mask, probs, d, 7)
				dq, dk, dv := be.Alloc(nq), be.Alloc(nk), be.Alloc(nk)
				be.AttentionBackward(dq, dk, dv, in[3], in[0], in[1], in[2], probs, s, mask, d, 7)
				return []compute.Tensor{dst, probs, dq, dk, dv}, nil
			})
	}

	const vocab, period = 30, 7
	ids := make([]int, rows)
	for i := range ids {
		ids[i] = r.IntN(vocab)
	}
	trainCase(t, b, "EmbedBackward+RowsBackward", 0, [][]float32{dy, randomValues(r, vocab*w, 1), randomValues(r, period*w, 1), randomValues(r, n, 1), randomValues(r, 4*w, 1)},
		func(be compute.TrainBackend, in []compute.Tensor) ([]compute.Tensor, []float64) {
			be.EmbedBackward([]compute.Tensor{in[1], in[2], nil, in[3]}, w, [][]int{ids, nil, nil, nil}, []int{0, period, 0, 0}, in[0])
			be.RowsBackward(in[0], in[4], w, []int{64, -1, 0, 64})
			return []compute.Tensor{in[1], in[2], in[3], in[0]}, nil
		})

	const xr, classes = 50, 1000
	labels := make([]int, xr)
	for i := range labels {
		labels[i] = r.IntN(classes)
		if i%7 == 3 {
			labels[i] = -100
		}
	}
	trainCase(t, b, "SoftmaxCrossEntropy", trainTol, [][]float32{randomValues(r, xr*classes, 6), zeros(xr * classes)},
		func(be compute.TrainBackend, in []compute.Tensor) ([]compute.Tensor, []float64) {
			loss, counted, correct := be.SoftmaxCrossEntropy(in[1], in[0], classes, labels)
			return []compute.Tensor{in[1]}, []float64{loss, float64(counted), float64(correct)}
		})
	targets := []float64{0.5, -1, 2, 0, 3.25}
	trainCase(t, b, "MSELoss", trainTol, [][]float32{randomValues(r, len(targets), 2), zeros(len(targets))},
		func(be compute.TrainBackend, in []compute.Tensor) ([]compute.Tensor, []float64) {
			return []compute.Tensor{in[1]}, []float64{be.MSELoss(in[1], in[0], targets)}
		})
	const pairs, dim = 16, 64
	trainCase(t, b, "SymmetricContrastiveLoss", trainTol, [][]float32{randomValues(r, pairs*dim, 1), randomValues(r, pairs*dim, 1), zeros(pairs * dim), zeros(pairs * dim)},
		func(be compute.TrainBackend, in []compute.Tensor) ([]compute.Tensor, []float64) {
			loss, dTau := be.SymmetricContrastiveLoss(in[2], in[3], in[0], in[1], pairs, dim, 0.07)
			return []compute.Tensor{in[2], in[3]}, []float64{loss, dTau}
		})

	v := randomValues(r, n, 1e-3)
	for i := range v {
		v[i] = float32(math.Abs(float64(v[i])))
	}
	for _, dec := range []bool{false, true} {
		s := compute.AdamStep{LR: 2e-5, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, WeightDecay: 0.01, Decoupled: dec, Step: 3}
		trainCase(t, b, "Adam", 0, [][]float32{x, dy, randomValues(r, n, 1e-2), v},
			func(be compute.TrainBackend, in []compute.Tensor) ([]compute.Tensor, []float64) {
				be.Adam(in[0], in[1], in[2], in[3], s)
				return []compute.Tensor{in[0], in[2], in[3]}, nil
			})
	}
	d := compute.NewDropout(0.1, mrand.New(mrand.NewSource(3)))
	trainCase(t, b, "Copy, Zero, Scale, AddScaled, Mul, Dropout, SumSquares", trainTol, [][]float32{x, dy, zeros(n), randomValues(r, n, 1)},
		func(be compute.TrainBackend, in []compute.Tensor) ([]compute.Tensor, []float64) {
			be.Copy(in[2], in[0])
			be.Scale(in[2], 0.5)
			be.AddScaled(in[2], in[1], -0.25)
			be.Mul(in[2], in[1])
			be.Dropout(in[2], d, 11)
			be.Zero(in[3])
			return []compute.Tensor{in[2], in[3]}, []float64{be.SumSquares(in[0])}
		})
}
