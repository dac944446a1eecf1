package encoders

import (
	"context"
	"testing"

	"github.com/storyeval/storyeval/internal/dense"
)

func TestALBERTGoldens(t *testing.T) { runALBERTGoldens(t, Options{}) }

// runALBERTGoldens checks every ALBERT golden of the fixture set with models on
// the backend opts choose.
func runALBERTGoldens(t *testing.T, opts Options) {
	for name, dir := range fixtureModels(t, "albert") {
		g := loadGolden(t, dir)
		var cfg ALBERTConfig
		if err := LoadConfig(dir, &cfg); err != nil {
			t.Fatal(err)
		}
		for file := range g.weightFiles() {
			st := g.open(file)
			m, err := NewALBERT(cfg, st, opts)
			st.Close()
			if err != nil {
				t.Fatalf("%s/%s: %v", name, file, err)
			}
			label := name + "/" + file
			for _, p := range g.prefixes("input_ids") {
				encs := g.encodings(p)
				out, err := m.Forward(context.Background(), encs, ForwardOptions{HiddenStates: true})
				if err != nil {
					t.Fatal(err)
				}
				B, T, H, E := len(encs), encs[0].Len(), cfg.HiddenSize, cfg.EmbeddingSize
				if g.has(p + "last_hidden_state") {
					g.compare(label, p+"last_hidden_state", dense.Data(out.LastHiddenState).([]float32), []int{B, T, H})
				}
				if g.has(p + "pooler_output") {
					g.compare(label, p+"pooler_output", dense.Data(out.PoolerOutput).([]float32), []int{B, H})
				}
				if g.has(p + "hidden_states") {
					g.compare(label, p+"hidden_states", flatHidden(out.HiddenStates), []int{len(out.HiddenStates), B, T, H})
				}
				if g.has(p + "embedding_output") {
					g.compare(label, p+"embedding_output", dense.Data(out.EmbeddingOutput).([]float32), []int{B, T, E})
				}
				if g.has(p + "sop_logits") {
					l, err := m.SOPLogits(out)
					if err != nil {
						t.Fatal(err)
					}
					g.compare(label, p+"sop_logits", dense.Data(l).([]float32), []int{B, 2})
				}
				if g.has(p + "logits") {
					l, err := m.ClassifierLogits(out)
					if err != nil {
						t.Fatal(err)
					}
					g.compare(label, p+"logits", dense.Data(l).([]float32), l.Shape())
				}
				if g.has(p + "mlm_logits_at_mask") {
					pos := g.array(p + "mask_positions")
					var positions [][2]int
					for i := 0; i < pos.Shape[0]; i++ {
						positions = append(positions, [2]int{int(pos.I64[2*i]), int(pos.I64[2*i+1])})
					}
					l, err := m.MLMLogits(out, positions)
					if err != nil {
						t.Fatal(err)
					}
					g.compare(label, p+"mlm_logits_at_mask", dense.Data(l).([]float32), []int{len(positions), cfg.VocabSize})
				}
			}
		}
		g.done()
	}
}
