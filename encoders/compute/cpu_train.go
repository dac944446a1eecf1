package compute

import "github.com/storyeval/storyeval/internal/parallel"

// The CPU backend's TrainBackend operations: thin wrappers of the generic
// host kernels (…Host), which the float64 finite-difference checks call
// directly.

var _ TrainBackend = CPUBackend{}

// Copy implements TrainBackend.
func (CPUBackend) Copy(dst, src Tensor) { copy(host(dst), host(src)) }

// Zero implements TrainBackend.
func (CPUBackend) Zero(t Tensor) { clear(host(t)) }

// Scale implements TrainBackend.
func (CPUBackend) Scale(x Tensor, alpha float32) {
	xs := host(x)
	for i := range xs {
		xs[i] *= alpha
	}
}

// AddScaled implements TrainBackend.
func (CPUBackend) AddScaled(dst, x Tensor, alpha float32) {
	d := host(dst)
	for i, v := range host(x) {
		d[i] += alpha * v
	}
}

// Mul implements TrainBackend.
func (CPUBackend) Mul(dst, x Tensor) {
	d := host(dst)
	for i, v := range host(x) {
		d[i] *= v
	}
}

// Dropout implements TrainBackend with DropoutHost.
func (CPUBackend) Dropout(x Tensor, d Dropout, stream uint64) { DropoutHost(d, stream, host(x)) }

// DropoutHost multiplies x (the elements 0… of a stream) by its mask in
// place; it does nothing when d is inactive.
func DropoutHost[T Float](d Dropout, stream uint64, x []T) {
	if !d.Active() {
		return
	}
	parallel.Chunks(len(x), 4096, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			x[i] *= T(d.Factor(stream, i))
		}
	})
}

// SumSquares implements TrainBackend.
func (CPUBackend) SumSquares(x Tensor) float64 {
	var s float64
	for _, v := range host(x) {
		s += float64(v) * float64(v)
	}
	return s
}

// BiasActSave implements TrainBackend with BiasActSaveHost.
func (CPUBackend) BiasActSave(dst, x, bias Tensor, width int, act Activation) {
	BiasActSaveHost(host(dst), host(x), host(bias), width, act)
}

// BiasActSaveHost adds bias (nil: none) to every row of width values of x
// in place and writes act(x) into dst (ApplyHost; dst may be x when the
// pre-activation is not needed).
func BiasActSaveHost[T Float](dst, x, bias []T, width int, act Activation) {
	if bias != nil {
		parallel.Chunks(len(x)/width, minRows, func(_, lo, hi int) {
			for r := lo; r < hi; r++ {
				addTo(x[r*width:(r+1)*width], bias)
			}
		})
	}
	ApplyHost(act, x, dst)
}

// BiasActBackward implements TrainBackend with BiasActBackwardHost.
func (CPUBackend) BiasActBackward(dx, dbias, dy, pre Tensor, width int, act Activation) {
	BiasActBackwardHost(host(dx), host(dbias), host(dy), host(pre), width, act)
}

// BiasActBackwardHost writes dx = dy·act'(pre) (dx may be dy) and adds the
// column sums of dx to dbias (nil: none).
func BiasActBackwardHost[T Float](dx, dbias, dy, pre []T, width int, act Activation) {
	ActivationBackward(act, pre, dy, dx)
	if dbias != nil {
		ColumnSums(dx, len(dx)/width, width, dbias)
	}
}

// ColumnSums adds the column sums of x[rows×cols] to dst, each summed in
// row order (split by column across workers).
func ColumnSums[T Float](x []T, rows, cols int, dst []T) {
	parallel.Chunks(cols, 64, func(_, lo, hi int) {
		acc := make([]T, hi-lo)
		for r := 0; r < rows; r++ {
			addTo(acc, x[r*cols+lo:r*cols+hi])
		}
		addTo(dst[lo:hi], acc)
	})
}

// LayerNormSave implements TrainBackend with LayerNormHost.
func (CPUBackend) LayerNormSave(dst, x, gamma, beta Tensor, width int, eps float64, xhat, rstd Tensor) {
	LayerNormHost(host(dst), host(x), host(gamma), host(beta), width, eps, host(xhat), host(rstd))
}

// LayerNormBackward implements TrainBackend with LayerNormBackwardHost.
func (CPUBackend) LayerNormBackward(dx, dgamma, dbeta, dy, xhat, rstd, gamma Tensor, width int) {
	LayerNormBackwardHost(host(dx), host(dgamma), host(dbeta), host(dy), host(xhat), host(rstd), host(gamma), width)
}

// AttentionSave implements TrainBackend with AttentionHost.
func (c CPUBackend) AttentionSave(dst, q, k, v Tensor, s AttentionShape, mask Mask, probs Tensor, d Dropout, stream uint64) {
	AttentionHost(c.blas(), host(dst), host(q), host(k), host(v), s, mask, host(probs), d, stream)
}

// AttentionBackward implements TrainBackend with AttentionBackwardHost
// (the mask is in the saved probabilities).
func (c CPUBackend) AttentionBackward(dq, dk, dv, dctx, q, k, v, probs Tensor, s AttentionShape, _ Mask, d Dropout, stream uint64) {
	AttentionBackwardHost(c.blas(), host(dq), host(dk), host(dv), host(dctx), host(q), host(k), host(v), host(probs), s, d, stream)
}

// EmbedBackward implements TrainBackend with EmbedBackwardHost.
func (CPUBackend) EmbedBackward(grads []Tensor, width int, ids [][]int, period []int, dy Tensor) {
	gs := make([][]float32, len(grads))
	for i, g := range grads {
		gs[i] = host(g)
	}
	EmbedBackwardHost(gs, width, ids, period, host(dy))
}

// RowsBackward implements TrainBackend with RowsBackwardHost.
func (CPUBackend) RowsBackward(dsrc, dy Tensor, width int, idx []int) {
	RowsBackwardHost(host(dsrc), host(dy), width, idx)
}

// SoftmaxCrossEntropy implements TrainBackend with SoftmaxCrossEntropyHost.
func (CPUBackend) SoftmaxCrossEntropy(dlogits, logits Tensor, classes int, labels []int) (float64, int, int) {
	return SoftmaxCrossEntropyHost(host(dlogits), host(logits), classes, labels)
}

// MSELoss implements TrainBackend with MSELossHost.
func (CPUBackend) MSELoss(dpred, pred Tensor, target []float64) float64 {
	return MSELossHost(host(dpred), host(pred), target)
}

// SymmetricContrastiveLoss implements TrainBackend with
// SymmetricContrastiveLossHost.
func (CPUBackend) SymmetricContrastiveLoss(dImg, dTxt, img, txt Tensor, n, dim int, tau float64) (float64, float64) {
	return SymmetricContrastiveLossHost(host(img), host(txt), n, dim, tau, host(dImg), host(dTxt))
}

// Adam implements TrainBackend with AdamHost.
func (CPUBackend) Adam(param, grad, m, v Tensor, s AdamStep) {
	AdamHost(host(param), host(grad), host(m), host(v), s)
}
