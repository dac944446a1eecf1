package encoders

import (
	"context"
	"testing"

	"github.com/storyeval/storyeval/internal/dense"
)

func TestCLIPGoldens(t *testing.T) { runCLIPGoldens(t, Options{}) }

// runCLIPGoldens checks every CLIP golden of the fixture set with models on
// the backend opts choose.
func runCLIPGoldens(t *testing.T, opts Options) {
	for name, dir := range fixtureModels(t, "clip") {
		g := loadGolden(t, dir)
		var cfg CLIPConfig
		if err := LoadConfig(dir, &cfg); err != nil {
			t.Fatal(err)
		}
		for file := range g.weightFiles() {
			st := g.open(file)
			m, err := NewCLIP(cfg, st, opts)
			st.Close()
			if err != nil {
				t.Fatalf("%s/%s: %v", name, file, err)
			}
			label := name + "/" + file
			ctx := context.Background()
			var text *CLIPOutput
			if g.has("input_ids") {
				encs := g.encodings("")
				text, err = m.EncodeText(ctx, encs, ForwardOptions{HiddenStates: true})
				if err != nil {
					t.Fatal(err)
				}
				B, T, Ht, D := len(encs), encs[0].Len(), cfg.TextConfig.HiddenSize, cfg.ProjectionDim
				g.compare(label, "text_last_hidden_state", dense.Data(text.LastHiddenState).([]float32), []int{B, T, Ht})
				g.compare(label, "text_pooler_output", dense.Data(text.PoolerOutput).([]float32), []int{B, Ht})
				g.compare(label, "text_hidden_states", flatHidden(text.HiddenStates), []int{len(text.HiddenStates), B, T, Ht})
				g.compare(label, "text_features", dense.Data(text.Features).([]float32), []int{B, D})
				g.compare(label, "text_embeds", dense.Data(text.Embeds).([]float32), []int{B, D})
				eos := make([]float32, B)
				for i, e := range text.EOSIndex {
					eos[i] = float32(e)
				}
				g.compare(label, "text_eos_index", eos, []int{B})
			}
			for _, p := range g.prefixes("pixel_values") {
				imgs := g.pixels(p + "pixel_values")
				img, err := m.EncodeImages(ctx, imgs, ForwardOptions{HiddenStates: true})
				if err != nil {
					t.Fatal(err)
				}
				Bi, S, Hv := len(imgs), m.patch.numPatches()+1, cfg.VisionConfig.HiddenSize
				vp := p + "vision_"
				g.compare(label, vp+"last_hidden_state", dense.Data(img.LastHiddenState).([]float32), []int{Bi, S, Hv})
				g.compare(label, vp+"pooler_output", dense.Data(img.PoolerOutput).([]float32), []int{Bi, Hv})
				g.compare(label, vp+"hidden_states", flatHidden(img.HiddenStates), []int{len(img.HiddenStates), Bi, S, Hv})
				if p != "" {
					continue // only the processed images have text pairs
				}
				D := cfg.ProjectionDim
				g.compare(label, "image_features", dense.Data(img.Features).([]float32), []int{Bi, D})
				g.compare(label, "image_embeds", dense.Data(img.Embeds).([]float32), []int{Bi, D})
				if text == nil {
					continue
				}
				B := len(text.EOSIndex)
				perText, perImage, err := m.Logits(text.Embeds, img.Embeds)
				if err != nil {
					t.Fatal(err)
				}
				g.compare(label, "logits_per_text", dense.Data(perText).([]float32), []int{B, Bi})
				g.compare(label, "logits_per_image", dense.Data(perImage).([]float32), []int{Bi, B})
			}
		}
		g.done()
	}
}
