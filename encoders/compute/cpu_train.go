package compute

import "github.com/storyeval/storyeval/internal/parallel"

// The CPU backend's TrainBackend operations: thin wrappers of the generic
// host kernels (…Host), which the float64 finite-difference checks call
// directly.

var (
	_ TrainBackend = CPUBackend{}
	_ TrainBackend = HostBackend[float64]{}
)

// Copy implements TrainBackend.
func (HostBackend[T]) Copy(dst, src Tensor) { copy(hostOf[T](dst), hostOf[T](src)) }

// Zero implements TrainBackend.
func (HostBackend[T]) Zero(t Tensor) { clear(hostOf[T](t)) }

// Scale implements TrainBackend.
func (HostBackend[T]) Scale(x Tensor, alpha float32) {
	xs := hostOf[T](x)
	for i := range xs {
		xs[i] *= T(alpha)
	}
}

// AddScaled implements TrainBackend.
func (HostBackend[T]) AddScaled(dst, x Tensor, alpha float32) {
	d := hostOf[T](dst)
	for i, v := range hostOf[T](x) {
		d[i] += T(alpha) * v
	}
}

// Mul implements TrainBackend.
func (HostBackend[T]) Mul(dst, x Tensor) {
	d := hostOf[T](dst)
	for i, v := range hostOf[T](x) {
		d[i] *= v
	}
}

// Dropout implements TrainBackend with DropoutHost.
func (HostBackend[T]) Dropout(x Tensor, d Dropout, stream uint64) {
	DropoutHost(d, stream, hostOf[T](x))
}

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
func (HostBackend[T]) SumSquares(x Tensor) float64 {
	var s float64
	for _, v := range hostOf[T](x) {
		s += float64(v) * float64(v)
	}
	return s
}

// BiasActSave implements TrainBackend with BiasActSaveHost.
func (HostBackend[T]) BiasActSave(dst, x, bias Tensor, width int, act Activation) {
	BiasActSaveHost(hostOf[T](dst), hostOf[T](x), hostOf[T](bias), width, act)
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
func (HostBackend[T]) BiasActBackward(dx, dbias, dy, pre Tensor, width int, act Activation) {
	BiasActBackwardHost(hostOf[T](dx), hostOf[T](dbias), hostOf[T](dy), hostOf[T](pre), width, act)
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
func (HostBackend[T]) LayerNormSave(dst, x, gamma, beta Tensor, width int, eps float64, xhat, rstd Tensor) {
	LayerNormHost(hostOf[T](dst), hostOf[T](x), hostOf[T](gamma), hostOf[T](beta), width, eps, hostOf[T](xhat), hostOf[T](rstd))
}

// LayerNormBackward implements TrainBackend with LayerNormBackwardHost.
func (HostBackend[T]) LayerNormBackward(dx, dgamma, dbeta, dy, xhat, rstd, gamma Tensor, width int) {
	LayerNormBackwardHost(hostOf[T](dx), hostOf[T](dgamma), hostOf[T](dbeta), hostOf[T](dy), hostOf[T](xhat), hostOf[T](rstd), hostOf[T](gamma), width)
}

// AttentionSave implements TrainBackend with AttentionHost.
func (c HostBackend[T]) AttentionSave(dst, q, k, v Tensor, s AttentionShape, mask Mask, probs Tensor, d Dropout, stream uint64) {
	AttentionHost(c.blas(), hostOf[T](dst), hostOf[T](q), hostOf[T](k), hostOf[T](v), s, mask, hostOf[T](probs), d, stream)
}

// AttentionBackward implements TrainBackend with AttentionBackwardHost
// (the mask is in the saved probabilities).
func (c HostBackend[T]) AttentionBackward(dq, dk, dv, dctx, q, k, v, probs Tensor, s AttentionShape, _ Mask, d Dropout, stream uint64) {
	AttentionBackwardHost(c.blas(), hostOf[T](dq), hostOf[T](dk), hostOf[T](dv), hostOf[T](dctx), hostOf[T](q), hostOf[T](k), hostOf[T](v), hostOf[T](probs), s, d, stream)
}

// EmbedBackward implements TrainBackend with EmbedBackwardHost.
func (HostBackend[T]) EmbedBackward(grads []Tensor, width int, ids [][]int, period []int, dy Tensor) {
	gs := make([][]T, len(grads))
	for i, g := range grads {
		gs[i] = hostOf[T](g)
	}
	EmbedBackwardHost(gs, width, ids, period, hostOf[T](dy))
}

// RowsBackward implements TrainBackend with RowsBackwardHost.
func (HostBackend[T]) RowsBackward(dsrc, dy Tensor, width int, idx []int) {
	RowsBackwardHost(hostOf[T](dsrc), hostOf[T](dy), width, idx)
}

// SoftmaxCrossEntropy implements TrainBackend with SoftmaxCrossEntropyHost.
func (HostBackend[T]) SoftmaxCrossEntropy(dlogits, logits Tensor, classes int, labels []int) (float64, int, int) {
	return SoftmaxCrossEntropyHost(hostOf[T](dlogits), hostOf[T](logits), classes, labels)
}

// MSELoss implements TrainBackend with MSELossHost.
func (HostBackend[T]) MSELoss(dpred, pred Tensor, target []float64) float64 {
	return MSELossHost(hostOf[T](dpred), hostOf[T](pred), target)
}

// SymmetricContrastiveLoss implements TrainBackend with
// SymmetricContrastiveLossHost.
func (HostBackend[T]) SymmetricContrastiveLoss(dImg, dTxt, img, txt Tensor, n, dim int, tau float64) (float64, float64) {
	return SymmetricContrastiveLossHost(hostOf[T](img), hostOf[T](txt), n, dim, tau, hostOf[T](dImg), hostOf[T](dTxt))
}

// Adam implements TrainBackend with AdamHost.
func (HostBackend[T]) Adam(param, grad, m, v Tensor, s AdamStep) {
	AdamHost(hostOf[T](param), hostOf[T](grad), hostOf[T](m), hostOf[T](v), s)
}
