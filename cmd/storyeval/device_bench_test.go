package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// BenchmarkDeviceStoriesPerSecond measures `storyeval rovist -metrics vg`
// (ViT-B/16) and `storyeval groovist` (CLIP B/32) end to end — decoding,
// preprocessing, the encoder, the scores — with full-size random-weight
// models, 5 images × 10 region crops per story and no embedding cache, on
// CUDA and on the CPU, in stories per second (the end-to-end
// comparison; the prepared GPU check runs it):
//
//	go test -run='^$' -bench=DeviceStoriesPerSecond -benchtime=1x ./cmd/storyeval/
//
// STORYEVAL_DEVICE_BENCH_SEQUENCES stories run on CUDA (default 100, the
// issue's size), STORYEVAL_DEVICE_BENCH_CPU_SEQUENCES on the CPU (default
// 4: a rate, so fewer stories measure it; at 100 the CPU side alone takes
// about half an hour on two cores). Without a usable GPU only the CPU
// runs, unless STORYEVAL_REQUIRE_CUDA=1, which makes that a failure.
func BenchmarkDeviceStoriesPerSecond(b *testing.B) {
	const images, crops = 5, 10
	count := func(env string, def int) int {
		s := os.Getenv(env)
		if s == "" {
			return def
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("%s=%q: want a positive integer", env, s)
		}
		return n
	}
	gpuSeqs, cpuSeqs := count("STORYEVAL_DEVICE_BENCH_SEQUENCES", 100), count("STORYEVAL_DEVICE_BENCH_CPU_SEQUENCES", 4)
	devices := []struct {
		name string
		seqs int
	}{{"cpu", cpuSeqs}}
	if err := cuda.Discover(cudalib.Options{}).Usable(0); err == nil {
		devices = append(devices, struct {
			name string
			seqs int
		}{"cuda", gpuSeqs})
	} else if os.Getenv("STORYEVAL_REQUIRE_CUDA") == "1" {
		b.Fatalf("STORYEVAL_REQUIRE_CUDA=1 but: %v", err)
	} else {
		b.Logf("CPU only: %v", err)
	}
	dir := b.TempDir()
	ckpt, vitDir := writeRandomRoViSTVG(b, dir)
	clipDir := filepath.Join(dir, "clip")
	writeRandomCLIP(b, clipDir)
	// The demo set's stories, cycled over images of their own: story i
	// has images 900000+5i… of its own, so no crop is shared between stories.
	demo := writeBenchSuite(b, mkdir(b, filepath.Join(dir, "demo")), 20, images, "llava")
	most := 0
	for _, d := range devices {
		most = max(most, d.seqs)
	}
	type rovistStory struct {
		Story  string   `json:"story"`
		Images []string `json:"images"`
	}
	var imageIDs []string
	storiesFile := map[int]string{}
	for _, d := range devices {
		set := map[string]rovistStory{}
		for i := range d.seqs {
			st := rovistStory{Story: demo.stories[i%len(demo.stories)].Text}
			for j := range images {
				st.Images = append(st.Images, strconv.Itoa(900000+i*images+j))
			}
			set[fmt.Sprintf("story%03d", i)] = st
			if d.seqs == most && len(imageIDs) < most*images {
				imageIDs = append(imageIDs, st.Images...)
			}
		}
		storiesFile[d.seqs] = writeJSONFile(b, filepath.Join(dir, fmt.Sprintf("stories-%d.json", d.seqs)), set)
	}
	regions, cropsDir := writeRegionCrops(b, dir, imageIDs, crops)
	glove, idf := writeNounTables(b, dir, demo.stories)
	metrics := []struct {
		name string
		args func(stories string) []string
	}{
		{"RoViST-VG", func(stories string) []string {
			return []string{"rovist", "-no-cache", "-stories", stories, "-metrics", "vg", "-grounding-model", ckpt, "-vit", vitDir,
				"-glove", glove, "-idf", idf, "-regions", regions, "-crops", cropsDir}
		}},
		{"GROOViST", func(stories string) []string {
			return []string{"groovist", "-no-cache", "-stories", stories, "-model", clipDir, "-entities", regions, "-crops", cropsDir}
		}},
	}
	for _, m := range metrics {
		b.Run(m.name, func(b *testing.B) {
			rate := map[string]float64{}
			for _, d := range devices {
				args := append(m.args(storiesFile[d.seqs]), "-device", d.name)
				var secs float64
				for range b.N {
					var stdout, stderr bytes.Buffer
					start := time.Now()
					if code := runMain(args, &stdout, &stderr); code != 0 {
						b.Fatalf("%v: exit %d: %s", args, code, stderr.String())
					}
					secs += time.Since(start).Seconds()
				}
				rate[d.name] = float64(d.seqs*b.N) / secs
				b.ReportMetric(rate[d.name], d.name+"-stories/s")
			}
			detail := fmt.Sprintf("%s: CPU %.3g stories/s (%d stories)", m.name, rate["cpu"], cpuSeqs)
			if r, ok := rate["cuda"]; ok {
				b.ReportMetric(r/rate["cpu"], "cuda/cpu")
				detail += fmt.Sprintf(", CUDA %.3g stories/s (%d stories), %.1f×", r, gpuSeqs, r/rate["cpu"])
			}
			fmt.Println("detail: " + detail)
		})
	}
}
