package nn

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/checkpoint"
)

// TestParamWalkSaveLoad lists an encoder layer's parameters through its
// walk, initialises them, saves them as safetensors and reads them into a
// zeroed layer of the same walk: every value must come back, and the
// moments (ZerosLike) must have the walk's names and shapes.
func TestParamWalkSaveLoad(t *testing.T) {
	names := EncoderLayerNames{Query: "q", Key: "k", Value: "v", AttnOut: "o", LN1: "n1", FFNIn: "f1", FFNOut: "f2", LN2: "n2"}
	src, dst := NewEncoderLayer[float32](4, 8), NewEncoderLayer[float32](4, 8)
	walk := func(l *EncoderLayer[float32]) func(TensorNamer[float32]) {
		return func(add TensorNamer[float32]) { add.EncoderLayer("layer.0.", l, names) }
	}
	ps := Collect(walk(&src))
	if len(ps) != 16 || ps[0].Name != "layer.0.q.weight" || !slices.Equal(ps[0].Shape, []int{4, 4}) || &ps[0].Data[0] != &src.Q.W[0] {
		t.Fatalf("walk: %d parameters, first %s %v", len(ps), ps[0].Name, ps[0].Shape)
	}
	InitNormal(ps, rand.New(rand.NewSource(1)), 0.02)
	if src.FC2.B[3] == 0 || src.LN2.G[0] == 0 {
		t.Fatal("InitNormal left parameters at zero")
	}
	var buf bytes.Buffer
	if err := WriteSafetensors(&buf, ps, map[string]string{"format": "pt"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "layer.safetensors")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := checkpoint.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got := Collect(walk(&dst))
	if err := ReadParams(st, got); err != nil {
		t.Fatal(err)
	}
	for i := range ps {
		if !slices.Equal(got[i].Data, ps[i].Data) {
			t.Errorf("%s: read back %v, saved %v", ps[i].Name, got[i].Data, ps[i].Data)
		}
	}
	m := ZerosLike(ps)
	if len(m) != len(ps) || m[5].Name != ps[5].Name || len(m[5].Data) != len(ps[5].Data) || &m[5].Data[0] == &ps[5].Data[0] {
		t.Error("ZerosLike does not mirror the walk with fresh tensors")
	}
	if v := Values(ps); &v[2][0] != &src.K.W[0] {
		t.Error("Values does not alias the parameters")
	}
	// A walk naming a tensor twice, or a shape the checkpoint does not
	// hold, is an error naming the parameter.
	if err := WriteSafetensors(&buf, append(ps, ps[0]), nil); err == nil || !strings.Contains(err.Error(), "layer.0.q.weight") {
		t.Errorf("duplicate name: %v", err)
	}
	got[1].Shape = []int{2, 2}
	got[1].Data = got[1].Data[:4]
	if err := ReadParams(st, got); err == nil || !strings.Contains(err.Error(), `"layer.0.q.bias" has shape [4], want [2 2]`) {
		t.Errorf("wrong shape: %v", err)
	}
}

// TestTokenEmbeddingsGradient checks TokenEmbeddingsBackward against
// central differences of Σ c·TokenEmbeddingsForward with respect to every
// table entry, in float64, with repeated ids so that gradients add up.
func TestTokenEmbeddingsGradient(t *testing.T) {
	const V, P, Ty, S, E = 5, 3, 2, 3, 4
	rng := rand.New(rand.NewSource(3))
	word, pos, typ := Normal[float64](V*E, rng, 1), Normal[float64](P*E, rng, 1), Normal[float64](Ty*E, rng, 1)
	ids, types := []int{1, 4, 1, 0, 1, 3}, []int{0, 1, 1, 0, 0, 1}
	c := Normal[float64](len(ids)*E, rng, 1)
	out := make([]float64, len(ids)*E)
	loss := func() float64 {
		TokenEmbeddingsForward(word, pos, typ, ids, types, S, E, out)
		s := 0.0
		for i, v := range out {
			s += c[i] * v
		}
		return s
	}
	gw, gp, gt := make([]float64, V*E), make([]float64, P*E), make([]float64, Ty*E)
	TokenEmbeddingsBackward(gw, gp, gt, ids, types, S, E, c)
	for _, tab := range []struct {
		name    string
		x, grad []float64
	}{{"word", word, gw}, {"position", pos, gp}, {"type", typ, gt}} {
		for i := range tab.x {
			orig := tab.x[i]
			const h = 1e-6
			tab.x[i] = orig + h
			up := loss()
			tab.x[i] = orig - h
			down := loss()
			tab.x[i] = orig
			if num := (up - down) / (2 * h); abs(num-tab.grad[i]) > 1e-8 {
				t.Errorf("%s[%d]: gradient %g, central difference %g", tab.name, i, tab.grad[i], num)
			}
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
