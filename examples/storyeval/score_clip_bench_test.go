package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/internal/sentences"
)

// BenchmarkScoreCLIPScoreVsCommand compares the time per story of CLIPScore
// inside `score` (one system, 4 sequences of 5 images, stories of 5
// sentences: one image–sentence pair per image) with `storyeval clipscore`
// on the equivalent 20 caption items, with a full-size (ViT-B/32)
// random-weight CLIP; both runs include loading the model:
//
//	go test -run='^$' -bench=ScoreCLIPScoreVsCommand -benchtime=1x -count=2 ./examples/storyeval/
func BenchmarkScoreCLIPScoreVsCommand(b *testing.B) {
	dir := b.TempDir()
	clipDir := filepath.Join(dir, "models", "clip")
	if err := os.MkdirAll(clipDir, 0o755); err != nil {
		b.Fatal(err)
	}
	writeRandomCLIPB32(b, clipDir)
	tok, err := filepath.Abs(filepath.Join("..", "..", "testdata", "encoders", "fixtures", "tokenizers", "clip_full"))
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{"vocab.json.gz", "merges.txt.gz"} {
		if err := os.Symlink(filepath.Join(tok, f), filepath.Join(clipDir, f)); err != nil {
			b.Fatal(err)
		}
	}
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
			writeBenchJPEG(b, p, 320, 240, rng)
			sent := fmt.Sprintf("In scene %d the %s %s waits by the %s.", s*perStory+k, words[rng.Intn(10)], words[10+rng.Intn(15)], words[10+rng.Intn(15)])
			ids, sents, paths[id], captions[id] = append(ids, id), append(sents, sent), p, sent
		}
		text := strings.Join(sents, " ")
		if got := sentences.Split(text); len(got) != perStory {
			b.Fatalf("story %d splits into %d sentences, want %d", s, len(got), perStory)
		}
		seqs[fmt.Sprint("seq", s)] = map[string]any{"images": ids, "stories": map[string]string{"sys": text}}
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
	candsPath := write("cands.json", captions)
	suitePath := write("suite.json", map[string]any{"images": paths, "sequences": seqs})
	// cpu-s/story (user + system CPU time of the process) is steadier than
	// s/story on a machine shared with other work.
	run := func(b *testing.B, args []string) {
		for range b.N {
			start, cpu := time.Now(), processCPU(b)
			var stderr bytes.Buffer
			if code := runMain(args, io.Discard, &stderr); code != 0 {
				b.Fatalf("%q: exit %d: %s", args, code, stderr.String())
			}
			b.ReportMetric(time.Since(start).Seconds()/n, "s/story")
			b.ReportMetric((processCPU(b)-cpu).Seconds()/n, "cpu-s/story")
		}
	}
	b.Run("clipscore", func(b *testing.B) {
		run(b, []string{"clipscore", "-cands", candsPath, "-images", imagesDir, "-model", clipDir})
	})
	b.Run("score", func(b *testing.B) {
		run(b, []string{"score", "-in", suitePath, "-models", filepath.Join(dir, "models"), "-metrics", "clipscore", "-out", filepath.Join(dir, "out"), "-resamples", "100", "-rounds", "100"})
	})
}

// writeRandomCLIPB32 writes config.json and a model.safetensors of HF
// CLIPModel's parameters with openai/clip-vit-base-patch32's shapes and
// random weights (normal, σ 0.02; layer norms 1, biases 0), streamed to
// the file.
func writeRandomCLIPB32(b *testing.B, dir string) {
	cfg := encoders.CLIPConfig{
		ProjectionDim: 512,
		TextConfig: encoders.CLIPTowerConfig{VocabSize: 49408, HiddenSize: 512, NumHiddenLayers: 12, NumAttentionHeads: 8,
			IntermediateSize: 2048, MaxPositionEmbeddings: 77, HiddenAct: "quick_gelu", LayerNormEps: 1e-5},
		VisionConfig: encoders.CLIPTowerConfig{HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072,
			ImageSize: 224, PatchSize: 32, NumChannels: 3, HiddenAct: "quick_gelu", LayerNormEps: 1e-5},
	}
	cj, err := json.Marshal(cfg)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), cj, 0o644); err != nil {
		b.Fatal(err)
	}
	type param struct {
		name  string
		shape []int
	}
	var params []param
	add := func(name string, shape ...int) { params = append(params, param{name, shape}) }
	tower := func(prefix string, c encoders.CLIPTowerConfig) {
		H, I := c.HiddenSize, c.IntermediateSize
		for l := range c.NumHiddenLayers {
			p := fmt.Sprintf("%s.encoder.layers.%d.", prefix, l)
			for _, proj := range []string{"k_proj", "v_proj", "q_proj", "out_proj"} {
				add(p+"self_attn."+proj+".weight", H, H)
				add(p+"self_attn."+proj+".bias", H)
			}
			add(p+"layer_norm1.weight", H)
			add(p+"layer_norm1.bias", H)
			add(p+"mlp.fc1.weight", I, H)
			add(p+"mlp.fc1.bias", I)
			add(p+"mlp.fc2.weight", H, I)
			add(p+"mlp.fc2.bias", H)
			add(p+"layer_norm2.weight", H)
			add(p+"layer_norm2.bias", H)
		}
	}
	t, v := cfg.TextConfig, cfg.VisionConfig
	add("logit_scale")
	add("text_model.embeddings.token_embedding.weight", t.VocabSize, t.HiddenSize)
	add("text_model.embeddings.position_embedding.weight", t.MaxPositionEmbeddings, t.HiddenSize)
	tower("text_model", t)
	add("text_model.final_layer_norm.weight", t.HiddenSize)
	add("text_model.final_layer_norm.bias", t.HiddenSize)
	patches := v.ImageSize / v.PatchSize
	add("vision_model.embeddings.class_embedding", v.HiddenSize)
	add("vision_model.embeddings.patch_embedding.weight", v.HiddenSize, v.NumChannels, v.PatchSize, v.PatchSize)
	add("vision_model.embeddings.position_embedding.weight", patches*patches+1, v.HiddenSize)
	add("vision_model.pre_layrnorm.weight", v.HiddenSize)
	add("vision_model.pre_layrnorm.bias", v.HiddenSize)
	tower("vision_model", v)
	add("vision_model.post_layernorm.weight", v.HiddenSize)
	add("vision_model.post_layernorm.bias", v.HiddenSize)
	add("visual_projection.weight", cfg.ProjectionDim, v.HiddenSize)
	add("text_projection.weight", cfg.ProjectionDim, t.HiddenSize)

	header := map[string]any{}
	off := 0
	for _, p := range params {
		size := 4
		for _, d := range p.shape {
			size *= d
		}
		header[p.name] = map[string]any{"dtype": "F32", "shape": p.shape, "data_offsets": []int{off, off + size}}
		off += size
	}
	hj, err := json.Marshal(header)
	if err != nil {
		b.Fatal(err)
	}
	for len(hj)%8 != 0 {
		hj = append(hj, ' ')
	}
	f, err := os.Create(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	_ = binary.Write(w, binary.LittleEndian, uint64(len(hj)))
	_, _ = w.Write(hj)
	rng := rand.New(rand.NewSource(1))
	var word [4]byte
	for _, p := range params {
		size := 1
		for _, d := range p.shape {
			size *= d
		}
		for range size {
			x := float32(rng.NormFloat64() * 0.02)
			switch {
			case strings.Contains(p.name, "norm") && strings.HasSuffix(p.name, ".weight"):
				x = 1
			case strings.HasSuffix(p.name, ".bias"):
				x = 0
			case p.name == "logit_scale":
				x = 2.6592
			}
			binary.LittleEndian.PutUint32(word[:], math.Float32bits(x))
			_, _ = w.Write(word[:])
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// writeBenchJPEG writes a w×h JPEG with a random-colour gradient.
func writeBenchJPEG(b *testing.B, path string, w, h int, rng *rand.Rand) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r0, g0, b0 := rng.Intn(256), rng.Intn(256), rng.Intn(256)
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(r0 + x), uint8(g0 + y), uint8(b0 + x*y), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
}

// processCPU is the user and system CPU time the process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
