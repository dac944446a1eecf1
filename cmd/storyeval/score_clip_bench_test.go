package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/randmodel"
	"github.com/storyeval/storyeval/internal/sentences"
)

// BenchmarkScoreCLIPScoreVsCommand compares the time per story of CLIPScore
// inside `score` (one system, 4 sequences of 5 images, stories of 5
// sentences: one image–sentence pair per image) with `storyeval clipscore`
// on the equivalent 20 caption items, with a full-size (ViT-B/32)
// random-weight CLIP; both runs include loading the model:
//
//	go test -run='^$' -bench=ScoreCLIPScoreVsCommand -benchtime=1x -count=2 ./cmd/storyeval/
func BenchmarkScoreCLIPScoreVsCommand(b *testing.B) {
	dir := b.TempDir()
	clipDir := filepath.Join(dir, "models", "clip")
	writeRandomCLIP(b, clipDir)
	const n, perStory = 4, 5
	imagesDir := filepath.Join(dir, "images")
	if err := os.MkdirAll(imagesDir, 0o755); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	words := strings.Fields("red blue old young small large wooden stone happy tall dog cat car bridge river tree house child man woman bride cake beach boat flower")
	captions := map[string]string{}
	paths := map[string]string{}
	seqs := map[string]any{}
	for s := range n {
		var ids, sents []string
		for k := range perStory {
			id := fmt.Sprintf("s%d_%d", s, k)
			p := filepath.Join(imagesDir, id+".jpg")
			if err := randmodel.WriteGradientJPEG(p, 320, 240, rng); err != nil {
				b.Fatal(err)
			}
			sent := fmt.Sprintf("In scene %d the %s %s waits by the %s.", s*perStory+k, words[rng.Intn(10)], words[10+rng.Intn(15)], words[10+rng.Intn(15)])
			ids, sents, paths[id], captions[id] = append(ids, id), append(sents, sent), p, sent
		}
		text := strings.Join(sents, " ")
		if got := sentences.Split(text); len(got) != perStory {
			b.Fatalf("story %d splits into %d sentences, want %d", s, len(got), perStory)
		}
		seqs[fmt.Sprint("seq", s)] = map[string]any{"images": ids, "stories": map[string]string{"sys": text}}
	}
	candsPath := writeJSONFile(b, filepath.Join(dir, "cands.json"), captions)
	suitePath := writeJSONFile(b, filepath.Join(dir, "suite.json"), map[string]any{"images": paths, "sequences": seqs})
	compareWithCommand(b, n, 0,
		[][]string{{"clipscore", "-cands", candsPath, "-images", imagesDir, "-model", clipDir}},
		[]string{"score", "-in", suitePath, "-models", filepath.Join(dir, "models"), "-metrics", "clipscore", "-out", filepath.Join(dir, "out"), "-resamples", "100", "-rounds", "100"})
}
