package train

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/internal/safetensors"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
	"github.com/storyeval/storyeval/training"
)

// tinyVGGeometry is a ViT small enough for finite differences.
func tinyVGGeometry() vgGeometry {
	return vgGeometry{hidden: 8, layers: 2, heads: 2, intermediate: 12, channels: 3, patchSize: 4, imageSize: 8,
		eps: 1e-12, joint: 6, wordDim: 5}
}

// randomVGParams fills every parameter with N(0, std²) and moves the
// LayerNorm gains away from 1.
func randomVGParams[T nn.Float](g vgGeometry, rng *rand.Rand, std float64) *vgParams[T] {
	p := newVGParams[T](g)
	for _, nt := range p.tensors() {
		for i := range nt.Data {
			nt.Data[i] = T(std * rng.NormFloat64())
		}
		if strings.HasSuffix(nt.Name, "norm.weight") || strings.Contains(nt.Name, "layernorm_") && strings.HasSuffix(nt.Name, ".weight") {
			for i := range nt.Data {
				nt.Data[i] += 1
			}
		}
	}
	return p
}

// TestVGBackwardMatchesFiniteDifferences checks every parameter gradient of
// the float64 network — patch embedding, CLS and positions, pre-LN layers,
// final LayerNorm, pooler, both heads — and τ's, through the symmetric
// loss, against central differences. The gradient of each parameter
// depends on the input gradients of every block above it, so this checks
// each block's input gradient in place too.
func TestVGBackwardMatchesFiniteDifferences(t *testing.T) {
	g := tinyVGGeometry()
	rng := rand.New(rand.NewSource(1))
	p := randomVGParams[float64](g, rng, 0.5)
	net := &vgNetwork[float64]{p: p, heads: g.heads, eps: g.eps}
	const B = 3
	pix := make([][]float32, B)
	for b := range pix {
		pix[b] = make([]float32, g.channels*g.imageSize*g.imageSize)
		for i := range pix[b] {
			pix[b][i] = float32(rng.NormFloat64())
		}
	}
	words := make([]float64, B*g.wordDim)
	for i := range words {
		words[i] = rng.NormFloat64()
	}
	tau := 1.3
	ctx := context.Background()
	lossAt := func() float64 {
		c, err := net.forward(ctx, pix, words)
		if err != nil {
			t.Fatal(err)
		}
		dI, dT := make([]float64, B*g.joint), make([]float64, B*g.joint)
		l, _ := compute.SymmetricContrastiveLossHost(c.img, c.txt, B, g.joint, tau, dI, dT)
		return l
	}
	c, err := net.forward(ctx, pix, words)
	if err != nil {
		t.Fatal(err)
	}
	dI, dT := make([]float64, B*g.joint), make([]float64, B*g.joint)
	_, dTau := compute.SymmetricContrastiveLossHost(c.img, c.txt, B, g.joint, tau, dI, dT)
	grads := p.zeroLike()
	if err := net.backward(ctx, c, dI, dT, grads); err != nil {
		t.Fatal(err)
	}
	const h = 1e-5
	rel := func(num, ana float64) float64 { return math.Abs(num-ana) / math.Max(1e-3, math.Abs(num)) }
	gts := grads.tensors()
	checked := 0
	for ti, nt := range p.tensors() {
		worst := 0.0
		for i := range nt.Data {
			orig := nt.Data[i]
			nt.Data[i] = orig + h
			up := lossAt()
			nt.Data[i] = orig - h
			down := lossAt()
			nt.Data[i] = orig
			worst = math.Max(worst, rel((up-down)/(2*h), gts[ti].Data[i]))
			checked++
		}
		if worst > 1e-5 {
			t.Errorf("%s: worst relative error %.3g between analytic and numeric gradient", nt.Name, worst)
		}
	}
	tau += h
	up := lossAt()
	tau -= 2 * h
	down := lossAt()
	tau += h
	if e := rel((up-down)/(2*h), dTau); e > 1e-6 {
		t.Errorf("τ: relative error %.3g", e)
	}
	t.Logf("%d parameter gradients and τ's checked", checked)
}

// TestSymmetricLossFiniteDifferences checks the loss's gradients with
// respect to the features and τ on their own, with duplicated rows (the
// soft labels then spread over equal pairs).
func TestSymmetricLossFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const n, d = 4, 5
	img, txt := make([]float64, n*d), make([]float64, n*d)
	for i := range img {
		img[i], txt[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	copy(img[3*d:], img[1*d:2*d])
	tau := 0.7
	dI, dT := make([]float64, n*d), make([]float64, n*d)
	loss, dTau := compute.SymmetricContrastiveLossHost(img, txt, n, d, tau, dI, dT)
	if !(loss > 0) {
		t.Fatalf("loss %v", loss)
	}
	scratchI, scratchT := make([]float64, n*d), make([]float64, n*d)
	f := func() float64 {
		l, _ := compute.SymmetricContrastiveLossHost(img, txt, n, d, tau, scratchI, scratchT)
		return l
	}
	const h = 1e-6
	for _, x := range []struct {
		name string
		v, g []float64
	}{{"image", img, dI}, {"text", txt, dT}} {
		for i := range x.v {
			o := x.v[i]
			x.v[i] = o + h
			up := f()
			x.v[i] = o - h
			down := f()
			x.v[i] = o
			if num := (up - down) / (2 * h); math.Abs(num-x.g[i]) > 1e-6*math.Max(1, math.Abs(num)) {
				t.Errorf("%s[%d]: gradient %.9g, numeric %.9g", x.name, i, x.g[i], num)
			}
		}
	}
	tau += h
	up := f()
	tau -= 2 * h
	down := f()
	if num := (up - down) / (2 * h); math.Abs(num-dTau) > 1e-6*math.Max(1, math.Abs(num)) {
		t.Errorf("τ: gradient %.9g, numeric %.9g", dTau, num)
	}
}

// writeTinyViT writes a tiny random ViTModel folder (config.json,
// preprocessor_config.json, model.safetensors without the heads).
func writeTinyViT(t testing.TB, dir string, hidden, layers, heads, inter, image, patch int, seed int64) {
	t.Helper()
	cfg := map[string]any{"hidden_size": hidden, "num_hidden_layers": layers, "num_attention_heads": heads,
		"intermediate_size": inter, "hidden_act": "gelu", "image_size": image, "patch_size": patch,
		"num_channels": 3, "layer_norm_eps": 1e-12, "qkv_bias": true, "model_type": "vit"}
	proc := map[string]any{"do_normalize": true, "do_resize": true, "feature_extractor_type": "ViTFeatureExtractor",
		"image_mean": []float64{0.5, 0.5, 0.5}, "image_std": []float64{0.5, 0.5, 0.5}, "resample": 2, "size": image}
	for name, v := range map[string]any{"config.json": cfg, "preprocessor_config.json": proc} {
		data, _ := json.Marshal(v)
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := vgGeometry{hidden: hidden, layers: layers, heads: heads, intermediate: inter, channels: 3, patchSize: patch,
		imageSize: image, eps: 1e-12, joint: 1024, wordDim: 300}
	p := randomVGParams[float32](g, rand.New(rand.NewSource(seed)), 0.02)
	var ts []safetensors.Tensor
	for _, nt := range p.tensors() {
		if strings.HasPrefix(nt.Name, vgViTPrefix) {
			ts = append(ts, safetensors.Tensor{Name: strings.TrimPrefix(nt.Name, vgViTPrefix), Shape: nt.Shape, F32: nt.Data})
		}
	}
	if err := safetensors.WriteFile(filepath.Join(dir, "model.safetensors"), ts, map[string]string{"format": "pt"}); err != nil {
		t.Fatal(err)
	}
}

// synthVG is a learnable grounding task: four nouns, each with its own
// rovist.GloVe vector and its own image colour; a pair is a noisy image of the
// noun's colour and "the <noun>".
type synthVG struct {
	nouns  []string
	colors [][3]float64
	glove  *rovist.GloVe
}

func newSynthVG(t testing.TB, rng *rand.Rand) *synthVG {
	s := &synthVG{nouns: []string{"dog", "cat", "car", "tree"},
		colors: [][3]float64{{230, 40, 40}, {40, 230, 40}, {40, 40, 230}, {230, 230, 40}}}
	var sb strings.Builder
	for _, w := range append([]string{"the", rovist.GloVeUnknown}, s.nouns...) {
		sb.WriteString(w)
		for i := 0; i < 300; i++ {
			fmt.Fprintf(&sb, " %.6f", rng.NormFloat64()*0.5)
		}
		sb.WriteString("\n")
	}
	g, err := rovist.ReadGloVe(strings.NewReader(sb.String()), "synthetic", nil, rovist.GloVeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.glove = g
	return s
}

func (s *synthVG) image(rng *rand.Rand, k, size int) *imageproc.RGB {
	img := &imageproc.RGB{Width: size, Height: size, Pix: make([]uint8, size*size*3)}
	for i := range img.Pix {
		v := s.colors[k][i%3] + 25*rng.NormFloat64()
		img.Pix[i] = uint8(math.Max(0, math.Min(255, v)))
	}
	return img
}

func (s *synthVG) examples(t testing.TB, rng *rand.Rand, n, size int) []rovist.VGExample {
	out := make([]rovist.VGExample, n)
	for i := range out {
		k := rng.Intn(len(s.nouns))
		img := s.image(rng, k, size)
		vec, err := rovist.PhraseVector(s.glove, "the "+s.nouns[k])
		if err != nil {
			t.Fatal(err)
		}
		out[i] = rovist.VGExample{Vector: vec, Crop: rovist.RegionCrop{Key: fmt.Sprint("synthetic#", i), Load: func() (*imageproc.RGB, error) { return img, nil }}}
	}
	return out
}

// TestVGTrainerLowersValidationLoss trains a tiny ViT from scratch (heads
// initialised by the trainer) on the synthetic task and checks that the
// validation loss falls; then that a saved checkpoint scores exactly as
// the in-memory model, that the trainer's features are the scorer's, and
// that resuming reaches the weights of an uninterrupted run.
func TestVGTrainerLowersValidationLoss(t *testing.T) {
	vit := t.TempDir()
	const size = 16
	writeTinyViT(t, vit, 16, 1, 2, 24, size, 8, 1)
	rng := rand.New(rand.NewSource(5))
	task := newSynthVG(t, rng)
	train, valid := task.examples(t, rng, 96, size), task.examples(t, rng, 32, size)
	opts := VGTrainOptions{Epochs: 4, BatchSize: 8, LearningRate: 1e-3, Seed: 3, CheckpointDir: filepath.Join(t.TempDir(), "ck")}
	var reports []training.Progress
	opts.Progress = func(p training.Progress) { reports = append(reports, p) }
	tr, err := NewVGTrainer(filepath.Join(vit, "model.safetensors"), vit, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	before, err := tr.ValidationLoss(ctx, valid)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.Train(ctx, train, valid)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != opts.Epochs {
		t.Fatalf("%d epochs trained, want %d", len(res), opts.Epochs)
	}
	checkVGProgress(t, reports, res, len(train), opts)
	after := res[len(res)-1].ValidationLoss
	for _, r := range res {
		t.Logf("epoch %d: lr %.3g train loss %.4f validation loss %.4f", r.Epoch, r.LearningRate, r.TrainLoss, r.ValidationLoss)
	}
	if !(after < 0.8*before) {
		t.Errorf("validation loss %.4f before training, %.4f after: want a drop of at least 20 %%", before, after)
	}
	if !res[0].Best || res[1].Best != (res[1].ValidationLoss < res[0].ValidationLoss) {
		t.Errorf("best-epoch marks %v %v", res[0].Best, res[1].Best)
	}
	if tr.Temperature() != 1 {
		t.Errorf("τ changed to %v without LearnTemperature", tr.Temperature())
	}
	if want := opts.LearningRate * 0.95 * 0.95; math.Abs(res[2].LearningRate-want) > 1e-15 {
		t.Errorf("epoch 2 learning rate %v, want %v (×0.95 per epoch)", res[2].LearningRate, want)
	}

	// save → score: the folder scores as the in-memory model.
	saved := filepath.Join(t.TempDir(), "model")
	if err := tr.SaveModel(saved); err != nil {
		t.Fatal(err)
	}
	loaded, err := rovist.LoadGroundingModel(filepath.Join(saved, VGModelFile), saved)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := tr.GroundingModel()
	if err != nil {
		t.Fatal(err)
	}
	st := story.Story{ID: "s1", Text: "The dog sat near the car. A cat saw a tree.", Images: []story.Image{{ID: "1", Regions: []story.Region{{Box: [4]float64{0, 0, 8, 8}}, {Box: [4]float64{8, 8, 16, 16}}}}, {ID: "2", Regions: []story.Region{{Box: [4]float64{0, 0, 16, 16}}}}}}
	boxes := rovist.ImageBoxes{Images: map[string]*imageproc.RGB{"1": task.image(rng, 0, 32), "2": task.image(rng, 2, 32)}}
	var scores [2][]rovist.VGResult
	for i, m := range []*rovist.GroundingModel{mem, loaded} {
		gr := &rovist.Grounder{Model: m, GloVe: task.glove, Regions: boxes}
		scores[i], err = gr.Score(ctx, []story.Story{st}, rovist.VGOptions{NoIDF: true})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(scores[0]) != 1 || !scores[0][0].Defined || scores[0][0].Score != scores[1][0].Score || len(scores[0][0].Nouns) == 0 {
		t.Errorf("in-memory model scores %+v, saved model %+v", scores[0], scores[1])
	} else {
		t.Logf("save → score: %.9g both (%d nouns)", scores[0][0].Score, len(scores[0][0].Nouns))
	}
	// The trainer's forward pass is the scorer's, up to float32 rounding.
	batch := valid[:4]
	pix, err := tr.pixels(batch)
	if err != nil {
		t.Fatal(err)
	}
	var words []float32
	for _, ex := range batch {
		words = append(words, ex.Vector...)
	}
	c, err := tr.net.forward(ctx, pix, words)
	if err != nil {
		t.Fatal(err)
	}
	var pvs []imageproc.PixelValues
	for _, ex := range batch {
		img, _ := ex.Crop.Load()
		pv, err := loaded.Preprocess(img)
		if err != nil {
			t.Fatal(err)
		}
		pvs = append(pvs, pv)
	}
	// The scorer's embeddings are the unit-length image features.
	feats, err := loaded.EmbedImages(ctx, pvs)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i, f := range feats {
		row := slices.Clone(c.img[i*len(f) : (i+1)*len(f)])
		var norm float64
		for _, v := range row {
			norm += float64(v) * float64(v)
		}
		for j, v := range f {
			worst = math.Max(worst, math.Abs(float64(v)-float64(row[j])/math.Sqrt(norm)))
		}
	}
	if worst > 1e-5 {
		t.Errorf("trainer and scorer image features differ by %.3g", worst)
	}

	// Resume from the epoch-2 checkpoint: two more epochs reach the
	// uninterrupted run's weights.
	re, err := ResumeVGTrainer(filepath.Join(opts.CheckpointDir, "epoch-002"), opts)
	if err != nil {
		t.Fatal(err)
	}
	if re.Epoch() != 2 {
		t.Fatalf("resumed at epoch %d, want 2", re.Epoch())
	}
	if _, err := re.Train(ctx, train, valid); err != nil {
		t.Fatal(err)
	}
	diff := 0
	want := tr.net.p.tensors()
	for ti, nt := range re.net.p.tensors() {
		for i, v := range nt.Data {
			if v != want[ti].Data[i] {
				diff++
			}
		}
	}
	if diff > 0 {
		t.Errorf("resumed run differs from the uninterrupted one in %d weights", diff)
	}
	h := re.History()
	if len(h) != opts.Epochs || h[3].ValidationLoss != res[3].ValidationLoss {
		t.Errorf("resumed history %+v, want %+v", h, res)
	}
}

// TestVGTrainerLearnTemperature checks that τ moves only with
// LearnTemperature, by Adam's first step of lr in the gradient's direction
// opposite.
func TestVGTrainerLearnTemperature(t *testing.T) {
	vit := t.TempDir()
	writeTinyViT(t, vit, 16, 1, 2, 24, 16, 8, 2)
	rng := rand.New(rand.NewSource(6))
	task := newSynthVG(t, rng)
	batch := task.examples(t, rng, 6, 16)
	tr, err := NewVGTrainer(filepath.Join(vit, "model.safetensors"), vit, VGTrainOptions{LearnTemperature: true, LearningRate: 1e-2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Step(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
	// Adam's first step moves every parameter by lr·sign(g) (up to eps).
	want := 1 - 1e-2*math.Copysign(1, tr.dTau)
	if math.Abs(tr.Temperature()-want) > 1e-6 {
		t.Errorf("τ after one step %.8g, want %.8g (gradient %.4g)", tr.Temperature(), want, tr.dTau)
	}
}

// TestVGTrainerBadInput checks the errors of bad files and options.
func TestVGTrainerBadInput(t *testing.T) {
	vit := t.TempDir()
	writeTinyViT(t, vit, 16, 1, 2, 24, 16, 8, 3)
	ck := filepath.Join(vit, "model.safetensors")
	for _, tc := range []struct {
		name  string
		run   func() error
		wants string
	}{
		{"missing checkpoint", func() error {
			_, err := NewVGTrainer(filepath.Join(vit, "nope.pth.tar"), vit, VGTrainOptions{})
			return err
		}, "nope.pth.tar"},
		{"not a checkpoint", func() error {
			_, err := NewVGTrainer(filepath.Join(vit, "config.json"), vit, VGTrainOptions{})
			return err
		}, "config.json"},
		{"negative batch", func() error {
			_, err := NewVGTrainer(ck, vit, VGTrainOptions{BatchSize: -1})
			return err
		}, "BatchSize"},
		{"NaN learning rate", func() error {
			_, err := NewVGTrainer(ck, vit, VGTrainOptions{LearningRate: math.NaN()})
			return err
		}, "LearningRate"},
		{"wrong word width", func() error {
			tr, err := NewVGTrainer(ck, vit, VGTrainOptions{})
			if err != nil {
				return err
			}
			_, err = tr.Step(context.Background(), []rovist.VGExample{{Vector: make([]float32, 7)}})
			return err
		}, "7-d word vector"},
		{"empty batch", func() error {
			tr, err := NewVGTrainer(ck, vit, VGTrainOptions{})
			if err != nil {
				return err
			}
			_, err = tr.Step(context.Background(), nil)
			return err
		}, "empty batch"},
		{"dropout in the config", func() error {
			d := t.TempDir()
			writeTinyViT(t, d, 16, 1, 2, 24, 16, 8, 3)
			os.WriteFile(filepath.Join(d, "config.json"), []byte(`{"hidden_size": 16, "num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 24, "image_size": 16, "patch_size": 8, "hidden_dropout_prob": 0.1}`), 0o644)
			_, err := NewVGTrainer(filepath.Join(d, "model.safetensors"), d, VGTrainOptions{})
			return err
		}, "dropout"},
		{"pairs without phrase column", func() error {
			_, err := rovist.ReadVGPairsCSV(strings.NewReader("image_id,bbox\n1,\"[1.0, 2.0, 3.0, 4.0]\"\n"), "pairs.csv")
			return err
		}, "noun_phrase"},
		{"pairs with a bad bbox", func() error {
			_, err := rovist.ReadVGPairsCSV(strings.NewReader("image_id,bbox,noun_phrase\n1,[1.0],a dog\n"), "pairs.csv")
			return err
		}, "line 2"},
		{"no resume state", func() error {
			_, err := ResumeVGTrainer(vit, VGTrainOptions{})
			return err
		}, "no vg training checkpoint"},
	} {
		err := tc.run()
		if err == nil || !strings.Contains(err.Error(), tc.wants) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.wants)
		}
	}
}

// checkVGProgress: epochs count from 1 in the progress reports and the
// epoch results, as in the other trainers; an epoch's last report has
// all its pairs done and its mean loss equal to the epoch's TrainLoss;
// Step counts every batch.
func checkVGProgress(t *testing.T, reports []training.Progress, res []VGEpochResult, n int, opts VGTrainOptions) {
	t.Helper()
	batches := (n + opts.BatchSize - 1) / opts.BatchSize
	if len(reports) != opts.Epochs*batches {
		t.Fatalf("%d progress reports, want %d epochs × %d batches", len(reports), opts.Epochs, batches)
	}
	for e, r := range res {
		last := reports[(e+1)*batches-1]
		if r.Epoch != e+1 || last.Epoch != e+1 || last.Epochs != opts.Epochs || reports[e*batches].Epoch != e+1 {
			t.Errorf("epoch %d: result Epoch %d, reports %d..%d of %d, want %d", e, r.Epoch, reports[e*batches].Epoch, last.Epoch, last.Epochs, e+1)
		}
		if last.Done != n || last.Total != n || last.Step != (e+1)*batches || last.Loss != r.TrainLoss {
			t.Errorf("epoch %d: last report %+v, want %d of %d pairs, step %d, loss %v", e+1, last, n, n, (e+1)*batches, r.TrainLoss)
		}
	}
}
