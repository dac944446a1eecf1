package encoders

import (
	"context"
	"testing"

	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/dense"
)

// pixels turns a golden pixel_values array [B, C, H, W] into images.
func (g *golden) pixels(name string) []imageproc.PixelValues {
	a := g.input(name)
	B, C, H, W := a.Shape[0], a.Shape[1], a.Shape[2], a.Shape[3]
	out := make([]imageproc.PixelValues, B)
	for b := range out {
		out[b] = imageproc.PixelValues{Channels: C, Height: H, Width: W, Data: a.F32[b*C*H*W : (b+1)*C*H*W]}
	}
	return out
}

func TestViTGoldens(t *testing.T) { runViTGoldens(t, Options{}) }

// runViTGoldens checks every ViT golden of the fixture set with models on
// the backend opts choose.
func runViTGoldens(t *testing.T, opts Options) {
	for name, dir := range fixtureModels(t, "vit") {
		g := loadGolden(t, dir)
		var cfg ViTConfig
		if err := LoadConfig(dir, &cfg); err != nil {
			t.Fatal(err)
		}
		for file, outPrefix := range g.weightFiles() {
			st := g.open(file)
			m, err := NewViT(cfg, st, opts)
			st.Close()
			if err != nil {
				t.Fatalf("%s/%s: %v", name, file, err)
			}
			label := name + "/" + file
			for _, p := range g.prefixes("pixel_values") {
				imgs := g.pixels(p + "pixel_values")
				out, err := m.Forward(context.Background(), imgs, ForwardOptions{HiddenStates: true})
				if err != nil {
					t.Fatal(err)
				}
				B, T, H := len(imgs), m.patch.numPatches()+1, cfg.HiddenSize
				o := outPrefix + p
				if g.has(o + "last_hidden_state") {
					g.compare(label, o+"last_hidden_state", dense.Data(out.LastHiddenState).([]float32), []int{B, T, H})
				}
				if g.has(o + "pooler_output") {
					g.compare(label, o+"pooler_output", dense.Data(out.PoolerOutput).([]float32), []int{B, H})
				}
				if g.has(o + "hidden_states") {
					g.compare(label, o+"hidden_states", flatHidden(out.HiddenStates), []int{len(out.HiddenStates), B, T, H})
				}
				if g.has(o + "logits") {
					l, err := m.ClassifierLogits(out)
					if err != nil {
						t.Fatal(err)
					}
					g.compare(label, o+"logits", dense.Data(l).([]float32), l.Shape())
				}
			}
		}
		g.done()
	}
}
