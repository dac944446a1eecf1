package compute

import (
	"math"

	"github.com/storyeval/storyeval/internal/parallel"
)

// SoftmaxCrossEntropyHost is SoftmaxCrossEntropy on the host:
// torch.nn.CrossEntropyLoss (mean over the rows whose label is not
// negative) of logits (len(labels) rows of classes values), its gradient
// (softmax − onehot)/counted (0 on ignored rows), and how many counted rows
// have their label as the first argmax. Each row's log-softmax is computed
// in float64 and the gradient rounded once.
func SoftmaxCrossEntropyHost[T Float](dlogits, logits []T, classes int, labels []int) (loss float64, counted, correct int) {
	for _, y := range labels {
		if y >= 0 {
			counted++
		}
	}
	n := float64(counted)
	losses := make([]float64, len(labels))
	hits := make([]bool, len(labels))
	parallel.Chunks(len(labels), 4, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			row, dr := logits[r*classes:(r+1)*classes], dlogits[r*classes:(r+1)*classes]
			y := labels[r]
			if y < 0 {
				clear(dr)
				continue
			}
			m, arg := math.Inf(-1), 0
			for j, v := range row {
				if float64(v) > m {
					m, arg = float64(v), j
				}
			}
			var sum float64
			for _, v := range row {
				sum += math.Exp(float64(v) - m)
			}
			lse := m + math.Log(sum)
			losses[r] = lse - float64(row[y])
			hits[r] = arg == y
			for j, v := range row {
				p := math.Exp(float64(v) - lse)
				if j == y {
					p--
				}
				dr[j] = T(p / n)
			}
		}
	})
	for r, l := range losses {
		loss += l
		if hits[r] {
			correct++
		}
	}
	return loss / n, counted, correct
}

// MSELossHost is MSELoss on the host: mean((pred − target)²), the
// differences in T and the sum in float64, and dpred = 2(pred − target)/n.
func MSELossHost[T Float](dpred, pred []T, target []float64) float64 {
	var loss float64
	for i, t := range target {
		e := pred[i] - T(t)
		loss += float64(e * e)
		dpred[i] = 2 * e / T(len(target))
	}
	return loss / float64(len(target))
}
