package train

import (
	"context"
	"github.com/storyeval/storyeval/vrank"
	"math"
	"math/rand"
	"testing"
)

// TestOptionsAgreeAcrossPaths runs every head feature and pair encoding
// through the trainer's forward pass and through Predict (encoders.BERT),
// and through Save and Load.
func TestOptionsAgreeAcrossPaths(t *testing.T) {
	pairs := syntheticPairs(rand.New(rand.NewSource(8)), 12)
	s1, s2 := trainPairColumns(pairs)
	for _, feature := range []vrank.Feature{vrank.FeatureCLS, vrank.FeaturePooler} {
		for _, enc := range []vrank.InputEncoding{vrank.JoinedText, vrank.TextPair} {
			t.Run(feature.String()+"/"+enc.String(), func(t *testing.T) {
				cfg := tinyModel(t, 1).Config()
				cfg.Feature, cfg.Encoding = feature, enc
				m, err := vrank.NewRandom(cfg, writeTinyVocab(t), 6)
				if err != nil {
					t.Fatal(err)
				}
				encs, err := m.Encode(s1, s2)
				if err != nil {
					t.Fatal(err)
				}
				ones := 0
				for _, e := range encs {
					for _, ty := range e.TypeIDs {
						ones += ty
					}
				}
				if (enc == vrank.TextPair) != (ones > 0) {
					t.Errorf("%d tokens of type 1 with %v encoding", ones, enc)
				}
				got, err := m.Predict(context.Background(), s1, s2)
				if err != nil {
					t.Fatal(err)
				}
				tr, err := NewTrainer(m, Options{})
				if err != nil {
					t.Fatal(err)
				}
				c, err := tr.net.forward(context.Background(), padBatch(encs), nil)
				if err != nil {
					t.Fatal(err)
				}
				for i, p := range c.pred {
					if math.Abs(float64(p)-got[i]) > 1e-5 {
						t.Errorf("pair %d: training forward %v, Predict %v", i, p, got[i])
					}
				}
				dir := t.TempDir()
				if err := m.Save(dir); err != nil {
					t.Fatal(err)
				}
				loaded, err := vrank.Load(dir)
				if err != nil {
					t.Fatal(err)
				}
				if loaded.Config() != m.Config() {
					t.Errorf("config %+v after Load, saved %+v", loaded.Config(), m.Config())
				}
			})
		}
	}
}
