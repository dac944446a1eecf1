package cuda

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

func TestGPUEmbeddings(t *testing.T) {
	d := openGPU(t)
	r := rand.New(rand.NewPCG(9, 10))
	const vocab, maxPos, types, S, rows, E = 50, 40, 2, 16, 48, 96
	word, pos, typ := randomValues(r, vocab*E, 1), randomValues(r, maxPos*E, 1), randomValues(r, types*E, 1)
	ids, tys := make([]int32, rows), make([]int32, rows)
	for i := range ids {
		ids[i], tys[i] = int32(r.IntN(vocab)), int32(r.IntN(types))
	}
	ids[1] = ids[0] // a repeated token: its gradient rows add up
	wb, pb, tb := upload(t, d.Queue, word), upload(t, d.Queue, pos), upload(t, d.Queue, typ)
	ib, yb := uploadInts(t, d.Queue, ids), uploadInts(t, d.Queue, tys)
	out := upload(t, d.Queue, make([]float32, rows*E))
	launch(t, d.Queue, "embed_sum_f32", Shape{Elems: rows * E}, new(cudalib.Args).Ptr(out.Ptr).Ptr(wb.Ptr).Ptr(pb.Ptr).Ptr(tb.Ptr).Ptr(ib.Ptr).Ptr(yb.Ptr).Int(rows).Int(S).Int(E))
	want := make([]float32, rows*E)
	for i := 0; i < rows; i++ {
		for j := 0; j < E; j++ {
			want[i*E+j] = word[int(ids[i])*E+j] + pos[(i%S)*E+j] + typ[int(tys[i])*E+j]
		}
	}
	closeTo(t, "token embeddings (exact)", download(t, d.Queue, out), want, 0)

	grad := randomValues(r, rows*E, 1)
	gb := upload(t, d.Queue, grad)
	gw, gp, gt := upload(t, d.Queue, make([]float32, vocab*E)), upload(t, d.Queue, make([]float32, maxPos*E)), upload(t, d.Queue, make([]float32, types*E))
	launch(t, d.Queue, "embed_sum_bwd_f32", Shape{Elems: E}, new(cudalib.Args).Ptr(gw.Ptr).Ptr(gp.Ptr).Ptr(gt.Ptr).Ptr(ib.Ptr).Ptr(yb.Ptr).Int(rows).Int(S).Int(E).Ptr(gb.Ptr))
	ww, wp, wt := make([]float32, vocab*E), make([]float32, maxPos*E), make([]float32, types*E)
	for i := 0; i < rows; i++ {
		for j := 0; j < E; j++ {
			ww[int(ids[i])*E+j] += grad[i*E+j]
			wp[(i%S)*E+j] += grad[i*E+j]
			wt[int(tys[i])*E+j] += grad[i*E+j]
		}
	}
	closeTo(t, "word gradient (row order, exact)", download(t, d.Queue, gw), ww, 0)
	closeTo(t, "position gradient (row order, exact)", download(t, d.Queue, gp), wp, 0)
	closeTo(t, "type gradient (row order, exact)", download(t, d.Queue, gt), wt, 0)
}

func TestGPUPatchEmbedding(t *testing.T) {
	d := openGPU(t)
	r := rand.New(rand.NewPCG(11, 12))
	const B, C, img, patch, H = 2, 3, 32, 8, 24
	g := img / patch
	n, k := g*g, C*patch*patch
	imgs := randomValues(r, B*C*img*img, 1)
	ib, cols := upload(t, d.Queue, imgs), upload(t, d.Queue, make([]float32, B*n*k))
	launch(t, d.Queue, "im2col_f32", Shape{Elems: B * n * k}, new(cudalib.Args).Ptr(ib.Ptr).Ptr(cols.Ptr).Int(B).Int(C).Int(img).Int(patch))
	want := make([]float32, 0, B*n*k)
	for b := 0; b < B; b++ {
		for py := 0; py < g; py++ {
			for px := 0; px < g; px++ {
				for c := 0; c < C; c++ {
					for y := 0; y < patch; y++ {
						start := ((b*C+c)*img+py*patch+y)*img + px*patch
						want = append(want, imgs[start:start+patch]...)
					}
				}
			}
		}
	}
	closeTo(t, "im2col (exact)", download(t, d.Queue, cols), want, 0)

	patches, cls, pos := randomValues(r, B*n*H, 1), randomValues(r, H, 1), randomValues(r, (n+1)*H, 1)
	pb, cb, qb := upload(t, d.Queue, patches), upload(t, d.Queue, cls), upload(t, d.Queue, pos)
	x := upload(t, d.Queue, make([]float32, B*(n+1)*H))
	launch(t, d.Queue, "vit_embed_f32", Shape{Elems: B * (n + 1) * H}, new(cudalib.Args).Ptr(x.Ptr).Ptr(pb.Ptr).Ptr(cb.Ptr).Ptr(qb.Ptr).Int(B).Int(int32(n)).Int(H))
	wantX := make([]float32, 0, B*(n+1)*H)
	for b := 0; b < B; b++ {
		for tk := 0; tk <= n; tk++ {
			for j := 0; j < H; j++ {
				v := cls[j]
				if tk > 0 {
					v = patches[(b*n+tk-1)*H+j]
				}
				wantX = append(wantX, v+pos[tk*H+j])
			}
		}
	}
	closeTo(t, "ViT embedding (exact)", download(t, d.Queue, x), wantX, 0)
}

func TestGPUGatherAndNormalize(t *testing.T) {
	d := openGPU(t)
	r := rand.New(rand.NewPCG(13, 14))
	const rows, H = 10, 300
	x := randomValues(r, rows*H, 2)
	for j := 0; j < H; j++ {
		x[3*H+j] = 0 // a zero row: F.normalize divides by 1e-12
	}
	idx := []int32{9, 0, 3}
	xb, ib := upload(t, d.Queue, x), uploadInts(t, d.Queue, idx)
	out := upload(t, d.Queue, make([]float32, len(idx)*H))
	launch(t, d.Queue, "gather_rows_f32", Shape{Elems: len(idx) * H}, new(cudalib.Args).Ptr(out.Ptr).Ptr(xb.Ptr).Ptr(ib.Ptr).Int(int32(len(idx))).Int(H))
	var want []float32
	for _, i := range idx {
		want = append(want, x[int(i)*H:(int(i)+1)*H]...)
	}
	closeTo(t, "gathered rows (exact)", download(t, d.Queue, out), want, 0)

	launch(t, d.Queue, "l2_normalize_f32", Shape{Rows: rows}, new(cudalib.Args).Ptr(xb.Ptr).Int(rows).Int(H).Float32(1e-12))
	wantN := append([]float32(nil), x...)
	for i := 0; i < rows; i++ {
		var ss float64
		for _, v := range x[i*H : (i+1)*H] {
			ss += float64(v) * float64(v)
		}
		n := max(float32(math.Sqrt(ss)), 1e-12)
		for j := i * H; j < (i+1)*H; j++ {
			wantN[j] = x[j] / n
		}
	}
	closeTo(t, "L2-normalised rows", download(t, d.Queue, xb), wantN, 1e-6)
}

// TestGPUAdam checks that a step is bit-identical to the CPU's (float32
// arithmetic without fused multiply-adds, bias corrections in float64).
func TestGPUAdam(t *testing.T) {
	d := openGPU(t)
	r := rand.New(rand.NewPCG(15, 16))
	const n = 10000
	p, g, m := randomValues(r, n, 1), randomValues(r, n, 1e-2), randomValues(r, n, 1e-3)
	v := randomValues(r, n, 1e-4)
	for i := range v {
		v[i] = float32(math.Abs(float64(v[i])))
	}
	pb, gb, mb, vb := upload(t, d.Queue, p), upload(t, d.Queue, g), upload(t, d.Queue, m), upload(t, d.Queue, v)
	const lr, beta1, beta2, eps, wd, step = 2e-5, 0.9, 0.999, 1e-8, 0.01, 3
	bc1, bc2 := 1-math.Pow(beta1, step), 1-math.Pow(beta2, step)
	stepSize, bc2Sqrt := float32(lr/bc1), float32(math.Sqrt(bc2))
	b1, b2, c1, c2 := float32(beta1), float32(beta2), float32(1-beta1), float32(1-beta2)
	launch(t, d.Queue, "adam_f32", Shape{Elems: n}, new(cudalib.Args).Ptr(pb.Ptr).Ptr(gb.Ptr).Ptr(mb.Ptr).Ptr(vb.Ptr).Int64(n).
		Float32(b1).Float32(b2).Float32(c1).Float32(c2).Float32(stepSize).Float32(bc2Sqrt).Float32(eps).Float32(wd).
		Float32(float32(1-lr*wd)).Int(0))
	for i := range p {
		gi := g[i] + float32(wd)*p[i]
		m[i] = m[i]*b1 + gi*c1
		v[i] = v[i]*b2 + c2*gi*gi
		denom := float32(math.Sqrt(float64(v[i])))/bc2Sqrt + float32(eps)
		p[i] -= stepSize * (m[i] / denom)
	}
	closeTo(t, "Adam parameters (bit-identical)", download(t, d.Queue, pb), p, 0)
	closeTo(t, "Adam first moments (bit-identical)", download(t, d.Queue, mb), m, 0)
	closeTo(t, "Adam second moments (bit-identical)", download(t, d.Queue, vb), v, 0)
}

// TestGPUDropout checks that the GPU drops the elements compute's
// Dropout.Factor drops (the same splitmix64 hash of seed, stream, element).
func TestGPUDropout(t *testing.T) {
	d := openGPU(t)
	r := rand.New(rand.NewPCG(17, 18))
	const n, p, offset = 5000, 0.1, 777
	seed, stream := uint64(0x1234567887654321), uint64(0x23) // variables: the hash wraps around
	x := randomValues(r, n, 1)
	xb := upload(t, d.Queue, x)
	prob := p // a variable: Dropout computes the threshold at run time
	threshold := uint64(prob * (1 << 63) * 2)
	keep := float32(1 / (1 - prob))
	launch(t, d.Queue, "dropout_f32", Shape{Elems: n}, new(cudalib.Args).Ptr(xb.Ptr).Int64(n).Uint64(seed).Uint64(stream).Int64(offset).Uint64(threshold).Float32(keep))
	dropped := 0
	for i := range x {
		z := seed ^ stream*0x9E3779B97F4A7C15
		z += uint64(offset+i) * 0xD1B54A32D192ED03
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		z ^= z >> 31
		f := keep
		if z < threshold {
			f = 0
			dropped++
		}
		x[i] *= f
	}
	closeTo(t, "dropout (exact)", download(t, d.Queue, xb), x, 0)
	if dropped < n*p/2 || dropped > n*p*2 {
		t.Errorf("%d of %d dropped at p=%g", dropped, n, p)
	}
}

func TestGPUReductionsAndLoss(t *testing.T) {
	d := openGPU(t)
	r := rand.New(rand.NewPCG(19, 20))
	const n = 3001
	x, y := randomValues(r, n, 3), randomValues(r, n, 3)
	xb, yb := upload(t, d.Queue, x), upload(t, d.Queue, y)
	launch(t, d.Queue, "add_f32", Shape{Elems: n}, new(cudalib.Args).Ptr(xb.Ptr).Ptr(yb.Ptr).Int64(n))
	launch(t, d.Queue, "scale_f32", Shape{Elems: n}, new(cudalib.Args).Ptr(xb.Ptr).Int64(n).Float32(0.5))
	want := make([]float32, n)
	var sum float64
	for i := range want {
		want[i] = (x[i] + y[i]) * 0.5
		sum += float64(want[i])
	}
	closeTo(t, "add, scale (exact)", download(t, d.Queue, xb), want, 0)
	out := upload(t, d.Queue, make([]float32, 2)) // one double
	launch(t, d.Queue, "sum_f32", Shape{Rows: 1}, new(cudalib.Args).Ptr(xb.Ptr).Int64(n).Ptr(out.Ptr))
	o := download(t, d.Queue, out)
	got := math.Float64frombits(uint64(math.Float32bits(o[0])) | uint64(math.Float32bits(o[1]))<<32)
	if math.Abs(got-sum) > 1e-9*math.Abs(sum)+1e-12 {
		t.Errorf("sum %v, want %v", got, sum)
	}
	// Cross-entropy: TestGPUTrainOpsMatchCPU, against the CPU backend.
}

// gemmRef is the row-major product in float64.
func gemmRef(ta, tb bool, m, n, k int, a []float32, lda int, b []float32, ldb int) []float32 {
	c := make([]float32, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for p := 0; p < k; p++ {
				av, bv := a[i*lda+p:], b[p*ldb+j:]
				if ta {
					av = a[p*lda+i:]
				}
				if tb {
					bv = b[j*ldb+p:]
				}
				s += float64(av[0]) * float64(bv[0])
			}
			c[i*n+j] = float32(s)
		}
	}
	return c
}

func TestGPUGemm(t *testing.T) {
	d := openGPU(t)
	r := rand.New(rand.NewPCG(21, 22))
	const m, n, k, batch = 37, 53, 768, 3
	for _, ta := range []bool{false, true} {
		for _, tb := range []bool{false, true} {
			lda, ldb := k, n
			if ta {
				lda = m
			}
			if tb {
				ldb = k
			}
			a, b := randomValues(r, batch*m*k, 1), randomValues(r, batch*k*n, 1)
			ab, bb := upload(t, d.Queue, a), upload(t, d.Queue, b)
			cb := upload(t, d.Queue, make([]float32, batch*m*n))
			g := cudalib.Gemm{TransA: ta, TransB: tb, M: m, N: n, K: k, Alpha: 1, A: ab.Ptr, B: bb.Ptr, C: cb.Ptr,
				LDA: lda, LDB: ldb, LDC: n, StrideA: m * k, StrideB: k * n, StrideC: m * n, Batch: batch}
			if err := d.Gemm(g); err != nil {
				t.Fatal(err)
			}
			var want []float32
			for i := 0; i < batch; i++ {
				want = append(want, gemmRef(ta, tb, m, n, k, a[i*m*k:], lda, b[i*k*n:], ldb)...)
			}
			// float32 accumulation over k = 768 terms of size ≤ 1.
			closeTo(t, "strided batched SGEMM", download(t, d.Queue, cb), want, 2e-5)
		}
	}
}

// TestGPUOutOfMemory checks that an allocation beyond the GPU's memory is a
// one-line error that reports OutOfMemory and names the size.
func TestGPUOutOfMemory(t *testing.T) {
	d := openGPU(t)
	_, err := d.Alloc(1 << 40) // 4 TiB
	var ce *cudalib.Error
	if err == nil || !errors.As(err, &ce) || !ce.OutOfMemory() || strings.Contains(err.Error(), "\n") ||
		!strings.Contains(err.Error(), "allocating 1099511627776 float32 values") {
		t.Errorf("4 TiB allocation: %v; want a one-line out-of-memory error naming the size", err)
	}
}

// TestGPUPinnedCopies round-trips values through page-locked buffers.
func TestGPUPinnedCopies(t *testing.T) {
	d := openGPU(t)
	const n = 1 << 20
	in, err := d.AllocHost(n)
	if err != nil {
		t.Fatal(err)
	}
	defer d.FreeHost(&in)
	out, err := d.AllocHost(n)
	if err != nil {
		t.Fatal(err)
	}
	defer d.FreeHost(&out)
	for i := range in.Data {
		in.Data[i] = float32(i) * 0.5
	}
	b, err := d.Alloc(n)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free(b)
	if err := d.CopyInAsync(b, in); err != nil {
		t.Fatal(err)
	}
	launch(t, d.Queue, "scale_f32", Shape{Elems: n}, new(cudalib.Args).Ptr(b.Ptr).Int64(n).Float32(2))
	if err := d.DownloadAsync(out, b); err != nil {
		t.Fatal(err)
	}
	if err := d.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for i, v := range out.Data {
		if v != float32(i) {
			t.Fatalf("value %d came back as %v, want %d", i, v, i)
		}
	}
	// FreeHost leaves no slice over the released memory; the deferred
	// second FreeHost is then a no-op.
	if err := d.FreeHost(&out); err != nil || out.Data != nil {
		t.Errorf("FreeHost: err %v, Data left with %d values, want nil", err, len(out.Data))
	}
}

// TestGPUFastModes measures the TF32 and BF16 products' deviation from
// float64 on a BERT-sized product: within those formats' rounding (10 and
// 7 stored mantissa bits), and not zero (the mode is really in use).
func TestGPUFastModes(t *testing.T) {
	d := openGPU(t)
	tf, err := Open(Options{TF32: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Close()
	r := rand.New(rand.NewPCG(27, 28))
	const m, n, k = 128, 768, 768
	a, b := randomValues(r, m*k, 1), randomValues(r, n*k, 1)
	want := gemmRef(false, true, m, n, k, a, k, b, k)
	for _, c := range []struct {
		name    string
		q       *Queue
		bf16    bool
		lo, tol float64
	}{{"float32", d.Queue, false, 0, 2e-5}, {"TF32", tf.Queue, false, 1e-5, 2e-2}, {"BF16", d.Queue, true, 1e-4, 1e-1}} {
		ab, bb := upload(t, c.q, a), upload(t, c.q, b)
		cb := upload(t, c.q, make([]float32, m*n))
		g := cudalib.Gemm{TransB: true, M: m, N: n, K: k, Alpha: 1, A: ab.Ptr, B: bb.Ptr, C: cb.Ptr, LDA: k, LDB: k, LDC: n}
		gemm := c.q.Gemm
		if c.bf16 {
			gemm = c.q.GemmBF16
		}
		if err := gemm(g); err != nil {
			t.Fatal(err)
		}
		got := download(t, c.q, cb)
		worst := 0.0
		for i := range want {
			worst = math.Max(worst, math.Abs(float64(got[i]-want[i]))/math.Max(1, math.Abs(float64(want[i]))))
		}
		t.Logf("%s product %d×%d×%d: largest relative deviation from float64 %.3g", c.name, m, n, k, worst)
		if worst > c.tol || worst < c.lo {
			t.Errorf("%s: deviation %.3g, want within [%g, %g]", c.name, worst, c.lo, c.tol)
		}
	}
}
