package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/vrank"
)

// BenchmarkScoreVrankVsCommand compares the time of Vrank inside `score
// -metrics vrank` with `storyeval vrank predict` on exactly the story pairs
// score predicts (for each system, its story against every other system's
// story of each sequence: 3 systems × 2 others × 3 sequences = 18 pairs),
// with a full-size (BERT-base) random-weight model, per predicted pair and
// per story:
//
//	go test -run='^$' -bench=ScoreVrankVsCommand -benchtime=1x ./cmd/storyeval/
func BenchmarkScoreVrankVsCommand(b *testing.B) {
	const sequences = 3
	systems := []string{"llava", "llava-2sent", "echo"}
	dir := b.TempDir()
	cfg := vrank.Config{BERT: encoders.BERTConfig{VocabSize: 30522, HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12,
		IntermediateSize: 3072, HiddenAct: "gelu", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}}
	m, err := vrank.NewRandom(cfg, filepath.Join("..", "..", "testdata", "e2e", "vrank", "model"), 1)
	if err != nil {
		b.Fatal(err)
	}
	modelDir := filepath.Join(dir, "vrank")
	if err := m.Save(modelDir); err != nil {
		b.Fatal(err)
	}
	models := linkModels(b, dir, map[string]string{"vrank": modelDir})
	bs := writeBenchSuite(b, dir, sequences, 5, systems...)
	// The pairs in the order scoreVrank predicts them.
	rows := [][]string{{"sent1", "sent2"}}
	for _, sys := range systems {
		for _, seq := range bs.seqs {
			for _, o := range systems {
				if o != sys {
					rows = append(rows, []string{seq.Stories[sys], seq.Stories[o]})
				}
			}
		}
	}
	pairsPath := filepath.Join(dir, "pairs.csv")
	f, err := os.Create(pairsPath)
	if err != nil {
		b.Fatal(err)
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(rows); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	stories, pairs := sequences*len(systems), len(rows)-1
	compareWithCommand(b, stories, pairs, [][]string{{"vrank", "predict", "-model", modelDir, "-csv", pairsPath}}, scoreArgs(dir, bs, models, "vrank"))
}
