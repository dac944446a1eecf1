package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/story"
)

// benchSuite builds the demo's three systems (LLaVA, its first two
// sentences, its first sentence three times) for the 500 LLaVA stories of
// the golden set, with their VIST references.
func benchSuite(b *testing.B) *story.Suite {
	b.Helper()
	read := func(name string) map[string]string {
		f, err := os.Open(filepath.Join("..", "..", "testdata", "words", name))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		zr, err := gzip.NewReader(f)
		if err != nil {
			b.Fatal(err)
		}
		data, err := io.ReadAll(zr)
		if err != nil {
			b.Fatal(err)
		}
		m := map[string]string{}
		if err := json.Unmarshal(data, &m); err != nil {
			b.Fatal(err)
		}
		return m
	}
	gt, llava := read("vist_gt_test.json.gz"), read("vist_llava_first500.json.gz")
	split := regexp.MustCompile(`(?:[.!?])\s+`)
	var seqs []story.Sequence
	for id, text := range llava {
		ref, ok := gt[id]
		if !ok {
			continue
		}
		sents := split.Split(strings.TrimSpace(text), -1)
		two := strings.Join(sents[:min(2, len(sents))], ". ")
		seqs = append(seqs, story.Sequence{ID: id, References: []string{ref}, Stories: map[string]string{
			"llava": text, "llava-2sent": two, "echo": strings.Repeat(sents[0]+". ", 3),
		}})
	}
	s, err := story.NewSuite([]string{"llava", "llava-2sent", "echo"}, seqs)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkScore500x3 times what `storyeval score` does after reading its
// input — BLEU-4, METEOR, ROUGE-L, CIDEr-D and RoViST-NR on 500 stories × 3
// systems, bootstrap intervals, randomization tests, and the three output
// files:
//
//	go test -run='^$' -bench=Score500x3 -benchtime=3x ./cmd/storyeval/
func BenchmarkScore500x3(b *testing.B) {
	s := benchSuite(b)
	if s.Len() != 500 {
		b.Fatalf("%d sequences, want 500", s.Len())
	}
	names, err := compare.ParseMetricNames("bleu,meteor,rouge,cider,nr")
	if err != nil {
		b.Fatal(err)
	}
	metrics, err := (&compare.Sources{Suite: s}).Metrics(names, nil, "")
	if err != nil {
		b.Fatal(err)
	}
	out := b.TempDir()
	b.ResetTimer()
	for range b.N {
		run, err := compare.Compare(context.Background(), s, metrics, compare.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := run.WriteFiles(out); err != nil {
			b.Fatal(err)
		}
	}
}
