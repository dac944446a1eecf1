package rovist

import (
	"fmt"
	"math"
	"slices"

	"github.com/storyeval/storyeval/encoders/checkpoint"
)

// linearHead is a torch.nn.Linear layer read from a checkpoint: out = W·x + b
// with W stored [out, in] as PyTorch keeps it.
type linearHead struct {
	w, b    []float32
	in, out int
}

// readLinearHead reads name.weight [out, in] and name.bias [out] from st and
// checks their shapes; in or out may be 0 to accept the stored size.
func readLinearHead(st *checkpoint.State, name string, out, in int) (linearHead, error) {
	info, ok := st.Info(name + ".weight")
	if !ok {
		return linearHead{}, fmt.Errorf("the checkpoint has no %s.weight", name)
	}
	if len(info.Shape) != 2 || (out > 0 && info.Shape[0] != out) || (in > 0 && info.Shape[1] != in) {
		return linearHead{}, fmt.Errorf("%s.weight has shape %v, want [%s, %s]", name, info.Shape, dimName(out), dimName(in))
	}
	out, in = info.Shape[0], info.Shape[1]
	binfo, ok := st.Info(name + ".bias")
	if !ok {
		return linearHead{}, fmt.Errorf("the checkpoint has no %s.bias", name)
	}
	if !slices.Equal(binfo.Shape, []int{out}) {
		return linearHead{}, fmt.Errorf("%s.bias has shape %v, want [%d]", name, binfo.Shape, out)
	}
	h := linearHead{w: make([]float32, out*in), b: make([]float32, out), in: in, out: out}
	if err := st.ReadFloat32(name+".weight", h.w); err != nil {
		return linearHead{}, fmt.Errorf("%s.weight: %w", name, err)
	}
	if err := st.ReadFloat32(name+".bias", h.b); err != nil {
		return linearHead{}, fmt.Errorf("%s.bias: %w", name, err)
	}
	for i, v := range h.w {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return linearHead{}, fmt.Errorf("%s.weight holds a non-finite value at %d", name, i)
		}
	}
	return h, nil
}

func dimName(n int) string {
	if n <= 0 {
		return "any"
	}
	return fmt.Sprint(n)
}

// apply writes W·x + b for one input vector into dst (len out). Products are
// accumulated in float64 and rounded once, which stays within an ulp or two
// of PyTorch's float32 BLAS whatever order its kernels add in.
func (h *linearHead) apply(dst, x []float32) {
	for o := 0; o < h.out; o++ {
		row := h.w[o*h.in : (o+1)*h.in]
		var s float64
		for i, v := range row {
			s += float64(v) * float64(x[i])
		}
		dst[o] = float32(s + float64(h.b[o]))
	}
}

// applyTanh applies tanh in place, rounded to float32.
func applyTanh(x []float32) {
	for i, v := range x {
		x[i] = float32(math.Tanh(float64(v)))
	}
}

// normalize applies F.normalize(p=2): x / max(‖x‖, 1e-12), as RoViST-VG's
// scorer does, in float32.
func normalize(x []float32) {
	var ss float64
	for _, v := range x {
		ss += float64(v) * float64(v)
	}
	norm := max(float32(math.Sqrt(ss)), 1e-12)
	for i := range x {
		x[i] /= norm
	}
}
