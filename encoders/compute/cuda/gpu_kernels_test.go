package cuda

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
	"github.com/storyeval/storyeval/encoders/compute/cuda/kernels"
	"github.com/storyeval/storyeval/internal/npmath"
)

// The tests of this file run each kernel on a GPU against the CPU path's
// arithmetic written out in Go (encoders' and internal/backprop's loops);
// they skip without a usable GPU (see openGPU).

// actRef is the CPU path's activation of v (encoders/activation.go).
func actRef(v float32, act int) float32 {
	f := float64(v)
	switch act {
	case kernels.ActGELU:
		return float32(0.5 * f * (1 + npmath.Erf32(f/math.Sqrt2)))
	case kernels.ActGELUTanh:
		return float32(0.5 * f * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(f+0.044715*f*f*f))))
	case kernels.ActQuickGELU:
		return float32(f / (1 + math.Exp(-1.702*f)))
	case kernels.ActReLU:
		if v < 0 {
			return 0
		}
		return v
	case kernels.ActTanh:
		return float32(math.Tanh(f))
	}
	return v
}

// actGradRef is the derivative the backward pass multiplies by.
func actGradRef(v float32, act int) float64 {
	f := float64(v)
	switch act {
	case kernels.ActGELU:
		return 0.5*(1+npmath.Erf32(f*math.Sqrt2/2)) + f*math.Exp(-0.5*f*f)/math.Sqrt(2*math.Pi)
	case kernels.ActGELUTanh:
		c := math.Sqrt(2 / math.Pi)
		th := math.Tanh(c * (f + 0.044715*f*f*f))
		return 0.5*(1+th) + 0.5*f*(1-th*th)*c*(1+3*0.044715*f*f)
	case kernels.ActQuickGELU:
		s := 1 / (1 + math.Exp(-1.702*f))
		return s + 1.702*f*s*(1-s)
	case kernels.ActReLU:
		if v > 0 {
			return 1
		}
		return 0
	case kernels.ActTanh:
		th := math.Tanh(f)
		return 1 - th*th
	}
	return 1
}

func TestGPUBiasActivation(t *testing.T) {
	d := openGPU(t)
	r := rand.New(rand.NewPCG(1, 2))
	const rows, cols = 5, 333
	x, bias := randomValues(r, rows*cols, 4), randomValues(r, cols, 1)
	b := upload(t, d.Queue, bias)
	for act := kernels.ActNone; act <= kernels.ActTanh; act++ {
		y := upload(t, d.Queue, x)
		launch(t, d.Queue, "bias_act_f32", Shape{Elems: rows * cols}, new(cudalib.Args).Ptr(y.Ptr).Ptr(b.Ptr).Int(rows).Int(cols).Int(int32(act)))
		want := make([]float32, len(x))
		for i, v := range x {
			want[i] = actRef(v+bias[i%cols], act)
		}
		closeTo(t, "bias+activation", download(t, d.Queue, y), want, 1e-6)

		dy := upload(t, d.Queue, x)
		xs := upload(t, d.Queue, bias[:cols])
		launch(t, d.Queue, "act_backward_f32", Shape{Elems: cols}, new(cudalib.Args).Ptr(dy.Ptr).Ptr(dy.Ptr).Ptr(xs.Ptr).Int64(cols).Int(int32(act)))
		wantG := append([]float32(nil), x...)
		for i := 0; i < cols; i++ {
			wantG[i] = x[i] * float32(actGradRef(bias[i], act))
		}
		closeTo(t, "activation backward", download(t, d.Queue, dy), wantG, 1e-6)
	}
}

func TestGPUColumnSums(t *testing.T) {
	d := openGPU(t)
	r := rand.New(rand.NewPCG(3, 4))
	const rows, cols = 300, 77
	x, acc := randomValues(r, rows*cols, 1), randomValues(r, cols, 1)
	xb, db := upload(t, d.Queue, x), upload(t, d.Queue, acc)
	launch(t, d.Queue, "column_sums_f32", Shape{Elems: cols}, new(cudalib.Args).Ptr(xb.Ptr).Int(rows).Int(cols).Ptr(db.Ptr))
	want := append([]float32(nil), acc...)
	for c := 0; c < cols; c++ {
		var s float32
		for i := 0; i < rows; i++ {
			s += x[i*cols+c]
		}
		want[c] += s
	}
	closeTo(t, "column sums (row order, exact)", download(t, d.Queue, db), want, 0)
}

func TestGPULayerNorm(t *testing.T) {
	d := openGPU(t)
	r := rand.New(rand.NewPCG(5, 6))
	for _, H := range []int{768, 100} {
		const rows, eps = 6, 1e-12
		x, g, bt := randomValues(r, rows*H, 3), randomValues(r, H, 1), randomValues(r, H, 1)
		xb, gb, bb := upload(t, d.Queue, x), upload(t, d.Queue, g), upload(t, d.Queue, bt)
		y := upload(t, d.Queue, make([]float32, rows*H))
		xhat, rstd := upload(t, d.Queue, make([]float32, rows*H)), upload(t, d.Queue, make([]float32, rows))
		args := func(xh, rs cudalib.DevicePtr) *cudalib.Args {
			return new(cudalib.Args).Ptr(xb.Ptr).Ptr(gb.Ptr).Ptr(bb.Ptr).Ptr(y.Ptr).Ptr(xh).Ptr(rs).Int(rows).Int(int32(H)).Float64(eps)
		}
		wantInf, wantTrain := make([]float32, rows*H), make([]float32, rows*H)
		wantXhat, wantRstd := make([]float32, rows*H), make([]float32, rows)
		for i := 0; i < rows; i++ {
			row := x[i*H : (i+1)*H]
			var mean, variance float64
			for _, v := range row {
				mean += float64(v)
			}
			mean /= float64(H)
			for _, v := range row {
				variance += (float64(v) - mean) * (float64(v) - mean)
			}
			variance /= float64(H)
			inv := 1 / math.Sqrt(variance+eps)
			wantRstd[i] = float32(inv)
			for j, v := range row {
				wantInf[i*H+j] = float32((float64(v)-mean)*inv)*g[j] + bt[j]
				wantXhat[i*H+j] = float32((float64(v) - mean) * inv)
				wantTrain[i*H+j] = wantXhat[i*H+j]*g[j] + bt[j]
			}
		}
		launch(t, d.Queue, "layernorm_fwd_f32", Shape{Rows: rows}, args(0, 0))
		closeTo(t, "LayerNorm (inference)", download(t, d.Queue, y), wantInf, 1e-6)
		launch(t, d.Queue, "layernorm_fwd_f32", Shape{Rows: rows}, args(xhat.Ptr, rstd.Ptr))
		closeTo(t, "LayerNorm (training)", download(t, d.Queue, y), wantTrain, 1e-6)
		closeTo(t, "LayerNorm xhat", download(t, d.Queue, xhat), wantXhat, 1e-6)
		closeTo(t, "LayerNorm rstd", download(t, d.Queue, rstd), wantRstd, 1e-6)

		// Backward from dy, with the forward pass's xhat and rstd.
		dy := randomValues(r, rows*H, 1)
		dyb, dx := upload(t, d.Queue, dy), upload(t, d.Queue, make([]float32, rows*H))
		dg, db := upload(t, d.Queue, make([]float32, H)), upload(t, d.Queue, make([]float32, H))
		launch(t, d.Queue, "layernorm_bwd_f32", Shape{Rows: rows}, new(cudalib.Args).Ptr(dyb.Ptr).Ptr(xhat.Ptr).Ptr(rstd.Ptr).Ptr(gb.Ptr).Ptr(dx.Ptr).Int(rows).Int(int32(H)))
		launch(t, d.Queue, "layernorm_param_grad_f32", Shape{Elems: H}, new(cudalib.Args).Ptr(dyb.Ptr).Ptr(xhat.Ptr).Int(rows).Int(int32(H)).Ptr(dg.Ptr).Ptr(db.Ptr))
		xh := download(t, d.Queue, xhat)
		wantDx, wantDg, wantDb := make([]float32, rows*H), make([]float32, H), make([]float32, H)
		for i := 0; i < rows; i++ {
			var sum, dot float32
			for j := 0; j < H; j++ {
				v := dy[i*H+j] * g[j]
				sum += v
				dot += v * xh[i*H+j]
			}
			sum /= float32(H)
			dot /= float32(H)
			for j := 0; j < H; j++ {
				wantDx[i*H+j] = wantRstd[i] * (dy[i*H+j]*g[j] - sum - xh[i*H+j]*dot)
				wantDg[j] += dy[i*H+j] * xh[i*H+j]
				wantDb[j] += dy[i*H+j]
			}
		}
		closeTo(t, "LayerNorm backward", download(t, d.Queue, dx), wantDx, 1e-5)
		closeTo(t, "LayerNorm dγ (row order, exact)", download(t, d.Queue, dg), wantDg, 0)
		closeTo(t, "LayerNorm dβ (row order, exact)", download(t, d.Queue, db), wantDb, 0)
	}
}

// softmaxRef is encoders' masked softmax of one row: hidden keys 0, the
// rest exp(x−max) in double, normalised; no visible key gives uniform
// weights.
func softmaxRef(row []float32, visible func(j int) bool) []float32 {
	out := make([]float32, len(row))
	m, any := float32(0), false
	for j, v := range row {
		if visible(j) && (!any || v > m) {
			m, any = v, true
		}
	}
	var s float64
	for j, v := range row {
		if !any {
			s++
		} else if visible(j) {
			s += math.Exp(float64(v - m))
		}
	}
	for j, v := range row {
		switch {
		case !any:
			out[j] = float32(1 / s)
		case visible(j):
			out[j] = float32(math.Exp(float64(v-m)) / s)
		}
	}
	return out
}

func TestGPUMaskedSoftmax(t *testing.T) {
	d := openGPU(t)
	r := rand.New(rand.NewPCG(7, 8))
	const B, heads, S = 3, 2, 300
	valid := make([]float32, (B*S+3)/4) // bytes, packed 4 to a float32 slot
	keyValid := make([]byte, B*S)
	for j := range keyValid {
		// Sequence 0: all valid; 1: padding after 200; 2: nothing valid.
		if j < S || (j >= S && j < S+200) {
			keyValid[j] = 1
		}
	}
	for i := range valid {
		var w uint32
		for k := 0; k < 4 && 4*i+k < len(keyValid); k++ {
			w |= uint32(keyValid[4*i+k]) << (8 * k)
		}
		valid[i] = math.Float32frombits(w)
	}
	vb := upload(t, d.Queue, valid)
	for _, causal := range []bool{false, true} {
		for _, divisor := range []float32{0, 8} {
			x := randomValues(r, B*heads*S*S, 20)
			xb := upload(t, d.Queue, x)
			c := int32(0)
			if causal {
				c = 1
			}
			launch(t, d.Queue, "masked_softmax_f32", Shape{Rows: B * heads * S}, new(cudalib.Args).Ptr(xb.Ptr).Ptr(vb.Ptr).Int(B).Int(heads).Int(S).Int(S).Int(c).Float32(divisor))
			want := make([]float32, 0, len(x))
			for row := 0; row < B*heads*S; row++ {
				b, q := row/(heads*S), row%S
				in := append([]float32(nil), x[row*S:(row+1)*S]...)
				if divisor != 0 {
					for j := range in {
						in[j] /= divisor
					}
				}
				want = append(want, softmaxRef(in, func(j int) bool { return keyValid[b*S+j] == 1 && !(causal && j > q) })...)
			}
			closeTo(t, "masked softmax", download(t, d.Queue, xb), want, 1e-6)

			// Backward: p·(dp − Σp·dp)·scale.
			p := want
			dp := randomValues(r, len(p), 1)
			pb, dpb := upload(t, d.Queue, p), upload(t, d.Queue, dp)
			div := divisor
			if div == 0 {
				div = 1
			}
			scale := 1 / div
			launch(t, d.Queue, "softmax_bwd_f32", Shape{Rows: B * heads * S}, new(cudalib.Args).Ptr(pb.Ptr).Ptr(dpb.Ptr).Int(B*heads*S).Int(S).Float32(scale))
			wantD := make([]float32, len(p))
			for row := 0; row < B*heads*S; row++ {
				var dot float64
				for j := 0; j < S; j++ {
					dot += float64(p[row*S+j]) * float64(dp[row*S+j])
				}
				for j := 0; j < S; j++ {
					wantD[row*S+j] = float32(float64(p[row*S+j]) * (float64(dp[row*S+j]) - dot) * float64(scale))
				}
			}
			closeTo(t, "softmax backward", download(t, d.Queue, dpb), wantD, 1e-6)
		}
	}
}
