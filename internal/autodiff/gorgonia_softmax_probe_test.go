package autodiff

import (
	"math"
	"math/rand"
	"testing"
	"time"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestGorgoniaSoftmaxProbe(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	rows, cols := 8*12*512, 512 // one BERT-base layer's attention scores, 8 x 512 tokens
	r := rand.New(rand.NewSource(1))
	for _, withGrad := range []bool{false, true} {
		g := G.NewGraph()
		x := G.NewMatrix(g, tensor.Float32, G.WithShape(rows, cols), G.WithName("x"), G.WithValue(randDense(r, rows, cols)))
		c := G.NewMatrix(g, tensor.Float32, G.WithShape(rows, cols), G.WithName("c"), G.WithValue(randDense(r, rows, cols)))
		p := G.Must(G.SoftMax(x))
		loss := G.Must(G.Sum(G.Must(G.HadamardProd(p, c))))
		if withGrad {
			if _, err := G.Grad(loss, x); err != nil {
				t.Fatal(err)
			}
		}
		vm := G.NewTapeMachine(g)
		start := time.Now()
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		t.Logf("softmax grad=%v: %v", withGrad, time.Since(start))
		vm.Close()
	}
	// A plain loop: forward and backward of the same softmax.
	x := randDense(r, rows, cols).Data().([]float32)
	c := randDense(r, rows, cols).Data().([]float32)
	p := make([]float32, len(x))
	dx := make([]float32, len(x))
	start := time.Now()
	for i := 0; i < rows; i++ {
		row, pr := x[i*cols:(i+1)*cols], p[i*cols:(i+1)*cols]
		m := row[0]
		for _, v := range row {
			if v > m {
				m = v
			}
		}
		var s float32
		for j, v := range row {
			pr[j] = float32(math.Exp(float64(v - m)))
			s += pr[j]
		}
		for j := range pr {
			pr[j] /= s
		}
	}
	fwd := time.Since(start)
	for i := 0; i < rows; i++ {
		pr, cr, dr := p[i*cols:(i+1)*cols], c[i*cols:(i+1)*cols], dx[i*cols:(i+1)*cols]
		var dot float32
		for j := range pr {
			dot += pr[j] * cr[j]
		}
		for j := range pr {
			dr[j] = pr[j] * (cr[j] - dot)
		}
	}
	t.Logf("plain loop: forward %v, forward+backward %v", fwd, time.Since(start))
}
