package rovist

import (
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/imageproc"
	encrandmodel "github.com/storyeval/storyeval/encoders/randmodel"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/randmodel"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/story"
)

// Full-size benchmarks with random weights: RoViST-C on albert-large
// (albert-large-v1's config) and RoViST-VG on ViT-B/16 (in21k's config), 50
// five-sentence stories, each with 5 images of 10 region crops (JPEG files
// in the released layout: a regions CSV and a crops folder). As in VIST,
// where the five stories of an album share its photos, stories come in
// groups of five sharing their images: 50 distinct images, 500 crops. They
// report stories/s, the share of the time spent in encoder forward passes
// (measured by re-running the same batches through the encoder alone; for
// VG the first four batches, scaled to all crops) and
// the peak RSS. Run once:
//
//	go test -run='^$' -bench=FullSizeCoherence -benchtime=1x ./rovist/
//	go test -run='^$' -bench=FullSizeGrounding -benchtime=1x ./rovist/

const (
	fullSizeStories   = 50
	benchImagesStory  = 5
	benchCropsImage   = 10
	benchStoriesAlbum = 5
)

// openRandomCheckpoint writes params with random weights
// (internal/randmodel) to a temporary safetensors file and opens it.
func openRandomCheckpoint(b *testing.B, params []encrandmodel.Param, seed int64) *checkpoint.State {
	b.Helper()
	path := filepath.Join(b.TempDir(), "model.safetensors")
	if err := encrandmodel.WriteSafetensors(path, params, seed); err != nil {
		b.Fatal(err)
	}
	st, err := checkpoint.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// albertLargeCheckpoint is a RoViST-C state_dict of albert-large's shape.
func albertLargeCheckpoint(b *testing.B) (encoders.ALBERTConfig, *checkpoint.State) {
	cfg := encoders.ALBERTConfig{VocabSize: 30000, EmbeddingSize: 128, HiddenSize: 1024, NumHiddenLayers: benchLayers(24), NumHiddenGroups: 1, InnerGroupNum: 1,
		NumAttentionHeads: 16, IntermediateSize: 4096, HiddenAct: "gelu", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}
	return cfg, openRandomCheckpoint(b, encrandmodel.RoViSTCParams(cfg), 1)
}

// vitBaseCheckpoint is a RoViST-VG state_dict of ViT-B/16 (in21k)'s shape.
func vitBaseCheckpoint(b *testing.B) (encoders.ViTConfig, *checkpoint.State) {
	cfg := encrandmodel.ViTB16In21k()
	return cfg, openRandomCheckpoint(b, encrandmodel.RoViSTVGParams(cfg), 2)
}

var benchWords = strings.Fields(`the family went to the beach and the kids played in the sand with a dog near the water
while my father cooked dinner on the grill at the park we saw a band playing music for the crowd
after the game the team walked to the bar downtown for a drink and the city lights were bright`)

// benchStorySet returns the stories: five sentences of 10 to 25 words,
// images shared by the stories of an album.
func benchStorySet() []story.Story {
	rng := rand.New(rand.NewSource(3))
	out := make([]story.Story, fullSizeStories)
	for i := range out {
		var sb strings.Builder
		for range 5 {
			n := 10 + rng.Intn(16)
			for w := range n {
				if w > 0 {
					sb.WriteByte(' ')
				}
				sb.WriteString(benchWords[rng.Intn(len(benchWords))])
			}
			sb.WriteString(" . ")
		}
		album := i / benchStoriesAlbum
		st := story.Story{ID: strconv.Itoa(i), Text: strings.TrimSpace(sb.String())}
		for k := range benchImagesStory {
			st.Images = append(st.Images, story.Image{ID: strconv.Itoa(1000 + album*benchImagesStory + k)})
		}
		out[i] = st
	}
	return out
}

// benchLayout writes the regions CSV, JPEG crops of 60–160 × 40–120
// pixels, and a GloVe file with random 300-d vectors.
func benchLayout(b *testing.B, stories []story.Story) (csvPath, crops, glovePath string) {
	dir := b.TempDir()
	var ids []string
	seen := map[string]bool{}
	for _, st := range stories {
		for _, im := range st.Images {
			if !seen[im.ID] {
				seen[im.ID] = true
				ids = append(ids, im.ID)
			}
		}
	}
	csvPath, crops, err := randmodel.WriteRegionCrops(dir, ids, benchCropsImage, 4)
	if err != nil {
		b.Fatal(err)
	}
	glovePath = filepath.Join(dir, "glove.6B.300d.txt")
	if err := randmodel.WriteGloVe(glovePath, append(slices.Clone(benchWords), GloVeUnknown), 300, 5); err != nil {
		b.Fatal(err)
	}
	return csvPath, crops, glovePath
}

// peakRSSMiB reads the process's peak resident set (VmHWM).
func peakRSSMiB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// reportShares reports stories per second of wall time and per CPU-second,
// and the encoder's share of each (the CPU share is the one that holds on a
// machine shared with other work).
func reportShares(b *testing.B, total, enc, totalCPU, encCPU time.Duration) {
	n := float64(b.N * fullSizeStories)
	b.ReportMetric(n/total.Seconds(), "stories/s")
	b.ReportMetric(n/totalCPU.Seconds(), "stories/CPU-s")
	b.ReportMetric(100*enc.Seconds()/total.Seconds(), "%encoder-wall")
	b.ReportMetric(100*encCPU.Seconds()/totalCPU.Seconds(), "%encoder-CPU")
}

func BenchmarkFullSizeCoherence(b *testing.B) {
	cfg, st := albertLargeCheckpoint(b)
	tok, err := tokenize.LoadALBERT(filepath.Join("..", "testdata", "e2e", "rovist_c", "albert-large-v1"))
	if err != nil {
		b.Fatal(err)
	}
	m, err := NewCoherenceModel(cfg, st, tok)
	if err != nil {
		b.Fatal(err)
	}
	stories := benchStorySet()
	ctx := context.Background()
	var total, enc, totalCPU, encCPU time.Duration
	pairs := 0
	for b.Loop() {
		start, cpu := time.Now(), cpuTime(b)
		res, err := m.Score(ctx, stories, CoherenceOptions{})
		if err != nil {
			b.Fatal(err)
		}
		total, totalCPU = total+time.Since(start), totalCPU+cpuTime(b)-cpu
		// The same forward passes alone.
		var jobs []coherenceJob
		for _, r := range res {
			for _, p := range r.Pairs {
				if !p.Identical {
					jobs = append(jobs, coherenceJob{enc: tok.EncodePair(p.A, p.B)})
				}
			}
		}
		pairs = len(jobs)
		order := make([]int, len(jobs))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(x, y int) int { return jobs[x].enc.Len() - jobs[y].enc.Len() })
		start, cpu = time.Now(), cpuTime(b)
		for lo := 0; lo < len(order); lo += DefaultCoherenceBatch {
			idx := order[lo:min(lo+DefaultCoherenceBatch, len(order))]
			if _, err := m.albert.Forward(ctx, padBatch(jobs, idx), encoders.ForwardOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		enc, encCPU = enc+time.Since(start), encCPU+cpuTime(b)-cpu
	}
	reportShares(b, total, enc, totalCPU, encCPU)
	b.ReportMetric(float64(pairs), "pairs")
	b.ReportMetric(peakRSSMiB(), "peakRSS-MiB")
}

func BenchmarkFullSizeGrounding(b *testing.B) {
	cfg, st := vitBaseCheckpoint(b)
	pcfg, err := imageproc.DefaultConfig(imageproc.ViT)
	if err != nil {
		b.Fatal(err)
	}
	m, err := NewGroundingModel(cfg, pcfg, st)
	if err != nil {
		b.Fatal(err)
	}
	stories := benchStorySet()
	csvPath, crops, glovePath := benchLayout(b, stories)
	ctx := context.Background()
	var total, enc, totalCPU, encCPU time.Duration
	var peak float64
	for b.Loop() {
		start, cpu := time.Now(), cpuTime(b)
		// Everything a run does: load the files, extract nouns, score.
		nouns, err := StoryNouns(stories, nil)
		if err != nil {
			b.Fatal(err)
		}
		idf := IDF{}
		var words []string
		for _, ns := range nouns {
			for _, w := range ns {
				idf[w] = 1.5
				words = append(words, w)
			}
		}
		gl, err := LoadGloVe(glovePath, words, GloVeOptions{})
		if err != nil {
			b.Fatal(err)
		}
		ent, err := regions.Load(csvPath, regions.Options{IDs: regions.IntegerIDs})
		if err != nil {
			b.Fatal(err)
		}
		g := &Grounder{Model: m, GloVe: gl, IDF: idf, Regions: CropFolder{Entities: ent, Dir: crops}}
		if _, err := g.Score(ctx, stories, VGOptions{}); err != nil {
			b.Fatal(err)
		}
		total, totalCPU = total+time.Since(start), totalCPU+cpuTime(b)-cpu
		peak = peakRSSMiB() // before the re-run below keeps every crop's pixels
		// The same ViT forward passes alone, on preprocessed crops.
		var pxs []imageproc.PixelValues
		seen := map[string]bool{}
		for _, s := range stories {
			for _, im := range s.Images {
				if seen[im.ID] {
					continue
				}
				seen[im.ID] = true
				list, _ := g.Regions.RegionCrops(im)
				for _, c := range list[:min(len(list), DefaultMaxRegions)] {
					img, err := c.Load()
					if err != nil {
						b.Fatal(err)
					}
					px, err := m.Preprocess(img)
					if err != nil {
						b.Fatal(err)
					}
					pxs = append(pxs, px)
				}
			}
		}
		// Timed on the first four batches and scaled to all crops: the
		// passes all have the same shape.
		sample := min(len(pxs), 4*DefaultGroundingBatch)
		start, cpu = time.Now(), cpuTime(b)
		for lo := 0; lo < sample; lo += DefaultGroundingBatch {
			if _, err := m.vit.Forward(ctx, pxs[lo:min(lo+DefaultGroundingBatch, sample)], encoders.ForwardOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		scale := float64(len(pxs)) / float64(sample)
		enc += time.Duration(float64(time.Since(start)) * scale)
		encCPU += time.Duration(float64(cpuTime(b)-cpu) * scale)
		b.ReportMetric(float64(len(pxs)), "crops")
	}
	reportShares(b, total, enc, totalCPU, encCPU)
	b.ReportMetric(peak, "peakRSS-MiB")
}

// benchLayers is n, or $ROVIST_BENCH_LAYERS when set (for quick profiles).
func benchLayers(n int) int {
	if v, err := strconv.Atoi(os.Getenv("ROVIST_BENCH_LAYERS")); err == nil && v > 0 {
		return v
	}
	return n
}
