package encoders

import (
	"context"
	"testing"

	"github.com/storyeval/storyeval/internal/dense"
)

func TestBERTGoldens(t *testing.T) { runBERTGoldens(t, Options{}) }

// runBERTGoldens checks every BERT golden of the fixture set with models on
// the backend opts choose.
func runBERTGoldens(t *testing.T, opts Options) {
	for name, dir := range fixtureModels(t, "bert") {
		g := loadGolden(t, dir)
		var cfg BERTConfig
		if err := LoadConfig(dir, &cfg); err != nil {
			t.Fatal(err)
		}
		for file, outPrefix := range g.weightFiles() {
			st := g.open(file)
			m, err := NewBERT(cfg, st, opts)
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
				B, T, H := len(encs), encs[0].Len(), cfg.HiddenSize
				o := outPrefix + p
				g.compare(label, o+"last_hidden_state", dense.Data(out.LastHiddenState).([]float32), []int{B, T, H})
				if g.has(o + "hidden_states") {
					g.compare(label, o+"hidden_states", flatHidden(out.HiddenStates), []int{len(out.HiddenStates), B, T, H})
				}
				for _, pool := range []struct {
					p    Pooling
					name string
					cos  string
				}{{PoolCLS, "pooler_output", "simcse_cos_pooler"}, {PoolCLSBeforePooler, "cls_before_pooler", ""}, {PoolMean, "mean_pooled", "simcse_cos_mean"}} {
					if !g.has(o + pool.name) {
						continue
					}
					emb, err := out.SentenceEmbedding(pool.p)
					if err != nil {
						t.Fatal(err)
					}
					g.compare(label, o+pool.name, dense.Data(emb).([]float32), []int{B, H})
					if pool.cos != "" && g.has(o+pool.cos) {
						g.compare64(label, o+pool.cos, cosFlat(must(CosineMatrix(emb))), []int{B, B})
					}
				}
			}
		}
		g.done()
	}
}
