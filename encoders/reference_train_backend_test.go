package encoders

import (
	"math"

	"github.com/storyeval/storyeval/encoders/compute"
)

// refBackend's training operations: naive loops in float64 from the
// formulas, written independently of the CPU backend's kernels, so that
// TestTrainingStepOnReferenceBackend shows a training step depends on the
// compute.TrainBackend interface alone.

var _ compute.TrainBackend = refBackend{}

func (b refBackend) Copy(dst, src compute.Tensor) { copy(b.vals(dst), b.vals(src)) }

func (b refBackend) Zero(t compute.Tensor) { clear(b.vals(t)) }

func (b refBackend) Scale(x compute.Tensor, alpha float32) {
	xs := b.vals(x)
	for i := range xs {
		xs[i] = float32(float64(xs[i]) * float64(alpha))
	}
}

func (b refBackend) AddScaled(dst, x compute.Tensor, alpha float32) {
	d := b.vals(dst)
	for i, v := range b.vals(x) {
		d[i] = float32(float64(d[i]) + float64(alpha)*float64(v))
	}
}

func (b refBackend) Mul(dst, x compute.Tensor) {
	d := b.vals(dst)
	for i, v := range b.vals(x) {
		d[i] *= v
	}
}

func (b refBackend) Dropout(x compute.Tensor, d compute.Dropout, stream uint64) {
	if !d.Active() {
		return
	}
	xs := b.vals(x)
	for i := range xs {
		xs[i] = float32(float64(xs[i]) * d.Factor(stream, i))
	}
}

func (b refBackend) SumSquares(x compute.Tensor) float64 {
	var s float64
	for _, v := range b.vals(x) {
		s += float64(v) * float64(v)
	}
	return s
}

func (b refBackend) BiasActSave(dst, x, bias compute.Tensor, width int, act compute.Activation) {
	xs, bs, d := b.vals(x), b.vals(bias), b.vals(dst)
	for i := range xs {
		if bs != nil {
			xs[i] += bs[i%width]
		}
		d[i] = xs[i]
		act.Apply(d[i : i+1])
	}
}

// refActGrad is act'(x) from the textbook formulas.
func refActGrad(act compute.Activation, x float64) float64 {
	switch act {
	case compute.GELU:
		return 0.5*(1+math.Erf(x/math.Sqrt2)) + x*math.Exp(-x*x/2)/math.Sqrt(2*math.Pi)
	case compute.GELUTanh:
		c := math.Sqrt(2 / math.Pi)
		u := c * (x + 0.044715*x*x*x)
		return 0.5*(1+math.Tanh(u)) + 0.5*x*(1-math.Tanh(u)*math.Tanh(u))*c*(1+3*0.044715*x*x)
	case compute.QuickGELU:
		s := 1 / (1 + math.Exp(-1.702*x))
		return s * (1 + 1.702*x*(1-s))
	case compute.ReLU:
		if x > 0 {
			return 1
		}
		return 0
	case compute.Tanh:
		return 1 - math.Tanh(x)*math.Tanh(x)
	}
	return 1
}

func (b refBackend) BiasActBackward(dx, dbias, dy, pre compute.Tensor, width int, act compute.Activation) {
	out, in, p, db := b.vals(dx), b.vals(dy), b.vals(pre), b.vals(dbias)
	sums := make([]float64, width)
	for i := range in {
		g := float64(in[i])
		if act != compute.Identity {
			g *= refActGrad(act, float64(p[i]))
		}
		out[i] = float32(g)
		sums[i%width] += g
	}
	for j := range db {
		db[j] = float32(float64(db[j]) + sums[j])
	}
}

func (b refBackend) LayerNormSave(dst, x, gamma, beta compute.Tensor, w int, eps float64, xhat, rstd compute.Tensor) {
	xs, xh, rs := b.vals(x), b.vals(xhat), b.vals(rstd)
	for r := 0; r < len(xs)/w; r++ {
		var mean, sq float64
		for _, v := range xs[r*w : (r+1)*w] {
			mean += float64(v)
		}
		mean /= float64(w)
		for _, v := range xs[r*w : (r+1)*w] {
			sq += (float64(v) - mean) * (float64(v) - mean)
		}
		inv := 1 / math.Sqrt(sq/float64(w)+eps)
		rs[r] = float32(inv)
		for j := r * w; j < (r+1)*w; j++ {
			xh[j] = float32((float64(xs[j]) - mean) * inv)
		}
	}
	b.LayerNorm(dst, x, gamma, beta, w, eps)
}

func (b refBackend) LayerNormBackward(dx, dgamma, dbeta, dy, xhat, rstd, gamma compute.Tensor, w int) {
	out, in, xh, rs, g, dg, dbt := b.vals(dx), b.vals(dy), b.vals(xhat), b.vals(rstd), b.vals(gamma), b.vals(dgamma), b.vals(dbeta)
	for r := 0; r < len(in)/w; r++ {
		var mean, dot float64
		for j := 0; j < w; j++ {
			d := float64(in[r*w+j]) * float64(g[j])
			mean += d / float64(w)
			dot += d * float64(xh[r*w+j]) / float64(w)
			dg[j] = float32(float64(dg[j]) + float64(in[r*w+j])*float64(xh[r*w+j]))
			dbt[j] += in[r*w+j]
		}
		for j := 0; j < w; j++ {
			d := float64(in[r*w+j]) * float64(g[j])
			out[r*w+j] = float32(float64(rs[r]) * (d - mean - float64(xh[r*w+j])*dot))
		}
	}
}

// refHead returns the offsets of query row i and key row j of head h of
// sequence bi.
func refHead(s compute.AttentionShape, bi, h, i, j int) (qi, kj int) {
	H := s.Heads * s.HeadDim
	return (bi*s.QueryRows()+i)*H + h*s.HeadDim, (bi*s.Seq+j)*H + h*s.HeadDim
}

func (b refBackend) AttentionSave(dst, q, k, v compute.Tensor, s compute.AttentionShape, mask compute.Mask, probs compute.Tensor, d compute.Dropout, stream uint64) {
	out, qs, ks, vs, ps := b.vals(dst), b.vals(q), b.vals(k), b.vals(v), b.vals(probs)
	sq := s.QueryRows()
	for bi := 0; bi < s.Batch; bi++ {
		for h := 0; h < s.Heads; h++ {
			for i := 0; i < sq; i++ {
				p := make([]float64, s.Seq)
				top, sum := math.Inf(-1), 0.0
				for j := range p {
					p[j] = math.Inf(-1)
					if (mask.KeyValid != nil && !mask.KeyValid[bi*s.Seq+j]) || (mask.Causal && j > i) {
						continue
					}
					qi, kj := refHead(s, bi, h, i, j)
					dot := 0.0
					for c := 0; c < s.HeadDim; c++ {
						dot += float64(qs[qi+c]) * float64(ks[kj+c])
					}
					p[j] = dot * float64(s.Scale)
					top = math.Max(top, p[j])
				}
				for j := range p {
					p[j] = math.Exp(p[j] - top)
					sum += p[j]
				}
				base := ((bi*s.Heads+h)*sq + i) * s.Seq
				for j := range p {
					ps[base+j] = float32(p[j] / sum)
				}
				qi, _ := refHead(s, bi, h, i, 0)
				for c := 0; c < s.HeadDim; c++ {
					acc := 0.0
					for j := range p {
						_, kj := refHead(s, bi, h, i, j)
						acc += float64(ps[base+j]) * d.Factor(stream, base+j) * float64(vs[kj+c])
					}
					out[qi+c] = float32(acc)
				}
			}
		}
	}
}

func (b refBackend) AttentionBackward(dq, dk, dv, dctx, q, k, v, probs compute.Tensor, s compute.AttentionShape, _ compute.Mask, d compute.Dropout, stream uint64) {
	gq, gk, gv, gc := b.vals(dq), b.vals(dk), b.vals(dv), b.vals(dctx)
	qs, ks, vs, ps := b.vals(q), b.vals(k), b.vals(v), b.vals(probs)
	clear(gq)
	clear(gk)
	clear(gv)
	sq := s.QueryRows()
	acc := func(dst []float32, at int, x float64) { dst[at] = float32(float64(dst[at]) + x) }
	for bi := 0; bi < s.Batch; bi++ {
		for h := 0; h < s.Heads; h++ {
			for i := 0; i < sq; i++ {
				base := ((bi*s.Heads+h)*sq + i) * s.Seq
				qi, _ := refHead(s, bi, h, i, 0)
				dp := make([]float64, s.Seq)
				var rowDot float64
				for j := range dp {
					_, kj := refHead(s, bi, h, i, j)
					f := d.Factor(stream, base+j)
					for c := 0; c < s.HeadDim; c++ {
						dp[j] += float64(gc[qi+c]) * float64(vs[kj+c]) * f
						acc(gv, kj+c, float64(ps[base+j])*f*float64(gc[qi+c]))
					}
					rowDot += float64(ps[base+j]) * dp[j]
				}
				for j := range dp {
					_, kj := refHead(s, bi, h, i, j)
					ds := float64(ps[base+j]) * (dp[j] - rowDot) * float64(s.Scale)
					for c := 0; c < s.HeadDim; c++ {
						acc(gq, qi+c, ds*float64(ks[kj+c]))
						acc(gk, kj+c, ds*float64(qs[qi+c]))
					}
				}
			}
		}
	}
}

func (b refBackend) EmbedBackward(grads []compute.Tensor, w int, ids [][]int, period []int, dy compute.Tensor) {
	in := b.vals(dy)
	for i, gt := range grads {
		g := b.vals(gt)
		for r := 0; g != nil && r < len(in)/w; r++ {
			at := r
			if ids[i] != nil {
				at = ids[i][r]
			} else if period[i] > 0 {
				at = r % period[i]
			}
			for j := 0; j < w; j++ {
				g[at*w+j] += in[r*w+j]
			}
		}
	}
}

func (b refBackend) RowsBackward(dsrc, dy compute.Tensor, w int, idx []int) {
	d, in := b.vals(dsrc), b.vals(dy)
	for i, at := range idx {
		for j := 0; at >= 0 && j < w; j++ {
			d[at*w+j] += in[i*w+j]
		}
	}
}

func (b refBackend) SoftmaxCrossEntropy(dlogits, logits compute.Tensor, classes int, labels []int) (loss float64, counted, correct int) {
	d, l := b.vals(dlogits), b.vals(logits)
	for _, y := range labels {
		if y >= 0 {
			counted++
		}
	}
	for r, y := range labels {
		row := l[r*classes : (r+1)*classes]
		clear(d[r*classes : (r+1)*classes])
		if y < 0 {
			continue
		}
		var z float64
		best := 0
		for j, v := range row {
			z += math.Exp(float64(v))
			if v > row[best] {
				best = j
			}
		}
		loss += (math.Log(z) - float64(row[y])) / float64(counted)
		if best == y {
			correct++
		}
		for j, v := range row {
			p := math.Exp(float64(v)) / z
			if j == y {
				p--
			}
			d[r*classes+j] = float32(p / float64(counted))
		}
	}
	return loss, counted, correct
}

func (b refBackend) MSELoss(dpred, pred compute.Tensor, target []float64) float64 {
	d, p := b.vals(dpred), b.vals(pred)
	var loss float64
	for i, t := range target {
		e := float64(p[i]) - t
		loss += e * e / float64(len(target))
		d[i] = float32(2 * e / float64(len(target)))
	}
	return loss
}

// SymmetricContrastiveLoss computes on the host with the CPU kernel (the
// n×n loss is not part of a step this backend is compared on).
func (b refBackend) SymmetricContrastiveLoss(dImg, dTxt, img, txt compute.Tensor, n, dim int, tau float64) (float64, float64) {
	return compute.SymmetricContrastiveLossHost(b.vals(img), b.vals(txt), n, dim, tau, b.vals(dImg), b.vals(dTxt))
}

func (b refBackend) Adam(param, grad, m, v compute.Tensor, s compute.AdamStep) {
	p, g, ms, vs := b.vals(param), b.vals(grad), b.vals(m), b.vals(v)
	t := float64(s.Step)
	for i := range p {
		pi, gi := float64(p[i]), float64(g[i])
		if s.Decoupled {
			pi *= 1 - s.LR*s.WeightDecay
		} else {
			gi += s.WeightDecay * pi
		}
		mi := s.Beta1*float64(ms[i]) + (1-s.Beta1)*gi
		vi := s.Beta2*float64(vs[i]) + (1-s.Beta2)*gi*gi
		mhat, vhat := mi/(1-math.Pow(s.Beta1, t)), vi/(1-math.Pow(s.Beta2, t))
		p[i], ms[i], vs[i] = float32(pi-s.LR*mhat/(math.Sqrt(vhat)+s.Eps)), float32(mi), float32(vi)
	}
}
