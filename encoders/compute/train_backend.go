package compute

import "fmt"

// TrainBackend is a Backend that can also train: it adds the backward
// operations of the forward ones, the forward variants that save what a
// backward pass needs, the elementwise operations and reductions of the
// losses, dropout and the optimiser, the trainers' losses as fused
// operations, and Adam as one fused update per parameter tensor. Every
// operation works on whole batches of device tensors, as Backend's do, so
// a training step needs no host round trip between operations; the losses
// return their scalar value (a device backend synchronises there, once a
// step).
//
// Conventions: "accumulates" (+=) is said of gradient outputs that several
// uses of a parameter add to (weights, biases, LayerNorm's γ and β,
// embedding tables); every other output is overwritten. Reductions and
// scatter-adds run in row order, so results do not depend on the number
// of workers. A backend that implements Backend alone can run inference but
// not training; Training says which.
//
// The forward variants compute exactly what their inference operations
// compute (LayerNormSave's dst is LayerNorm's, BiasActSave's dst is
// BiasAct's, AttentionSave's dst is Attention's when no dropout is active),
// so one model has one forward math for scoring and for training.
type TrainBackend interface {
	Backend

	// Copy copies src into dst (the same number of values).
	Copy(dst, src Tensor)
	// Zero sets every value of t to 0 (gradients before a step).
	Zero(t Tensor)
	// Scale multiplies every value of x by alpha in place.
	Scale(x Tensor, alpha float32)
	// AddScaled adds alpha·x to dst element-wise (dst += alpha·x).
	AddScaled(dst, x Tensor, alpha float32)
	// Mul multiplies dst by x element-wise (a dropout mask drawn on the
	// host and uploaded, as Vrank's head dropout).
	Mul(dst, x Tensor)
	// Dropout multiplies value i of x by d.Factor(stream, i) in place: the
	// counter-based masks that the backward pass regenerates instead of
	// storing. It does nothing when d is inactive.
	Dropout(x Tensor, d Dropout, stream uint64)
	// SumSquares returns Σ x², summed in float64 (gradient norms).
	SumSquares(x Tensor) float64

	// BiasActSave adds bias (width values, or nil) to every row of x in
	// place — x then holds the pre-activation that BiasActBackward needs —
	// and writes act(x) into dst, which must not be x. dst is what
	// BiasAct leaves in x.
	BiasActSave(dst, x, bias Tensor, width int, act Activation)
	// BiasActBackward writes dx = dy·act'(pre) element-wise (dx may be dy;
	// pre is BiasActSave's x) and accumulates the column sums of dx into
	// dbias (width values; nil: no bias). With Identity it is the bias
	// gradient of a linear layer alone.
	BiasActBackward(dx, dbias, dy, pre Tensor, width int, act Activation)
	// LayerNormSave is LayerNorm (dst may be x) that also writes, for the
	// backward pass, the normalised input x̂ = (x−μ)/√(σ²+eps) (rows·width
	// values) into xhat and 1/√(σ²+eps) per row (rows values) into rstd.
	LayerNormSave(dst, x, gamma, beta Tensor, width int, eps float64, xhat, rstd Tensor)
	// LayerNormBackward writes dx = rstd·(dy·γ − mean(dy·γ) − x̂·mean(dy·γ·x̂))
	// per row (dx may be dy) and accumulates Σ_rows dy·x̂ into dgamma and
	// Σ_rows dy into dbeta (width values each).
	LayerNormBackward(dx, dgamma, dbeta, dy, xhat, rstd, gamma Tensor, width int)
	// AttentionSave is Attention for the first s.Queries rows of each
	// sequence (q and dst [batch·Queries, heads·headDim]; k and v
	// [batch·Seq, heads·headDim]) that saves the softmax probabilities,
	// undropped, into probs [batch·heads·Queries·Seq] (sequence-major,
	// then head, query, key), and multiplies them by the dropout mask
	// (d, stream; element index = the index into probs) before they weigh
	// the values, as BERT's attention dropout.
	AttentionSave(dst, q, k, v Tensor, s AttentionShape, mask Mask, probs Tensor, d Dropout, stream uint64)
	// AttentionBackward writes dq (AttentionSave's q's shape), dk and dv
	// (k's and v's) from dctx (dst's shape), from the probabilities that
	// AttentionSave saved (not recomputed) and the same dropout.
	AttentionBackward(dq, dk, dv, dctx, q, k, v, probs Tensor, s AttentionShape, mask Mask, d Dropout, stream uint64)
	// EmbedBackward is Embed's backward: for every row r of dy (width
	// values) and every table i with a non-nil grads[i], it adds dy row r
	// to the row of grads[i] that Embed gathered from tables[i] (same ids
	// and period), in row order (a scatter-add).
	EmbedBackward(grads []Tensor, width int, ids [][]int, period []int, dy Tensor)
	// RowsBackward is Rows' backward: dsrc row idx[i] += dy row i, in order
	// of i; a negative idx[i] is skipped.
	RowsBackward(dsrc, dy Tensor, width int, idx []int)

	// SoftmaxCrossEntropy is torch.nn.CrossEntropyLoss with mean reduction
	// over the rows of logits (classes values each) whose label is not
	// negative (ignore_index: any negative label). It writes dlogits =
	// (softmax − onehot)/counted for those rows and 0 for ignored ones,
	// and returns the loss, the number of rows counted and how many of
	// them have their label as argmax. Log-softmax in float64.
	SoftmaxCrossEntropy(dlogits, logits Tensor, classes int, labels []int) (loss float64, counted, correct int)
	// MSELoss is torch.nn.MSELoss (mean) of pred (len(target) values)
	// against target; it writes dpred = 2(pred − target)/n.
	MSELoss(dpred, pred Tensor, target []float64) float64
	// SymmetricContrastiveLoss is RoViST-VG's symmetric soft-label
	// cross-entropy of n image and n text embeddings (n×dim each) at
	// temperature tau (see rovist/train); it writes dImg and dTxt and
	// returns the loss and its derivative with respect to tau. Computed in
	// float64.
	SymmetricContrastiveLoss(dImg, dTxt, img, txt Tensor, n, dim int, tau float64) (loss, dTau float64)

	// Adam applies one Adam step (s.Step already counts it) to param with
	// gradient grad and moments m and v, all of the same length, updating
	// param, m and v in place; grad is not modified.
	Adam(param, grad, m, v Tensor, s AdamStep)
}

// AdamStep is the hyper-parameters of one Adam update: torch.optim.Adam
// (PyTorch 1.13, amsgrad off), or AdamW's decoupled weight decay.
type AdamStep struct {
	LR, Beta1, Beta2, Eps float64
	// WeightDecay is torch.optim.Adam's L2 penalty (g += wd·p before the
	// moments) or, with Decoupled, AdamW's (p −= lr·wd·p before the update).
	WeightDecay float64
	Decoupled   bool
	// Step is the 1-based number of this update (bias corrections).
	Step int
}

// Training returns b as a TrainBackend, or an error naming b when it has
// no training operations.
func Training(b Backend) (TrainBackend, error) {
	if t, ok := b.(TrainBackend); ok {
		return t, nil
	}
	return nil, fmt.Errorf("backend %q cannot train: it lacks the backward operations of compute.TrainBackend", b.Name())
}
