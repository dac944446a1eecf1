package cuda

import (
	"fmt"
	"math"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// Backend's compute.TrainBackend operations. Each is specified by the CPU
// backend's (compute's …Host functions): the kernels follow their
// arithmetic (see package kernels); MSELoss and SymmetricContrastiveLoss,
// whose inputs are one batch of scalars or embeddings, run the CPU's own
// code on the downloaded values, as their scalar result must come back to
// the host anyway.

var _ compute.TrainBackend = (*Backend)(nil)

// temp returns a buffer of n values from the pool or the device for the
// duration of one operation; b.mu is held. Give it back with release.
func (b *Backend) temp(n int) (Buffer, error) { return b.alloc(n) }

// release returns temporaries to the pool; b.mu is held. The stream
// orders their next use after this operation's.
func (b *Backend) release(bufs ...Buffer) {
	if b.pool == nil {
		b.pool = map[int][]Buffer{}
	}
	for _, buf := range bufs {
		if buf.Ptr != 0 {
			b.pool[buf.N] = append(b.pool[buf.N], buf)
		}
	}
}

// elementwise queues a grid-stride kernel over the n values of dst.
func (b *Backend) elementwise(op, kernel string, n int, args *cudalib.Args) {
	b.run(op, func() error { return b.q.Launch(kernel, Shape{Elems: n}, args) })
}

// Copy implements compute.TrainBackend.
func (b *Backend) Copy(dst, src compute.Tensor) {
	db, sb := b.buf(dst), b.buf(src)
	b.run("copy", func() error { return b.q.Copy(db, sb, min(db.N, sb.N)) })
}

// Zero implements compute.TrainBackend.
func (b *Backend) Zero(t compute.Tensor) {
	tb := b.buf(t)
	b.run("zero", func() error { return b.q.Zero(tb) })
}

// Scale implements compute.TrainBackend (scale_f32).
func (b *Backend) Scale(x compute.Tensor, alpha float32) {
	xb := b.buf(x)
	b.elementwise("scale", "scale_f32", xb.N, new(cudalib.Args).Ptr(xb.Ptr).Int64(int64(xb.N)).Float32(alpha))
}

// AddScaled implements compute.TrainBackend (axpy_f32).
func (b *Backend) AddScaled(dst, x compute.Tensor, alpha float32) {
	db, xb := b.buf(dst), b.buf(x)
	b.elementwise("add scaled", "axpy_f32", xb.N, new(cudalib.Args).Ptr(db.Ptr).Ptr(xb.Ptr).Int64(int64(xb.N)).Float32(alpha))
}

// Mul implements compute.TrainBackend (mul_f32).
func (b *Backend) Mul(dst, x compute.Tensor) {
	db, xb := b.buf(dst), b.buf(x)
	b.elementwise("multiply", "mul_f32", xb.N, new(cudalib.Args).Ptr(db.Ptr).Ptr(xb.Ptr).Int64(int64(xb.N)))
}

// dropoutOf returns the kernel arguments of d's masks on a stream.
func dropoutOf(d compute.Dropout, stream uint64) dropoutArgs {
	if !d.Active() {
		return dropoutArgs{}
	}
	return dropoutArgs{active: true, seed: d.Seed, stream: stream, threshold: d.Threshold, keep: float32(1 / (1 - d.P))}
}

// Dropout implements compute.TrainBackend (dropout_f32: the hash of
// compute.Dropout.Factor).
func (b *Backend) Dropout(x compute.Tensor, d compute.Dropout, stream uint64) {
	xb := b.buf(x)
	b.run("dropout", func() error { return b.q.dropout(xb, xb.N, dropoutOf(d, stream)) })
}

// SumSquares implements compute.TrainBackend (sumsq_f32, one block);
// after an error it returns 0.
func (b *Backend) SumSquares(x compute.Tensor) float64 {
	xb := b.buf(x)
	var sum float64
	b.run("sum of squares", func() error {
		out, err := b.temp(2)
		if err != nil {
			return err
		}
		defer b.release(out)
		if err := b.q.Launch("sumsq_f32", Shape{Rows: 1}, new(cudalib.Args).Ptr(xb.Ptr).Int64(int64(xb.N)).Ptr(out.Ptr)); err != nil {
			return err
		}
		s, err := b.q.downloadFloat64(out, 1)
		if err == nil {
			sum = s[0]
		}
		return err
	})
	return sum
}

// BiasActSave implements compute.TrainBackend (bias_act_save_f32).
func (b *Backend) BiasActSave(dst, x, bias compute.Tensor, width int, act compute.Activation) {
	db, xb, bb := b.buf(dst), b.buf(x), b.buf(bias)
	rows := xb.N / width
	b.elementwise("bias+activation (saved)", "bias_act_save_f32", rows*width,
		new(cudalib.Args).Ptr(db.Ptr).Ptr(xb.Ptr).Ptr(bb.Ptr).Int(int32(rows)).Int(int32(width)).Int(int32(act)))
}

// BiasActBackward implements compute.TrainBackend: act_backward_f32, then
// the bias gradient as column sums in row order (column_sums_f32).
func (b *Backend) BiasActBackward(dx, dbias, dy, pre compute.Tensor, width int, act compute.Activation) {
	dxb, dbb, dyb, pb := b.buf(dx), b.buf(dbias), b.buf(dy), b.buf(pre)
	rows := dyb.N / width
	b.run("bias+activation backward", func() error {
		err := b.q.Launch("act_backward_f32", Shape{Elems: dyb.N}, new(cudalib.Args).Ptr(dxb.Ptr).Ptr(dyb.Ptr).Ptr(pb.Ptr).Int64(int64(dyb.N)).Int(int32(act)))
		if err != nil || dbias == nil {
			return err
		}
		return b.q.Launch("column_sums_f32", Shape{Elems: width}, new(cudalib.Args).Ptr(dxb.Ptr).Int(int32(rows)).Int(int32(width)).Ptr(dbb.Ptr))
	})
}

// LayerNormSave implements compute.TrainBackend (layernorm_fwd_f32 with
// x̂ and rstd).
func (b *Backend) LayerNormSave(dst, x, gamma, beta compute.Tensor, width int, eps float64, xhat, rstd compute.Tensor) {
	db, xb, gb, bb, hb, rb := b.buf(dst), b.buf(x), b.buf(gamma), b.buf(beta), b.buf(xhat), b.buf(rstd)
	rows := xb.N / width
	b.run("layernorm (saved)", func() error {
		return b.q.Launch("layernorm_fwd_f32", Shape{Rows: rows}, new(cudalib.Args).Ptr(xb.Ptr).Ptr(gb.Ptr).Ptr(bb.Ptr).Ptr(db.Ptr).
			Ptr(hb.Ptr).Ptr(rb.Ptr).Int(int32(rows)).Int(int32(width)).Float64(eps))
	})
}

// LayerNormBackward implements compute.TrainBackend: the γ and β
// gradients first (layernorm_param_grad_f32, from dy, which dx may
// overwrite), then dx (layernorm_bwd_f32).
func (b *Backend) LayerNormBackward(dx, dgamma, dbeta, dy, xhat, rstd, gamma compute.Tensor, width int) {
	dxb, dgb, dbb, dyb, hb, rb, gb := b.buf(dx), b.buf(dgamma), b.buf(dbeta), b.buf(dy), b.buf(xhat), b.buf(rstd), b.buf(gamma)
	rows := dyb.N / width
	b.run("layernorm backward", func() error {
		err := b.q.Launch("layernorm_param_grad_f32", Shape{Elems: width}, new(cudalib.Args).Ptr(dyb.Ptr).Ptr(hb.Ptr).
			Int(int32(rows)).Int(int32(width)).Ptr(dgb.Ptr).Ptr(dbb.Ptr))
		if err != nil {
			return err
		}
		return b.q.Launch("layernorm_bwd_f32", Shape{Rows: rows}, new(cudalib.Args).Ptr(dyb.Ptr).Ptr(hb.Ptr).Ptr(rb.Ptr).Ptr(gb.Ptr).
			Ptr(dxb.Ptr).Int(int32(rows)).Int(int32(width)))
	})
}

func trainShape(s compute.AttentionShape) trainAttention {
	return trainAttention{AttentionShape: AttentionShape{Batch: s.Batch, Seq: s.Seq, Heads: s.Heads, HeadDim: s.HeadDim, Scale: s.Scale}, sq: s.QueryRows()}
}

// AttentionSave implements compute.TrainBackend (Queue.AttentionSave).
func (b *Backend) AttentionSave(dst, q, k, v compute.Tensor, s compute.AttentionShape, mask compute.Mask, probs compute.Tensor, d compute.Dropout, stream uint64) {
	db, qb, kb, vb, pb := b.buf(dst), b.buf(q), b.buf(k), b.buf(v), b.buf(probs)
	b.run("attention (saved)", func() error {
		return b.q.AttentionSave(db, qb, kb, vb, pb, trainShape(s), mask.KeyValid, mask.Causal, dropoutOf(d, stream))
	})
}

// AttentionBackward implements compute.TrainBackend (Queue.AttentionBackward;
// the mask is in the saved probabilities).
func (b *Backend) AttentionBackward(dq, dk, dv, dctx, q, k, v, probs compute.Tensor, s compute.AttentionShape, _ compute.Mask, d compute.Dropout, stream uint64) {
	dqb, dkb, dvb, cb := b.buf(dq), b.buf(dk), b.buf(dv), b.buf(dctx)
	qb, kb, vb, pb := b.buf(q), b.buf(k), b.buf(v), b.buf(probs)
	b.run("attention backward", func() error {
		return b.q.AttentionBackward(dqb, dkb, dvb, cb, qb, kb, vb, pb, trainShape(s), dropoutOf(d, stream))
	})
}

// scatter queues scatter_rows_f32: grad row at(r) += dy row r in row order
// (ids nil: r mod period, or r).
func (b *Backend) scatter(grad, dy Buffer, width, rows int, ids []int, period, off int) (int, error) {
	var idb Buffer
	if ids != nil {
		raw, err := int32Bytes(ids[:rows])
		if err != nil {
			return off, err
		}
		if idb, err = b.q.uploadBytes(raw, off); err != nil {
			return off, err
		}
		off += len(raw)
	}
	return off, b.q.Launch("scatter_rows_f32", Shape{Elems: width}, new(cudalib.Args).Ptr(grad.Ptr).Ptr(dy.Ptr).Ptr(idb.Ptr).
		Int(int32(rows)).Int(int32(width)).Int(int32(period)))
}

// EmbedBackward implements compute.TrainBackend: one scatter_rows_f32 per
// table with a gradient.
func (b *Backend) EmbedBackward(grads []compute.Tensor, width int, ids [][]int, period []int, dy compute.Tensor) {
	dyb := b.buf(dy)
	rows := dyb.N / width
	bufs := make([]Buffer, len(grads))
	for i, g := range grads {
		bufs[i] = b.buf(g)
	}
	b.run("embed backward", func() error {
		if len(ids) != len(grads) || len(period) != len(grads) {
			return fmt.Errorf("cuda: %d gradients with %d id lists and %d periods", len(grads), len(ids), len(period))
		}
		off := 0
		for i, g := range bufs {
			if grads[i] == nil {
				continue
			}
			if ids[i] != nil && len(ids[i]) < rows {
				return fmt.Errorf("cuda: table %d: %d ids for %d rows", i, len(ids[i]), rows)
			}
			var err error
			if off, err = b.scatter(g, dyb, width, rows, ids[i], period[i], off); err != nil {
				return err
			}
		}
		return nil
	})
}

// RowsBackward implements compute.TrainBackend (scatter_rows_f32 over
// idx, negative indices skipped).
func (b *Backend) RowsBackward(dsrc, dy compute.Tensor, width int, idx []int) {
	sb, dyb := b.buf(dsrc), b.buf(dy)
	b.run("rows backward", func() error {
		_, err := b.scatter(sb, dyb, width, len(idx), idx, 0, 0)
		return err
	})
}

// SoftmaxCrossEntropy implements compute.TrainBackend: xent_f32 writes
// each row's loss, hit and gradient; the loss is summed on the host in row
// order, as the CPU sums it.
func (b *Backend) SoftmaxCrossEntropy(dlogits, logits compute.Tensor, classes int, labels []int) (loss float64, counted, correct int) {
	db, lb := b.buf(dlogits), b.buf(logits)
	rows := len(labels)
	for _, y := range labels {
		if y >= 0 {
			counted++
		}
	}
	b.run("cross-entropy", func() error {
		if rows == 0 {
			return nil // the CPU's 0/0: NaN
		}
		raw, err := int32Bytes(labels)
		if err != nil {
			return err
		}
		lab, err := b.q.uploadBytes(raw, 0)
		if err != nil {
			return err
		}
		out, err := b.temp(3 * rows) // rows doubles, then rows ints
		if err != nil {
			return err
		}
		defer b.release(out)
		hits := out.At(2 * rows)
		if err := b.q.Launch("xent_f32", Shape{Rows: rows}, new(cudalib.Args).Ptr(lb.Ptr).Ptr(lab.Ptr).Int(int32(rows)).Int(int32(classes)).
			Float64(float64(counted)).Ptr(out.Ptr).Ptr(hits.Ptr).Ptr(db.Ptr)); err != nil {
			return err
		}
		words := make([]float32, 3*rows)
		if err := b.q.Download(words, out); err != nil {
			return err
		}
		for r := 0; r < rows; r++ {
			loss += float64From(words[2*r], words[2*r+1])
			if math.Float32bits(words[2*rows+r]) != 0 {
				correct++
			}
		}
		return nil
	})
	return loss / float64(counted), counted, correct
}

// hostLoss downloads the n values of each input, runs the CPU's loss on
// them and uploads the gradients it wrote into grads (same order).
func (b *Backend) hostLoss(op string, n int, inputs, grads []compute.Tensor, loss func(in, out [][]float32)) {
	ins, outs := make([]Buffer, len(inputs)), make([]Buffer, len(grads))
	for i, t := range inputs {
		ins[i] = b.buf(t)
	}
	for i, t := range grads {
		outs[i] = b.buf(t)
	}
	b.run(op, func() error {
		in, out := make([][]float32, len(ins)), make([][]float32, len(outs))
		for i, buf := range ins {
			in[i] = make([]float32, n)
			if err := b.q.Download(in[i], buf); err != nil {
				return err
			}
		}
		for i := range out {
			out[i] = make([]float32, n)
		}
		loss(in, out)
		for i, buf := range outs {
			if err := b.q.CopyIn(buf, out[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// MSELoss implements compute.TrainBackend with compute.MSELossHost on the
// downloaded predictions (one value per pair of a batch).
func (b *Backend) MSELoss(dpred, pred compute.Tensor, target []float64) float64 {
	var loss float64
	b.hostLoss("MSE loss", len(target), []compute.Tensor{pred}, []compute.Tensor{dpred}, func(in, out [][]float32) {
		loss = compute.MSELossHost(out[0], in[0], target)
	})
	return loss
}

// SymmetricContrastiveLoss implements compute.TrainBackend with
// compute.SymmetricContrastiveLossHost on the downloaded embeddings (one
// batch, n×dim each; the loss is in float64 throughout).
func (b *Backend) SymmetricContrastiveLoss(dImg, dTxt, img, txt compute.Tensor, n, dim int, tau float64) (loss, dTau float64) {
	b.hostLoss("symmetric contrastive loss", n*dim, []compute.Tensor{img, txt}, []compute.Tensor{dImg, dTxt}, func(in, out [][]float32) {
		loss, dTau = compute.SymmetricContrastiveLossHost(in[0], in[1], n, dim, tau, out[0], out[1])
	})
	return loss, dTau
}

// Adam implements compute.TrainBackend (adam_f32 with compute.AdamHost's
// constants, computed here in float64 and rounded as there).
func (b *Backend) Adam(param, grad, m, v compute.Tensor, s compute.AdamStep) {
	pb, gb, mb, vb := b.buf(param), b.buf(grad), b.buf(m), b.buf(v)
	bc1 := 1 - math.Pow(s.Beta1, float64(s.Step))
	bc2 := 1 - math.Pow(s.Beta2, float64(s.Step))
	dec := int32(0)
	if s.Decoupled {
		dec = 1
	}
	b.elementwise("adam", "adam_f32", pb.N, new(cudalib.Args).Ptr(pb.Ptr).Ptr(gb.Ptr).Ptr(mb.Ptr).Ptr(vb.Ptr).Int64(int64(pb.N)).
		Float32(float32(s.Beta1)).Float32(float32(s.Beta2)).Float32(float32(1-s.Beta1)).Float32(float32(1-s.Beta2)).
		Float32(float32(s.LR/bc1)).Float32(float32(math.Sqrt(bc2))).Float32(float32(s.Eps)).Float32(float32(s.WeightDecay)).
		Float32(float32(1-s.LR*s.WeightDecay)).Int(dec))
}

// float64From joins the two float32 words of a little-endian double.
func float64From(lo, hi float32) float64 {
	return math.Float64frombits(uint64(math.Float32bits(lo)) | uint64(math.Float32bits(hi))<<32)
}

// downloadFloat64 downloads n doubles from b (2n float32 words).
func (q *Queue) downloadFloat64(b Buffer, n int) ([]float64, error) {
	words := make([]float32, 2*n)
	if err := q.Download(words, b); err != nil {
		return nil, err
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = float64From(words[2*i], words[2*i+1])
	}
	return out, nil
}
