package compute

import "math"

// SymmetricContrastiveLossHost computes the symmetric soft-label cross-entropy of
// usydnlp/rovist rovist_vg.py SymmetricLoss over n pairs of image features
// img and text features txt (n × d each, not normalised), with temperature
// tau, and its gradients (SymmetricContrastiveLoss on the host): dImg, dTxt (n × d, overwritten) and dTau.
//
// As the original code computes it (it differs from the paper's
// Algorithm 1): logits = (T·Iᵀ)·τ; labels = softmax((I·Iᵀ + T·Tᵀ)/2·τ) over
// each row, NOT detached, so the gradient flows through the labels too;
// texts_loss_i = −Σ_j labels_ij·log_softmax(logits)_ij (rows);
// images_loss_i = −Σ_j labels_ji·log_softmax(logitsᵀ)_ij (columns of the
// logits); loss = mean_i (images_loss_i + texts_loss_i)/2.
//
// The n×n matrices are small next to the encoders, so they are computed in
// float64 and the results rounded to T once.
func SymmetricContrastiveLossHost[T Float](img, txt []T, n, d int, tau float64, dImg, dTxt []T) (loss, dTau float64) {
	at := func(x []T, i, j int) float64 { return float64(x[i*d+j]) }
	dot := func(x []T, i int, y []T, j int) float64 {
		var s float64
		for k := 0; k < d; k++ {
			s += at(x, i, k) * at(y, j, k)
		}
		return s
	}
	M := make([]float64, n*n) // T·Iᵀ
	P := make([]float64, n*n) // (I·Iᵀ + T·Tᵀ)/2
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			M[i*n+j] = dot(txt, i, img, j)
			P[i*n+j] = (dot(img, i, img, j) + dot(txt, i, txt, j)) / 2
		}
	}
	Z := make([]float64, n*n)
	A := make([]float64, n*n)
	for i := range Z {
		Z[i] = M[i] * tau
		A[i] = P[i] * tau
	}
	Y := softmaxRows(A, n)
	R := logSoftmax(Z, n, 1, n)  // rows
	Cl := logSoftmax(Z, 1, n, n) // columns
	var total float64
	for i := range Y {
		total -= Y[i] * (R[i] + Cl[i])
	}
	loss = total / (2 * float64(n))

	// d loss / d Y, d loss / d Z.
	scale := -1 / (2 * float64(n))
	GY := make([]float64, n*n)
	dZ := make([]float64, n*n)
	for i := range GY {
		GY[i] = scale * (R[i] + Cl[i])
	}
	for i := 0; i < n; i++ {
		var rowY, colY float64
		for k := 0; k < n; k++ {
			rowY += Y[i*n+k]
			colY += Y[k*n+i]
		}
		for j := 0; j < n; j++ {
			// Row term: Y_ij − softmax_row(Z)_ij·Σ_k Y_ik.
			dZ[i*n+j] += scale * (Y[i*n+j] - math.Exp(R[i*n+j])*rowY)
			// Column term of column i: Y_ji − softmax_col(Z)_ji·Σ_k Y_ki.
			dZ[j*n+i] += scale * (Y[j*n+i] - math.Exp(Cl[j*n+i])*colY)
		}
	}
	// Through the row softmax of the labels.
	dA := make([]float64, n*n)
	for i := 0; i < n; i++ {
		var s float64
		for k := 0; k < n; k++ {
			s += GY[i*n+k] * Y[i*n+k]
		}
		for j := 0; j < n; j++ {
			dA[i*n+j] = Y[i*n+j] * (GY[i*n+j] - s)
		}
	}
	dM := make([]float64, n*n)
	dPs := make([]float64, n*n) // dP + dPᵀ
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			dTau += M[i*n+j]*dZ[i*n+j] + P[i*n+j]*dA[i*n+j]
			dM[i*n+j] = tau * dZ[i*n+j]
			dPs[i*n+j] = tau / 2 * (dA[i*n+j] + dA[j*n+i])
		}
	}
	// M = T·Iᵀ; I·Iᵀ and T·Tᵀ are symmetric in their two factors.
	for i := 0; i < n; i++ {
		for k := 0; k < d; k++ {
			var gi, gt float64
			for j := 0; j < n; j++ {
				gt += dM[i*n+j]*at(img, j, k) + dPs[i*n+j]*at(txt, j, k)
				gi += dM[j*n+i]*at(txt, j, k) + dPs[i*n+j]*at(img, j, k)
			}
			dImg[i*d+k] = T(gi)
			dTxt[i*d+k] = T(gt)
		}
	}
	return loss, dTau
}

// softmaxRows returns the softmax of each row of x (n × n).
func softmaxRows(x []float64, n int) []float64 {
	ls := logSoftmax(x, n, 1, n)
	for i, v := range ls {
		ls[i] = math.Exp(v)
	}
	return ls
}

// logSoftmax returns the log-softmax of x (n × n) along rows (stride 1
// within a group, groups rowStride apart) or columns (elemStride n).
func logSoftmax(x []float64, rowStride, elemStride, n int) []float64 {
	out := make([]float64, len(x))
	for g := 0; g < n; g++ {
		base := g * rowStride
		maxv := math.Inf(-1)
		for k := 0; k < n; k++ {
			maxv = math.Max(maxv, x[base+k*elemStride])
		}
		var s float64
		for k := 0; k < n; k++ {
			s += math.Exp(x[base+k*elemStride] - maxv)
		}
		lse := maxv + math.Log(s)
		for k := 0; k < n; k++ {
			out[base+k*elemStride] = x[base+k*elemStride] - lse
		}
	}
	return out
}
