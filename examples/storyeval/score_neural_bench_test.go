package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

// BenchmarkScoreCoherenceVsCommand compares the time per story of RoViST-C
// inside `score` with `storyeval rovist -metrics c` on the same 8 demo
// stories, with a full-size (albert-large) random-weight model:
//
//	go test -run='^$' -bench=ScoreCoherenceVsCommand -benchtime=1x ./examples/storyeval/
func BenchmarkScoreCoherenceVsCommand(b *testing.B) {
	albertDir := filepath.Join("..", "..", "testdata", "e2e", "rovist_c", "albert-large-v1")
	spiece, err := os.ReadFile(filepath.Join(albertDir, "spiece.model"))
	if err != nil {
		b.Fatal(err)
	}
	cfg := encoders.ALBERTConfig{VocabSize: 30000, EmbeddingSize: 128, HiddenSize: 1024, NumHiddenLayers: 24, NumHiddenGroups: 1, InnerGroupNum: 1,
		NumAttentionHeads: 16, IntermediateSize: 4096, HiddenAct: "gelu", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}
	cfgJSON, err := json.Marshal(map[string]any{"model_type": "albert", "vocab_size": cfg.VocabSize, "embedding_size": cfg.EmbeddingSize,
		"hidden_size": cfg.HiddenSize, "num_hidden_layers": cfg.NumHiddenLayers, "num_hidden_groups": 1, "inner_group_num": 1,
		"num_attention_heads": cfg.NumAttentionHeads, "intermediate_size": cfg.IntermediateSize, "hidden_act": cfg.HiddenAct,
		"max_position_embeddings": cfg.MaxPositionEmbeddings, "type_vocab_size": cfg.TypeVocabSize, "layer_norm_eps": cfg.LayerNormEps})
	if err != nil {
		b.Fatal(err)
	}
	tok, err := tokenize.LoadALBERT(albertDir)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := rovist.NewRandomCoherenceTrainer(cfg, tok, map[string][]byte{"config.json": cfgJSON, "spiece.model": spiece}, rovist.CoherenceTrainOptions{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	modelDir := filepath.Join(dir, "model")
	if err := tr.SaveModel(modelDir); err != nil {
		b.Fatal(err)
	}
	models := filepath.Join(dir, "models")
	if err := os.MkdirAll(filepath.Join(models, "rovist"), 0o755); err != nil {
		b.Fatal(err)
	}
	for link, target := range map[string]string{
		"rovist/sop_model_epoch4.safetensors": filepath.Join(modelDir, rovist.CoherenceWeightsFile),
		"rovist/albert-large-v1":              modelDir,
	} {
		if err := os.Symlink(target, filepath.Join(models, filepath.FromSlash(link))); err != nil {
			b.Fatal(err)
		}
	}
	demo, err := story.DecodeSuite(demoStories, "demo", story.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	const n = 8
	texts := map[string]string{}
	seqs := map[string]any{}
	for i := range n {
		seq := demo.At(i)
		texts[seq.ID] = seq.Stories["llava"]
		seqs[seq.ID] = map[string]any{"stories": map[string]string{"llava": seq.Stories["llava"]}}
	}
	write := func(name string, v any) string {
		data, err := json.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		return p
	}
	storiesPath := write("stories.json", texts)
	suitePath := write("suite.json", map[string]any{"sequences": seqs})
	run := func(b *testing.B, args []string) {
		for range b.N {
			start := time.Now()
			if code := runMain(args, io.Discard, io.Discard); code != 0 {
				b.Fatalf("%q: exit %d", args, code)
			}
			b.ReportMetric(time.Since(start).Seconds()/n, "s/story")
		}
	}
	b.Run("rovist", func(b *testing.B) {
		run(b, []string{"rovist", "-stories", storiesPath, "-coherence-model", filepath.Join(modelDir, rovist.CoherenceWeightsFile), "-albert", modelDir, "-metrics", "c"})
	})
	b.Run("score", func(b *testing.B) {
		run(b, []string{"score", "-in", suitePath, "-models", models, "-metrics", "c", "-out", filepath.Join(dir, "out"), "-resamples", "100", "-rounds", "100"})
	})
}
