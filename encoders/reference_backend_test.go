package encoders

import (
	"math"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
)

// refBackend is a deliberately naive second implementation of
// compute.Backend: its own tensor type (so a model that reached past the
// interface into the CPU backend's host slices would fail), triple-loop
// matrix products and attention accumulated in float64, softmax with
// math.Exp. The golden tests run through it (TestGoldensOnReferenceBackend)
// to show that the models depend on the interface alone.
type refBackend struct{}

// refTensor is refBackend's tensor: a pointer to values it owns, with an
// offset so Slice shares storage as a device view would.
type refTensor struct {
	data *[]float32
	off  int
	n    int
}

func (t *refTensor) Len() int { return t.n }

func (refBackend) vals(t compute.Tensor) []float32 {
	if t == nil {
		return nil
	}
	r := t.(*refTensor)
	return (*r.data)[r.off : r.off+r.n]
}

func (refBackend) Name() string { return "reference" }

func (refBackend) Alloc(n int) compute.Tensor {
	d := make([]float32, n)
	return &refTensor{data: &d, n: n}
}

func (b refBackend) Upload(data []float32) compute.Tensor {
	t := b.Alloc(len(data))
	copy(b.vals(t), data)
	return t
}

func (b refBackend) Download(dst []float32, t compute.Tensor) { copy(dst, b.vals(t)) }

func (refBackend) Slice(t compute.Tensor, lo, hi int) compute.Tensor {
	r := t.(*refTensor)
	return &refTensor{data: r.data, off: r.off + lo, n: hi - lo}
}

func (refBackend) Free(t compute.Tensor) { t.(*refTensor).n = -1 } // a later use panics

func (b refBackend) Gemm(transA, transB bool, m, n, k int, alpha float32, at compute.Tensor, lda int, bt compute.Tensor, ldb int, beta float32, ct compute.Tensor, ldc int) {
	a, bb, c := b.vals(at), b.vals(bt), b.vals(ct)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for p := 0; p < k; p++ {
				ai, bi := i*lda+p, p*ldb+j
				if transA {
					ai = p*lda + i
				}
				if transB {
					bi = j*ldb + p
				}
				av, bv := a[ai], bb[bi]
				s += float64(av) * float64(bv)
			}
			v := float64(alpha) * s
			if beta != 0 {
				v += float64(beta) * float64(c[i*ldc+j])
			}
			c[i*ldc+j] = float32(v)
		}
	}
}

func (b refBackend) BiasAct(x, bias compute.Tensor, width int, act compute.Activation) {
	xs, bs := b.vals(x), b.vals(bias)
	for i := range xs {
		if bs != nil {
			xs[i] += bs[i%width]
		}
		one := xs[i : i+1]
		act.Apply(one)
	}
}

func (b refBackend) Add(dst, x compute.Tensor) {
	d := b.vals(dst)
	for i, v := range b.vals(x) {
		d[i] += v
	}
}

func (b refBackend) LayerNorm(dst, x, gamma, beta compute.Tensor, w int, eps float64) {
	xs, out, g, bt := b.vals(x), b.vals(dst), b.vals(gamma), b.vals(beta)
	for r := 0; r < len(xs)/w; r++ {
		row := xs[r*w : (r+1)*w]
		var mean, sq float64
		for _, v := range row {
			mean += float64(v)
		}
		mean /= float64(w)
		for _, v := range row {
			sq += (float64(v) - mean) * (float64(v) - mean)
		}
		std := math.Sqrt(sq/float64(w) + eps)
		for j, v := range row {
			out[r*w+j] = float32((float64(v)-mean)/std*float64(g[j]) + float64(bt[j]))
		}
	}
}

func (b refBackend) Attention(dst, q, k, v compute.Tensor, s compute.AttentionShape, mask compute.Mask) {
	out, qs, ks, vs := b.vals(dst), b.vals(q), b.vals(k), b.vals(v)
	H := s.Heads * s.HeadDim
	p := make([]float64, s.Seq)
	for bi := 0; bi < s.Batch; bi++ {
		for h := 0; h < s.Heads; h++ {
			for i := 0; i < s.Seq; i++ {
				qi := qs[(bi*s.Seq+i)*H+h*s.HeadDim:]
				top, sum := math.Inf(-1), 0.0
				for j := range p {
					p[j] = math.Inf(-1)
					if (mask.KeyValid != nil && !mask.KeyValid[bi*s.Seq+j]) || (mask.Causal && j > i) {
						continue
					}
					kj := ks[(bi*s.Seq+j)*H+h*s.HeadDim:]
					dot := 0.0
					for d := 0; d < s.HeadDim; d++ {
						dot += float64(qi[d]) * float64(kj[d])
					}
					p[j] = dot * float64(s.Scale)
					top = math.Max(top, p[j])
				}
				for j := range p {
					p[j] = math.Exp(p[j] - top)
					sum += p[j]
				}
				o := out[(bi*s.Seq+i)*H+h*s.HeadDim:]
				for d := 0; d < s.HeadDim; d++ {
					acc := 0.0
					for j := range p {
						acc += p[j] / sum * float64(vs[(bi*s.Seq+j)*H+h*s.HeadDim+d])
					}
					o[d] = float32(acc)
				}
			}
		}
	}
}

func (b refBackend) Embed(dst compute.Tensor, w int, tables []compute.Tensor, ids [][]int, period []int) {
	d := b.vals(dst)
	sum := make([]float32, len(d))
	for i, t := range tables {
		tv := b.vals(t)
		for r := 0; r < len(d)/w; r++ {
			at := r
			if ids[i] != nil {
				at = ids[i][r]
			} else if period[i] > 0 {
				at = r % period[i]
			}
			for j := 0; j < w; j++ {
				sum[r*w+j] += tv[at*w+j]
			}
		}
	}
	copy(d, sum)
}

func (b refBackend) Rows(dst, src compute.Tensor, w int, idx []int) {
	d, s := b.vals(dst), b.vals(src)
	for i, at := range idx {
		if at >= 0 {
			copy(d[i*w:(i+1)*w], s[at*w:(at+1)*w])
		}
	}
}

func (b refBackend) Normalize(x compute.Tensor, w int) {
	xs := b.vals(x)
	for r := 0; r < len(xs)/w; r++ {
		n := 0.0
		for _, v := range xs[r*w : (r+1)*w] {
			n += float64(v) * float64(v)
		}
		for j := r * w; j < (r+1)*w; j++ {
			xs[j] = float32(float64(xs[j]) / math.Sqrt(n))
		}
	}
}

var _ compute.Backend = refBackend{}

// TestGoldensOnReferenceBackend runs every encoder golden of the fixture
// set on refBackend, within the goldens' own tolerances.
func TestGoldensOnReferenceBackend(t *testing.T) {
	opts := Options{Backend: refBackend{}}
	t.Run("BERT", func(t *testing.T) { runBERTGoldens(t, opts) })
	t.Run("ALBERT", func(t *testing.T) { runALBERTGoldens(t, opts) })
	t.Run("ViT", func(t *testing.T) { runViTGoldens(t, opts) })
	t.Run("CLIP", func(t *testing.T) { runCLIPGoldens(t, opts) })
}
