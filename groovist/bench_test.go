package groovist

// Full-size benchmarks: CLIP ViT-B/32 shapes with random weights (written
// as a safetensors file in a temporary folder), synthetic JPEG crops and
// phrases. Run once, they are slow:
//
//	go test -run='^$' -bench=FullSize -benchtime=1x ./groovist/
//
// Each reports items per second and the share of the run's time spent
// outside the CLIP forward passes (decoding, preprocessing, tokenization,
// scoring), the forward passes being timed inside the same run.

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/imageproc"
	encrandmodel "github.com/storyeval/storyeval/encoders/randmodel"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/randmodel"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/story"
	"gorgonia.org/tensor"
)

// writeJPEG writes a synthetic w×h JPEG (internal/randmodel).
func writeJPEG(tb testing.TB, path string, w, h int, rng *rand.Rand) {
	tb.Helper()
	if err := randmodel.WriteGradientJPEG(path, w, h, rng); err != nil {
		tb.Fatal(err)
	}
}

// benchModel loads the random full-size CLIP and the real BPE vocabulary.
func benchModel(b *testing.B) (*encoders.CLIP, *tokenize.CLIP) {
	dir := b.TempDir()
	if err := encrandmodel.WriteCLIP(dir, encrandmodel.CLIPB32(), 1); err != nil {
		b.Fatal(err)
	}
	m, err := encoders.LoadCLIP(dir)
	if err != nil {
		b.Fatal(err)
	}
	tok, err := tokenize.LoadCLIP(filepath.Join("..", "testdata", "encoders", "fixtures", "tokenizers", "clip_full"), tokenize.CLIPOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return m, tok
}

var benchWords = strings.Fields("red blue old young small large wooden stone happy tall dog cat car bridge river tree house child man woman bride cake beach boat flower")

// BenchmarkFullSizeGROOViST scores one story per iteration: 5 images × 10
// region crops (JPEG files of 60–120 px), 20 distinct noun phrases.
func BenchmarkFullSizeGROOViST(b *testing.B) {
	m, tok := benchModel(b)
	s, err := NewScorer(m, tok)
	if err != nil {
		b.Fatal(err)
	}
	crops := b.TempDir()
	rng := rand.New(rand.NewSource(2))
	var csv strings.Builder
	csv.WriteString("image_name,image_id,bbox,object,score\n")
	stories := b.N
	inputs := make([]Input, stories)
	for st := 0; st < stories; st++ {
		in := Input{Story: story.Story{ID: fmt.Sprint("s", st)}}
		for k := 0; k < 5; k++ {
			id := fmt.Sprintf("s%d_%d", st, k)
			in.Images = append(in.Images, story.Image{ID: id})
			for r := 0; r < 10; r++ {
				box := fmt.Sprintf("[%d.5, %d.25, %d.0, %d.75]", r, k, 60+r*6, 50+r*7)
				fmt.Fprintf(&csv, "x.jpg,%s,\"%s\",obj,0.9\n", id, box)
				writeJPEG(b, regions.CropPath(crops, id, box), 60+rng.Intn(60), 60+rng.Intn(60), rng)
			}
		}
		for n := 0; n < 20; n++ {
			in.NPs = append(in.NPs, fmt.Sprintf("the %s %s %d", benchWords[rng.Intn(10)], benchWords[10+rng.Intn(15)], st*20+n))
		}
		inputs[st] = in
	}
	if s.Entities, err = regions.Read(strings.NewReader(csv.String()), "entities.csv", regions.Options{}); err != nil {
		b.Fatal(err)
	}
	s.CropsDir = crops
	var forward time.Duration
	var flops float64
	s.Text = &timedText{c: s.Text.(*CLIPText), d: &forward, flops: &flops}
	s.Images = &timedImages{m: m, d: &forward, flops: &flops}
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	res, err := s.Score(ctx, inputs, Options{})
	total := time.Since(start)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if len(res) != stories || !res[0].Defined {
		b.Fatal("story not scored")
	}
	b.ReportMetric(float64(stories)/total.Seconds(), "stories/s")
	b.ReportMetric(100*(total-forward).Seconds()/total.Seconds(), "%outside_forward")
	b.ReportMetric(forward.Seconds()/float64(stories), "forward_s/story")
	b.ReportMetric(flops/forward.Seconds()/1e9, "forward_GFLOP/s")
}

// timedText and timedImages add up the time of the forward passes
// (tokenization is counted outside them).
type timedText struct {
	c     *CLIPText
	d     *time.Duration
	flops *float64
}

func (t *timedText) EmbedTexts(ctx context.Context, texts []string) (*tensor.Dense, error) {
	ids, err := t.c.Tokens(texts)
	if err != nil {
		return nil, err
	}
	seq := 1
	for _, row := range ids {
		for k, id := range row {
			if id != 0 {
				seq = max(seq, k+1)
			}
		}
	}
	*t.flops += t.c.Model.TextFLOPs(len(ids), seq)
	start := time.Now()
	defer func() { *t.d += time.Since(start) }()
	return t.c.embedIDs(ctx, ids)
}

type timedImages struct {
	m     *encoders.CLIP
	d     *time.Duration
	flops *float64
}

func (t *timedImages) EmbedImages(ctx context.Context, imgs []imageproc.PixelValues) (*tensor.Dense, error) {
	*t.flops += t.m.ImageFLOPs(len(imgs))
	start := time.Now()
	defer func() { *t.d += time.Since(start) }()
	return t.m.EmbedImages(ctx, imgs)
}

// BenchmarkFullSizeCLIPScore scores 8 captions per iteration, each with a
// 320×240 JPEG image and 3 references.
func BenchmarkFullSizeCLIPScore(b *testing.B) {
	m, tok := benchModel(b)
	s, err := NewCLIPScorer(m, tok)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	rng := rand.New(rand.NewSource(3))
	n := 8 * b.N
	items := make([]Caption, n)
	for i := range items {
		p := filepath.Join(dir, fmt.Sprintf("img%d.jpg", i))
		writeJPEG(b, p, 320, 240, rng)
		cap := func() string {
			return fmt.Sprintf("a %s %s near the %s %d", benchWords[rng.Intn(10)], benchWords[10+rng.Intn(15)], benchWords[10+rng.Intn(15)], rng.Intn(1000))
		}
		items[i] = Caption{ID: fmt.Sprint(i), Image: p, Candidate: cap(), References: []string{cap(), cap(), cap()}}
	}
	var forward time.Duration
	s.forwardTime = func(d time.Duration) { forward += d }
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	res, err := s.Score(ctx, items)
	total := time.Since(start)
	b.StopTimer()
	if err != nil || len(res) != n {
		b.Fatal(err)
	}
	b.ReportMetric(float64(n)/total.Seconds(), "items/s")
	b.ReportMetric(100*(total-forward).Seconds()/total.Seconds(), "%outside_forward")
}

func mathFloat32bits(v float32) uint32 { return math.Float32bits(v) }
