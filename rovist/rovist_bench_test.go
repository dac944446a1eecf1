package rovist

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
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
	"github.com/storyeval/storyeval/encoders/tokenize"
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

// tensorSpec is one tensor of a random checkpoint.
type tensorSpec struct {
	name  string
	shape []int
	fill  string // "normal", "ones" or "zeros"
}

// writeRandomSafetensors writes the tensors with random N(0, 0.02²)
// weights (LayerNorm weights 1, biases 0) and opens the file.
func writeRandomSafetensors(b *testing.B, specs []tensorSpec, seed int64) *checkpoint.State {
	b.Helper()
	rng := rand.New(rand.NewSource(seed))
	header := map[string]any{}
	off := 0
	for _, s := range specs {
		n := 4
		for _, d := range s.shape {
			n *= d
		}
		header[s.name] = map[string]any{"dtype": "F32", "shape": s.shape, "data_offsets": []int{off, off + n}}
		off += n
	}
	hdr, err := json.Marshal(header)
	if err != nil {
		b.Fatal(err)
	}
	for len(hdr)%8 != 0 {
		hdr = append(hdr, ' ')
	}
	path := filepath.Join(b.TempDir(), "model.safetensors")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	binary.Write(&buf, binary.LittleEndian, uint64(len(hdr)))
	buf.Write(hdr)
	for _, s := range specs {
		n := 1
		for _, d := range s.shape {
			n *= d
		}
		data := make([]float32, n)
		for i := range data {
			switch s.fill {
			case "ones":
				data[i] = 1
			case "normal":
				data[i] = float32(rng.NormFloat64() * 0.02)
			}
		}
		binary.Write(&buf, binary.LittleEndian, data)
		if _, err := f.Write(buf.Bytes()); err != nil {
			b.Fatal(err)
		}
		buf.Reset()
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	st, err := checkpoint.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

func linearSpecs(name string, out, in int) []tensorSpec {
	return []tensorSpec{{name + ".weight", []int{out, in}, "normal"}, {name + ".bias", []int{out}, "zeros"}}
}

func normSpecs(name string, n int) []tensorSpec {
	return []tensorSpec{{name + ".weight", []int{n}, "ones"}, {name + ".bias", []int{n}, "zeros"}}
}

// albertLargeCheckpoint is a RoViST-C state_dict of albert-large's shape.
func albertLargeCheckpoint(b *testing.B) (encoders.ALBERTConfig, *checkpoint.State) {
	cfg := encoders.ALBERTConfig{VocabSize: 30000, EmbeddingSize: 128, HiddenSize: 1024, NumHiddenLayers: benchLayers(24), NumHiddenGroups: 1, InnerGroupNum: 1,
		NumAttentionHeads: 16, IntermediateSize: 4096, HiddenAct: "gelu", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}
	E, H, I := cfg.EmbeddingSize, cfg.HiddenSize, cfg.IntermediateSize
	p := "albert_model."
	l := p + "encoder.albert_layer_groups.0.albert_layers.0."
	specs := []tensorSpec{
		{p + "embeddings.word_embeddings.weight", []int{cfg.VocabSize, E}, "normal"},
		{p + "embeddings.position_embeddings.weight", []int{512, E}, "normal"},
		{p + "embeddings.token_type_embeddings.weight", []int{2, E}, "normal"},
	}
	specs = append(specs, normSpecs(p+"embeddings.LayerNorm", E)...)
	specs = append(specs, linearSpecs(p+"encoder.embedding_hidden_mapping_in", H, E)...)
	for _, n := range []string{"query", "key", "value", "dense"} {
		specs = append(specs, linearSpecs(l+"attention."+n, H, H)...)
	}
	specs = append(specs, normSpecs(l+"attention.LayerNorm", H)...)
	specs = append(specs, linearSpecs(l+"ffn", I, H)...)
	specs = append(specs, linearSpecs(l+"ffn_output", H, I)...)
	specs = append(specs, normSpecs(l+"full_layer_layer_norm", H)...)
	specs = append(specs, linearSpecs(p+"pooler", H, H)...)
	specs = append(specs, linearSpecs("linear", 2, H)...)
	return cfg, writeRandomSafetensors(b, specs, 1)
}

// vitBaseCheckpoint is a RoViST-VG state_dict of ViT-B/16 (in21k)'s shape.
func vitBaseCheckpoint(b *testing.B) (encoders.ViTConfig, *checkpoint.State) {
	qkv := true
	cfg := encoders.ViTConfig{HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072, HiddenAct: "gelu",
		ImageSize: 224, PatchSize: 16, NumChannels: 3, LayerNormEps: 1e-12, QKVBias: &qkv}
	H, I := cfg.HiddenSize, cfg.IntermediateSize
	p := "image_encoder.image_model."
	specs := []tensorSpec{
		{p + "embeddings.cls_token", []int{1, 1, H}, "normal"},
		{p + "embeddings.position_embeddings", []int{1, 197, H}, "normal"},
		{p + "embeddings.patch_embeddings.projection.weight", []int{H, 3, 16, 16}, "normal"},
		{p + "embeddings.patch_embeddings.projection.bias", []int{H}, "zeros"},
	}
	for i := range cfg.NumHiddenLayers {
		l := fmt.Sprintf("%sencoder.layer.%d.", p, i)
		for _, n := range []string{"attention.attention.query", "attention.attention.key", "attention.attention.value", "attention.output.dense"} {
			specs = append(specs, linearSpecs(l+n, H, H)...)
		}
		specs = append(specs, linearSpecs(l+"intermediate.dense", I, H)...)
		specs = append(specs, linearSpecs(l+"output.dense", H, I)...)
		specs = append(specs, normSpecs(l+"layernorm_before", H)...)
		specs = append(specs, normSpecs(l+"layernorm_after", H)...)
	}
	specs = append(specs, normSpecs(p+"layernorm", H)...)
	specs = append(specs, linearSpecs(p+"pooler.dense", H, H)...)
	specs = append(specs, linearSpecs("image_encoder.linear", 1024, H)...)
	specs = append(specs, linearSpecs("text_encoder.linear", 1024, 300)...)
	return cfg, writeRandomSafetensors(b, specs, 2)
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
	crops = filepath.Join(dir, "crops")
	if err := os.Mkdir(crops, 0o755); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewSource(4))
	var csvb strings.Builder
	csvb.WriteString("image_id,bbox\n")
	seen := map[string]bool{}
	for _, st := range stories {
		for _, im := range st.Images {
			if seen[im.ID] {
				continue
			}
			seen[im.ID] = true
			for k := range benchCropsImage {
				w, h := 60+rng.Intn(100), 40+rng.Intn(80)
				label := fmt.Sprintf("[%d.0, 0.0, %d.0, %d.0]", k, k+w, h)
				fmt.Fprintf(&csvb, "%s,\"%s\"\n", im.ID, label)
				img := image.NewRGBA(image.Rect(0, 0, w, h))
				for y := range h {
					for x := range w {
						img.Set(x, y, color.RGBA{uint8(x * 3), uint8(y * 5), uint8(rng.Intn(256)), 255})
					}
				}
				var jb bytes.Buffer
				if err := jpeg.Encode(&jb, img, &jpeg.Options{Quality: 90}); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(crops, im.ID+"_"+label+".jpg"), jb.Bytes(), 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	csvPath = filepath.Join(dir, "vist_entities.csv")
	if err := os.WriteFile(csvPath, []byte(csvb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	var gb strings.Builder
	for _, w := range append(slices.Clone(benchWords), GloVeUnknown) {
		gb.WriteString(w)
		for range 300 {
			fmt.Fprintf(&gb, " %.6f", rng.NormFloat64()*0.3)
		}
		gb.WriteByte('\n')
	}
	glovePath = filepath.Join(dir, "glove.6B.300d.txt")
	if err := os.WriteFile(glovePath, []byte(gb.String()), 0o644); err != nil {
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
		ent, err := ReadEntitiesCSV(csvPath)
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
