package autodiff

import (
	"math/rand"
	"testing"
	"time"

	_ "github.com/storyeval/storyeval/encoders"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func randDense(r *rand.Rand, shape ...int) *tensor.Dense {
	n := 1
	for _, s := range shape {
		n *= s
	}
	d := make([]float32, n)
	for i := range d {
		d[i] = float32(r.NormFloat64() * 0.02)
	}
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(d))
}

// ffn builds y = tanh(x·W1)·W2, loss = sum(y).
func ffn(rows, H, I int, withGrad bool) (*G.ExprGraph, *G.Node, G.Nodes) {
	r := rand.New(rand.NewSource(1))
	g := G.NewGraph()
	x := G.NewMatrix(g, tensor.Float32, G.WithShape(rows, H), G.WithName("x"), G.WithValue(randDense(r, rows, H)))
	w1 := G.NewMatrix(g, tensor.Float32, G.WithShape(H, I), G.WithName("w1"), G.WithValue(randDense(r, H, I)))
	w2 := G.NewMatrix(g, tensor.Float32, G.WithShape(I, H), G.WithName("w2"), G.WithValue(randDense(r, I, H)))
	h := G.Must(G.Tanh(G.Must(G.Mul(x, w1))))
	y := G.Must(G.Mul(h, w2))
	loss := G.Must(G.Sum(y))
	var grads G.Nodes
	if withGrad {
		var err error
		if grads, err = G.Grad(loss, w1, w2); err != nil {
			panic(err)
		}
	}
	return g, loss, grads
}

func TestGorgoniaProbe(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	rows, H, I := 8*512, 768, 3072
	for _, withGrad := range []bool{false, true} {
		g, _, _ := ffn(rows, H, I, withGrad)
		vm := G.NewTapeMachine(g)
		var best time.Duration
		for rep := 0; rep < 3; rep++ {
			start := time.Now()
			if err := vm.RunAll(); err != nil {
				t.Fatal(err)
			}
			el := time.Since(start)
			if rep == 0 || el < best {
				best = el
			}
			vm.Reset()
		}
		flops := 2.0 * 2 * float64(rows*H*I)
		t.Logf("grad=%v: %v (forward matmul GFLOP/s if forward-only: %.1f)", withGrad, best, flops/best.Seconds()/1e9)
		vm.Close()
	}
}
