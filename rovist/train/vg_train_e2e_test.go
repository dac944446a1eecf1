package train

import (
	"context"
	"encoding/json"
	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/rovist"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/internal/npy"
	"github.com/storyeval/storyeval/internal/words"
)

// vgStepTolerance is the relative tolerance of the one-step check: 1e-5 of
// the largest magnitude of each expected tensor.
const vgStepTolerance = 1e-5

// symlossBatch is symloss/batch.json: one batch of the original training.
type symlossBatch struct {
	Rows []struct {
		ImageID    json.Number `json:"image_id"`
		BBox       string      `json:"bbox"`
		File       string      `json:"file"`
		NounPhrase string      `json:"noun_phrase"`
		Tokens     []string    `json:"tokens"`
		GloveFound []bool      `json:"glove_found"`
	} `json:"rows"`
	Loss            float64           `json:"loss"`
	Temperature     float64           `json:"temperature"`
	GradTemperature float64           `json:"grad_temperature"`
	GradFiles       map[string]string `json:"grad_files"`
}

// relErr returns max|got − want| / max|want| (the scale: 1 when want is 0).
func relErr(got []float32, want []float64, scale float64) float64 {
	if scale == 0 {
		for _, w := range want {
			scale = math.Max(scale, math.Abs(w))
		}
	}
	if scale == 0 {
		scale = 1
	}
	worst := 0.0
	for i, w := range want {
		worst = math.Max(worst, math.Abs(float64(got[i])-w)/scale)
	}
	return worst
}

// TestVGTrainStepFixture reproduces one step of usydnlp/rovist's RoViST-VG
// training (symloss/: Flickr30kEntsLoader + collate_fn_static +
// Region2PhraseModel.forward + SymmetricLoss + loss.backward() on the
// released-layout checkpoint): the phrase vectors, the image and text
// features, the loss and the gradient of every parameter and of τ, through
// VGTrainer's own loss-and-gradient pass (the one Step and Train run).
func TestVGTrainStepFixture(t *testing.T) {
	dir := e2efixtures.Metric("rovist_vg")
	sym := filepath.Join(dir, "symloss")
	t.Logf("fixtures: %s", sym)
	data, err := os.ReadFile(filepath.Join(sym, "batch.json"))
	if err != nil {
		t.Fatal(err)
	}
	var b symlossBatch
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&b); err != nil {
		t.Fatal(err)
	}
	if len(b.Rows) == 0 || len(b.GradFiles) == 0 {
		t.Fatalf("batch.json has %d rows and %d gradient files", len(b.Rows), len(b.GradFiles))
	}
	// Every array index.json lists under symloss/ must be checked.
	var index struct {
		Arrays map[string]struct {
			File string `json:"file"`
		} `json:"arrays"`
	}
	idata, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(idata, &index); err != nil {
		t.Fatal(err)
	}
	expected := map[string]bool{}
	for _, a := range index.Arrays {
		if strings.HasPrefix(a.File, "symloss/") {
			expected[filepath.Base(a.File)] = true
		}
	}
	files, _ := filepath.Glob(filepath.Join(sym, "*.npy"))
	for _, f := range files {
		expected[filepath.Base(f)] = true
	}
	checked := map[string]bool{}
	load := func(name string) *npy.Array {
		t.Helper()
		a, err := npy.ReadFile(filepath.Join(sym, name))
		if err != nil {
			t.Fatal(err)
		}
		checked[name] = true
		return a
	}

	tr, err := NewVGTrainer(findOne(t, dir, "*.pth.tar"), findDirWith(t, dir, "preprocessor_config.json"), VGTrainOptions{Temperature: b.Temperature})
	if err != nil {
		t.Fatal(err)
	}
	pairs := make([]rovist.VGPair, len(b.Rows))
	for i, r := range b.Rows {
		pairs[i] = rovist.VGPair{ImageID: r.ImageID.String(), BBox: r.BBox, Phrase: r.NounPhrase}
	}
	g, err := rovist.LoadGloVe(findOne(t, dir, "glove*.txt"), rovist.VGPhraseWords(pairs), rovist.GloVeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	crops := rovist.CropFolder{Dir: filepath.Dir(filepath.Join(dir, b.Rows[0].File))}
	examples, err := rovist.VGExamples(pairs, crops, g)
	if err != nil {
		t.Fatal(err)
	}
	// Inputs: crop files, tokens, rovist.GloVe hits and the phrase vectors.
	phrases := load("phrase_embeddings.npy")
	for i, r := range b.Rows {
		if want := "file:" + filepath.Join(dir, r.File); examples[i].Crop.Key != want {
			t.Errorf("row %d: crop %s, batch.json has %s", i, examples[i].Crop.Key, want)
		}
		toks := words.Tokenize(r.NounPhrase)
		if !slices.Equal(toks, r.Tokens) {
			t.Errorf("row %d: tokens %q, want %q", i, toks, r.Tokens)
		}
		for j, w := range toks {
			if _, ok := g.Vector(w); j < len(r.GloveFound) && ok != r.GloveFound[j] {
				t.Errorf("row %d: rovist.GloVe has %q: %v, want %v", i, w, ok, r.GloveFound[j])
			}
		}
	}
	W := phrases.Shape[len(phrases.Shape)-1]
	for i := range b.Rows {
		if e := relErr(examples[i].Vector, phrases.Float64s()[i*W:(i+1)*W], 0); e > vgStepTolerance {
			t.Errorf("row %d: phrase vector off by %.3g", i, e)
		}
	}

	// Features of the forward pass.
	ctx := context.Background()
	pix, err := tr.pixels(examples)
	if err != nil {
		t.Fatal(err)
	}
	words := make([]float32, 0, len(examples)*W)
	for _, ex := range examples {
		words = append(words, ex.Vector...)
	}
	c, err := tr.net.forward(ctx, pix, words)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]float32{"image_feats.npy": c.img, "text_feats.npy": c.txt} {
		want := load(name)
		if want.Len() != len(got) {
			t.Fatalf("%s: %d values, the model gives %d", name, want.Len(), len(got))
		}
		e := relErr(got, want.Float64s(), 0)
		if e > vgStepTolerance {
			t.Errorf("%s: off by %.3g of its largest magnitude", name, e)
		}
		t.Logf("%s: %d values, max error %.3g of the largest magnitude", name, len(got), e)
	}

	// The loss and every gradient, through the trainer's pass.
	loss, err := tr.lossAndGradients(ctx, examples, true)
	if err != nil {
		t.Fatal(err)
	}
	wantLoss := float64(load("loss.npy").Float64s()[0])
	if d := math.Abs(loss-wantLoss) / math.Abs(wantLoss); d > vgStepTolerance || math.Abs(b.Loss-wantLoss) > 1e-6*math.Abs(wantLoss) {
		t.Errorf("loss %.8g, want %.8g (batch.json %.8g)", loss, wantLoss, b.Loss)
	} else {
		t.Logf("loss %.8g, want %.8g: relative error %.3g", loss, wantLoss, d)
	}
	wantTau := load("grad_temperature.npy").Float64s()[0]
	if d := math.Abs(tr.dTau-wantTau) / math.Abs(wantTau); d > vgStepTolerance || math.Abs(b.GradTemperature-wantTau) > 1e-6*math.Abs(wantTau) {
		t.Errorf("d loss/d τ %.8g, want %.8g (batch.json %.8g)", tr.dTau, wantTau, b.GradTemperature)
	} else {
		t.Logf("d loss/d τ %.8g, want %.8g: relative error %.3g", tr.dTau, wantTau, d)
	}
	grads := map[string]nn.Param[float32]{}
	for _, nt := range tr.grads.tensors() {
		grads[nt.Name] = nt
	}
	names := make([]string, 0, len(b.GradFiles))
	for name := range b.GradFiles {
		names = append(names, name)
	}
	sort.Strings(names)
	worst, values := 0.0, 0
	for _, name := range names {
		want := load(b.GradFiles[name] + ".npy")
		got, ok := grads[name]
		if !ok {
			t.Errorf("the fixture has a gradient of %s, the model no such parameter", name)
			continue
		}
		if !slices.Equal(want.Shape, got.Shape) {
			t.Errorf("%s: gradient shape %v, the parameter's %v", name, want.Shape, got.Shape)
			continue
		}
		scale := 0.0
		if strings.HasSuffix(name, ".key.bias") {
			// Softmax ignores a shift of its input, so the key bias's
			// exact gradient is 0 and both sides hold rounding residue:
			// it is measured against the key weight's gradient.
			wk := load(b.GradFiles[strings.TrimSuffix(name, "bias")+"weight"] + ".npy")
			for _, v := range wk.Float64s() {
				scale = math.Max(scale, math.Abs(v))
			}
		}
		e := relErr(got.Data, want.Float64s(), scale)
		if e > vgStepTolerance {
			t.Errorf("%s: gradient off by %.3g of its largest magnitude", name, e)
		}
		worst = math.Max(worst, e)
		values += len(got.Data)
		delete(grads, name)
	}
	for name := range grads {
		t.Errorf("parameter %s has no gradient in the fixture", name)
	}
	t.Logf("%d parameter gradients (%d values): max error %.3g of each tensor's largest magnitude; τ's gradient and the loss checked", len(names), values, worst)
	var missing []string
	for name := range expected {
		if !checked[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("arrays of the fixture left unchecked: %v", missing)
	}
}
