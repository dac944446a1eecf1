package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// BenchmarkEmbeddingCacheSecondSystem measures what the embedding cache
// saves: `storyeval rovist -metrics vg` (ViT-B/16) and `storyeval
// groovist` (CLIP B/32), full-size random-weight models, on 4 stories × 5
// images × 10 region crops. first: one system with an empty cache (every
// crop encoded and stored); second: another system's stories over the
// same images with the cache warm; nocache: that second system with
// -no-cache. second/first is the cost of re-scoring; 1 − second/nocache
// is the share of a run spent on the image side (decode, preprocess,
// encoder):
//
//	go test -run='^$' -bench=EmbeddingCacheSecondSystem -benchtime=1x ./cmd/storyeval/
//
// STORYEVAL_CACHE_BENCH_SEQUENCES=100 runs the size (100 stories;
// about 5,000 crops per metric); STORYEVAL_CACHE_BENCH_NOCACHE=0 leaves out
// the -no-cache run, which at that size costs as much as the first.
func BenchmarkEmbeddingCacheSecondSystem(b *testing.B) {
	const images, crops = 5, 10
	sequences := 4
	if s := os.Getenv("STORYEVAL_CACHE_BENCH_SEQUENCES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("STORYEVAL_CACHE_BENCH_SEQUENCES=%q: want a positive integer", s)
		}
		sequences = n
	}
	withNoCache := os.Getenv("STORYEVAL_CACHE_BENCH_NOCACHE") != "0"
	dir := b.TempDir()
	ckpt, vitDir := writeRandomRoViSTVG(b, dir)
	clipDir := filepath.Join(dir, "clip")
	writeRandomCLIP(b, clipDir)
	bs := writeBenchSuite(b, mkdir(b, filepath.Join(dir, "suite")), sequences, images, "llava", "echo")
	regions, cropsDir := writeRegionCrops(b, dir, bs.imageIDs, crops)
	glove, idf := writeNounTables(b, dir, bs.stories)
	for _, c := range []struct {
		name string
		args func(system string) []string
	}{
		{"RoViST-VG", func(sys string) []string {
			return []string{"rovist", "-stories", bs.commandStories[sys], "-metrics", "vg", "-grounding-model", ckpt, "-vit", vitDir,
				"-glove", glove, "-idf", idf, "-regions", regions, "-crops", cropsDir}
		}},
		{"GROOViST", func(sys string) []string {
			return []string{"groovist", "-stories", bs.commandStories[sys], "-model", clipDir, "-entities", regions, "-crops", cropsDir}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			run := func(args []string, cache []string) float64 {
				b.Helper()
				full := append(append([]string{args[0]}, cache...), args[1:]...)
				var stdout, stderr bytes.Buffer
				start := time.Now()
				if code := runMain(full, &stdout, &stderr); code != 0 {
					b.Fatalf("%v: exit %d: %s", full, code, stderr.String())
				}
				return time.Since(start).Seconds()
			}
			var first, second, nocache float64
			for range b.N {
				cache := []string{"-cache", b.TempDir()}
				first += run(c.args("llava"), cache)
				second += run(c.args("echo"), cache)
				if withNoCache {
					nocache += run(c.args("echo"), []string{"-no-cache"})
				}
			}
			n := float64(b.N)
			b.ReportMetric(first/n, "first-s")
			b.ReportMetric(second/n, "second-s")
			b.ReportMetric(100*second/first, "second/first-%")
			if withNoCache {
				b.ReportMetric(nocache/n, "nocache-s")
				b.ReportMetric(100*(1-second/nocache), "image-side-%")
			}
		})
	}
}
