package kernels

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
)

// caseFile writes the inputs and the CPU backend's outputs of the training
// kernels' checks as C arrays (hexadecimal floats: exact), for
// testdata/train_emu_test.cpp.
type caseFile struct{ b strings.Builder }

func (c *caseFile) floats(name string, v []float32) {
	fmt.Fprintf(&c.b, "static float %s[] = {", name)
	for i, x := range v {
		if i > 0 {
			c.b.WriteString(", ")
		}
		c.b.WriteString(strconv.FormatFloat(float64(x), 'x', -1, 32))
	}
	if len(v) == 0 {
		c.b.WriteString("0")
	}
	c.b.WriteString("};\n")
}

func (c *caseFile) ints(name string, v []int) {
	fmt.Fprintf(&c.b, "static int %s[] = {", name)
	for i, x := range v {
		if i > 0 {
			c.b.WriteString(", ")
		}
		c.b.WriteString(strconv.Itoa(x))
	}
	c.b.WriteString("};\n")
}

func (c *caseFile) double(name string, v float64) {
	fmt.Fprintf(&c.b, "static const double %s = %s;\n", name, strconv.FormatFloat(v, 'x', -1, 64))
}

func randoms(r *rand.Rand, n int, scale float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = (r.Float32()*2 - 1) * scale
	}
	return v
}

func clone(v []float32) []float32 { return append([]float32(nil), v...) }

// Sizes of the cases: rows longer than the emulation's blocks of 8
// threads, so the strided loops and the reductions' trees are exercised.
const (
	caseRows, caseWidth = 3, 21
	xentRows, xentCols  = 5, 30
	vecLen              = 37
)

// writeTrainCases computes every case on the CPU backend.
func writeTrainCases() string {
	cpu := compute.CPU()
	h := func(v []float32) compute.Tensor { return compute.Host(v) }
	r := rand.New(rand.NewSource(7))
	var c caseFile
	n := caseRows * caseWidth
	fmt.Fprintf(&c.b, "static const int ROWS = %d, WIDTH = %d, XROWS = %d, XCOLS = %d, VEC = %d;\n", caseRows, caseWidth, xentRows, xentCols, vecLen)

	// BiasActSave and BiasActBackward for every activation.
	x, bias, dy := randoms(r, n, 3), randoms(r, caseWidth, 1), randoms(r, n, 1)
	dbias0 := randoms(r, caseWidth, 1)
	c.floats("act_x", x)
	c.floats("act_bias", bias)
	c.floats("act_dy", dy)
	c.floats("act_dbias0", dbias0)
	for a := compute.Identity; a <= compute.Tanh; a++ {
		pre, dst := clone(x), make([]float32, n)
		cpu.BiasActSave(h(dst), h(pre), h(bias), caseWidth, a)
		dx, dbias := make([]float32, n), clone(dbias0)
		cpu.BiasActBackward(h(dx), h(dbias), h(dy), h(pre), caseWidth, a)
		c.floats(fmt.Sprintf("act%d_pre", a), pre)
		c.floats(fmt.Sprintf("act%d_dst", a), dst)
		c.floats(fmt.Sprintf("act%d_dx", a), dx)
		c.floats(fmt.Sprintf("act%d_dbias", a), dbias)
	}

	// LayerNormSave and LayerNormBackward (γ and β gradients accumulate).
	g, b := randoms(r, caseWidth, 1), randoms(r, caseWidth, 1)
	ln, xhat, rstd := make([]float32, n), make([]float32, n), make([]float32, caseRows)
	cpu.LayerNormSave(h(ln), h(x), h(g), h(b), caseWidth, 1e-5, h(xhat), h(rstd))
	dx, dg, db := make([]float32, n), clone(dbias0), clone(bias)
	c.floats("ln_gamma", g)
	c.floats("ln_beta", b)
	c.floats("ln_dgamma0", dg)
	c.floats("ln_dbeta0", db)
	cpu.LayerNormBackward(h(dx), h(dg), h(db), h(dy), h(xhat), h(rstd), h(g), caseWidth)
	c.floats("ln_y", ln)
	c.floats("ln_xhat", xhat)
	c.floats("ln_rstd", rstd)
	c.floats("ln_dx", dx)
	c.floats("ln_dgamma", dg)
	c.floats("ln_dbeta", db)

	// EmbedBackward (ids with repeats, a period, the row itself) and
	// RowsBackward (a negative index skipped).
	ids := []int{4, 1, 4}
	grads := [][]float32{randoms(r, 5*caseWidth, 1), randoms(r, 2*caseWidth, 1), randoms(r, n, 1)}
	c.ints("emb_ids", ids)
	for i, gr := range grads {
		c.floats(fmt.Sprintf("emb_g%d_0", i), gr)
	}
	cpu.EmbedBackward([]compute.Tensor{h(grads[0]), h(grads[1]), h(grads[2])}, caseWidth, [][]int{ids, nil, nil}, []int{0, 2, 0}, h(dy))
	for i, gr := range grads {
		c.floats(fmt.Sprintf("emb_g%d", i), gr)
	}
	idx := []int{2, -1, 0}
	dsrc := randoms(r, n, 1)
	c.ints("rows_idx", idx)
	c.floats("rows_dsrc0", dsrc)
	cpu.RowsBackward(h(dsrc), h(dy), caseWidth, idx)
	c.floats("rows_dsrc", dsrc)

	// SoftmaxCrossEntropy: an ignored row, and a row whose maximum is tied
	// (the first is the argmax).
	logits := randoms(r, xentRows*xentCols, 4)
	logits[3*xentCols+7], logits[3*xentCols+20] = 9, 9
	labels := []int{3, -100, 29, 20, 0}
	dl := make([]float32, len(logits))
	loss, counted, correct := cpu.SoftmaxCrossEntropy(h(dl), h(logits), xentCols, labels)
	c.floats("xent_logits", logits)
	c.ints("xent_labels", labels)
	c.floats("xent_dlogits", dl)
	c.double("xent_loss", loss)
	fmt.Fprintf(&c.b, "static const int xent_counted = %d, xent_correct = %d;\n", counted, correct)

	// Adam, with L2 weight decay and decoupled (AdamW).
	p, gr, m := randoms(r, vecLen, 1), randoms(r, vecLen, 0.1), randoms(r, vecLen, 0.01)
	v := randoms(r, vecLen, 0.001)
	for i := range v {
		v[i] = max(v[i], -v[i])
	}
	c.floats("adam_p0", p)
	c.floats("adam_g", gr)
	c.floats("adam_m0", m)
	c.floats("adam_v0", v)
	for i, dec := range []bool{false, true} {
		s := compute.AdamStep{LR: 1e-3, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, WeightDecay: 0.01, Decoupled: dec, Step: 3}
		pp, mm, vv := clone(p), clone(m), clone(v)
		cpu.Adam(h(pp), h(gr), h(mm), h(vv), s)
		c.floats(fmt.Sprintf("adam%d_p", i), pp)
		c.floats(fmt.Sprintf("adam%d_m", i), mm)
		c.floats(fmt.Sprintf("adam%d_v", i), vv)
	}

	// Dropout, AddScaled, Mul, Scale and SumSquares on one vector.
	d := compute.NewDropout(0.3, rand.New(rand.NewSource(9)))
	dv := clone(p)
	cpu.Dropout(h(dv), d, 5)
	fmt.Fprintf(&c.b, "static const unsigned long long drop_seed = %dULL, drop_threshold = %dULL;\n", d.Seed, d.Threshold)
	c.double("drop_p", d.P)
	c.floats("drop_x", dv)
	ax := clone(p)
	cpu.AddScaled(h(ax), h(gr), -0.37)
	c.floats("axpy_x", ax)
	mx := clone(p)
	cpu.Mul(h(mx), h(gr))
	c.floats("mul_x", mx)
	sx := clone(p)
	cpu.Scale(h(sx), 1.7)
	c.floats("scale_x", sx)
	c.double("sumsq", cpu.SumSquares(h(p)))
	return c.b.String()
}

// TestTrainKernelsMatchCPUBackend runs the training kernels on the CPU
// emulation of CUDA (testdata/emu.h) and checks their outputs against the
// CPU backend's own (compute.CPU's TrainBackend operations), computed here
// and written into the C++ check as exact constants.
func TestTrainKernelsMatchCPUBackend(t *testing.T) {
	t.Logf("%s", runEmulation(t, "train_emu_test.cpp", map[string]string{"train_cases.h": writeTrainCases()}))
}
