package train

import (
	"context"
	"github.com/storyeval/storyeval/vrank"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/encoders/tokenize"
)

// TestMLMHeadForwardHandComputed checks the head on a case worked out by
// hand: x = (1, −1), dense = identity with zero bias, so GELU gives
// (Φ(1), −Φ(−1)); the two values differ by exactly 1 and LayerNorm maps
// them to (1, −1) (up to eps = 1e-12), which γ = (2, 1), β = (0, 0.5) turn
// into t = (2, −0.5); the tied decoder rows (1, 0), (0, 1), (1, 1) and bias
// (0.1, 0.2, 0.3) give the logits (2.1, −0.3, 1.8).
func TestMLMHeadForwardHandComputed(t *testing.T) {
	h := newMLMHead[float64](2, 3)
	copy(h.dense.W, []float64{1, 0, 0, 1})
	copy(h.norm.G, []float64{2, 1})
	copy(h.norm.B, []float64{0, 0.5})
	copy(h.bias, []float64{0.1, 0.2, 0.3})
	word := []float64{1, 0, 0, 1, 1, 1}
	e := &nn.EncoderPass[float64]{B: 1, S: 1, H: 2}
	c := h.forward(e, compute.HostTensor[float64]{1, -1}, 1, word, 1e-12)
	logits, _ := compute.HostValues[float64](c.logits)
	want := []float64{2.1, -0.3, 1.8}
	for i, w := range want {
		if math.Abs(logits[i]-w) > 1e-9 {
			t.Errorf("logit %d = %.12g, want %g", i, logits[i], w)
		}
	}
	// The loss of label 0: log Σ exp(logits) − 2.1.
	loss, _, correct := compute.SoftmaxCrossEntropyHost(make([]float64, 3), logits, 3, []int{0})
	wantLoss := math.Log(math.Exp(2.1)+math.Exp(-0.3)+math.Exp(1.8)) - 2.1
	if math.Abs(loss-wantLoss) > 1e-9 || correct != 1 {
		t.Errorf("loss %.12g (correct %d), want %.12g (1)", loss, correct, wantLoss)
	}
}

// TestMLMBackwardMatchesFiniteDifferences checks every gradient of the
// float64 encoder with the masked-LM head (the word embeddings gathering
// both the input and the tied decoder gradients), with and without encoder
// dropout, against central differences of the loss.
func TestMLMBackwardMatchesFiniteDifferences(t *testing.T) {
	for _, encDropout := range []float64{0, 0.2} {
		cfg := tinyBERT(20)
		p := newParams[float64](cfg, false)
		initRandomParams(p, rand.New(rand.NewSource(3)), 0.5)
		head := newMLMHead[float64](cfg.HiddenSize, cfg.VocabSize)
		rng := rand.New(rand.NewSource(4))
		head.initRandom(rng.NormFloat64, 0.5)
		for _, nt := range append(p.tensors(), head.tensors()...) {
			if len(nt.Shape) == 1 {
				for i := range nt.Data {
					nt.Data[i] += 0.3 * rng.NormFloat64()
				}
			}
		}
		net := &network[float64]{p: p, H: cfg.HiddenSize, I: cfg.IntermediateSize, heads: cfg.NumAttentionHeads, eps: 1e-12, encDropout: encDropout, allRows: true}
		mb := &maskedBatch{in: tinyBatch(), rows: []int{1, 3, 5, 8, 9, 15}, labels: []int{4, 17, 0, 9, 9, 2}}
		ctx := context.Background()
		run := func() (*forwardCache[float64], *mlmCache[float64], float64, compute.Tensor) {
			c, hc, d, loss, _, err := mlmForward(ctx, net, head, mb, rand.New(rand.NewSource(9)))
			if err != nil {
				t.Fatal(err)
			}
			return c, hc, loss, d
		}
		c, hc, _, dlogits := run()
		g, gh := p.zeroLike(), head.zeroLike()
		if err := mlmBackward(ctx, net, head, c, hc, mb, dlogits, g, gh); err != nil {
			t.Fatal(err)
		}
		params, grads := append(p.tensors(), head.tensors()...), append(g.tensors(), gh.tensors()...)
		checked := 0
		for ti, nt := range params {
			if strings.HasPrefix(nt.Name, headName+".") {
				continue // the regression head is not on the masked-LM path
			}
			worst := 0.0
			for i := range nt.Data {
				orig := nt.Data[i]
				const h = 1e-5
				nt.Data[i] = orig + h
				_, _, up, _ := run()
				nt.Data[i] = orig - h
				_, _, down, _ := run()
				nt.Data[i] = orig
				num := (up - down) / (2 * h)
				worst = math.Max(worst, math.Abs(num-grads[ti].Data[i])/math.Max(1e-3, math.Abs(num)))
				checked++
			}
			if worst > 1e-5 {
				t.Errorf("dropout %g: %s: worst relative error %.3g between analytic and numeric gradient", encDropout, nt.Name, worst)
			}
		}
		t.Logf("dropout %g: %d gradient elements checked", encDropout, checked)
	}
}

// TestMaskBatchRecipe checks BERT's masking on many tokens: special tokens
// and padding are never selected, about 15 % of the others are, and of
// those about 80 % become [MASK], 10 % a random id and 10 % stay.
func TestMaskBatchRecipe(t *testing.T) {
	sp := mlmSpecial{mask: 4, cls: 2, sep: 3, pad: 0, vocab: 1000}
	batch := syntheticEncodings(400, 60, sp)
	mb := maskBatch(batch, sp, 0.15, rand.New(rand.NewSource(1)))
	total := 0
	for _, e := range batch {
		total += e.Len() - 2
	}
	masked, kept, random := 0, 0, 0
	for i, r := range mb.rows {
		orig := mb.labels[i]
		if orig == sp.cls || orig == sp.sep || orig == sp.pad || !mb.in.keyValid[r] {
			t.Fatalf("row %d: a special token or padding was selected", r)
		}
		switch mb.in.ids[r] {
		case sp.mask:
			masked++
		case orig:
			kept++
		default:
			random++
		}
	}
	n := float64(len(mb.rows))
	share := n / float64(total)
	t.Logf("%d of %d tokens selected (%.4f): %d [MASK], %d random, %d unchanged", len(mb.rows), total, share, masked, random, kept)
	// Binomial standard deviations are ~0.0023 for the share and ~0.008
	// for the 80 % split; the bounds are about 5 of them.
	if math.Abs(share-0.15) > 0.012 || math.Abs(float64(masked)/n-0.8) > 0.04 ||
		math.Abs(float64(random)/n-0.1) > 0.03 || math.Abs(float64(kept)/n-0.1) > 0.03 {
		t.Errorf("masking shares off BERT's recipe")
	}
}

// TestPretrainerLearnsPattern pre-trains a small random BERT on texts where
// each colour word is always followed by its own noun, and checks that the
// validation loss falls well below its start and that the saved encoder
// folder starts Vrank training and a resumed pre-training.
func TestPretrainerLearnsPattern(t *testing.T) {
	colours := []string{"red", "blue", "green", "black", "white", "pink", "gold", "grey"}
	nouns := []string{"apple", "sky", "grass", "night", "snow", "rose", "coin", "cloud"}
	dir := t.TempDir()
	vocab := append([]string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}, append(slices.Clone(colours), nouns...)...)
	if err := os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte(strings.Join(vocab, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	texts := func(n int, seed int64) []string {
		rng := rand.New(rand.NewSource(seed))
		var out []string
		for range n {
			var words []string
			for range 4 {
				k := rng.Intn(len(colours))
				words = append(words, colours[k], nouns[k])
			}
			out = append(out, strings.Join(words, " "))
		}
		return out
	}
	cfg := tinyBERT(len(vocab))
	cfg.HiddenSize, cfg.NumAttentionHeads, cfg.IntermediateSize = 32, 4, 64
	ck := t.TempDir()
	opts := PretrainOptions{Epochs: 30, BatchSize: 16, LearningRate: 2e-3, NoDropout: true, Seed: 5, MaskProbability: 0.3, CheckpointDir: ck}
	pt, err := NewRandomPretrainer(cfg, dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	train, val := texts(200, 1), texts(40, 2)
	loss0, _, err := pt.Evaluate(ctx, val)
	if err != nil {
		t.Fatal(err)
	}
	hist, err := pt.Train(ctx, train, val)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hist {
		t.Logf("epoch %d: train loss %.4f, validation loss %.4f accuracy %.3f", h.Epoch, h.TrainLoss, h.ValidationLoss, h.ValidationAccuracy)
	}
	last := hist[len(hist)-1]
	// A masked noun is fixed by its colour and a masked colour by its noun
	// (unless both are masked), so the loss can approach 0. Uniform guessing
	// costs ln(21) ≈ 3.0; knowing only whether a position holds a colour or
	// a noun, ln(8) ≈ 2.1 with an accuracy of 1/8.
	if !(last.ValidationLoss < 0.5*loss0) || last.ValidationAccuracy < 0.5 {
		t.Errorf("validation loss %.4f (initially %.4f), accuracy %.3f: the pattern was not learned", last.ValidationLoss, loss0, last.ValidationAccuracy)
	}

	enc := t.TempDir()
	if err := pt.SaveEncoder(enc); err != nil {
		t.Fatal(err)
	}
	m, err := vrank.NewFromEncoder(enc, vrank.Config{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	mp, err := paramsOf(m.Config(), m.Weights())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(mp.Word, pt.net.p.Word) || !slices.Equal(mp.Layers[1].FC2.W, pt.net.p.Layers[1].FC2.W) {
		t.Error("the Vrank model started from the saved encoder does not hold the pre-trained weights")
	}
	// Resuming from the last checkpoint for one more epoch gives the
	// weights of one more epoch of the uninterrupted run.
	n := len(hist)
	opts.Epochs = n + 1
	res, err := ResumePretrainer(ck, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Epoch() != n || res.adam.Step != pt.adam.Step {
		t.Fatalf("resumed at epoch %d step %d, want %d and %d", res.Epoch(), res.adam.Step, n, pt.adam.Step)
	}
	pt.opts.Epochs = n + 1
	if _, err := pt.Train(ctx, train, val); err != nil {
		t.Fatal(err)
	}
	if _, err := res.Train(ctx, train, val); err != nil {
		t.Fatal(err)
	}
	a, b := pt.trainable(pt.net.p, pt.head), res.trainable(res.net.p, res.head)
	for i := range a {
		if !slices.Equal(a[i].Data, b[i].Data) {
			t.Errorf("%s differs between the resumed and the uninterrupted run", a[i].Name)
		}
	}
}

// TestPretrainBadInput checks the errors on empty texts, bad options and
// folders without an encoder.
func TestPretrainBadInput(t *testing.T) {
	cfg := tinyBERT(25)
	pt, err := NewRandomPretrainer(cfg, writeTinyVocab(t), PretrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := pt.Train(ctx, nil, nil); err == nil || !strings.Contains(err.Error(), "no training texts") {
		t.Errorf("no texts: %v", err)
	}
	if _, err := pt.Train(ctx, []string{"good", "  "}, []string{"good"}); err == nil || !strings.Contains(err.Error(), "text 1 is empty") {
		t.Errorf("empty text: %v", err)
	}
	if _, err := NewRandomPretrainer(cfg, writeTinyVocab(t), PretrainOptions{MaskProbability: 1.5}); err == nil {
		t.Error("mask probability 1.5 accepted")
	}
	if _, err := NewPretrainer(t.TempDir(), PretrainOptions{}); err == nil || !strings.Contains(err.Error(), "config.json") {
		t.Errorf("empty folder: %v", err)
	}
	if _, err := ResumePretrainer(t.TempDir(), PretrainOptions{}); err == nil || !strings.Contains(err.Error(), "no pre-training checkpoint") {
		t.Errorf("resume from an empty folder: %v", err)
	}
}

// syntheticEncodings makes n encodings [CLS] w… [SEP] of up to maxLen
// random ordinary ids, padded by the batch as texts of several lengths are.
func syntheticEncodings(n, maxLen int, sp mlmSpecial) []tokenize.Encoding {
	rng := rand.New(rand.NewSource(7))
	var out []tokenize.Encoding
	for range n {
		k := 1 + rng.Intn(maxLen-2)
		e := tokenize.Encoding{IDs: []int{sp.cls}, TypeIDs: []int{0}}
		for range k {
			e.IDs = append(e.IDs, 5+rng.Intn(sp.vocab-5))
			e.TypeIDs = append(e.TypeIDs, 0)
		}
		e.IDs, e.TypeIDs = append(e.IDs, sp.sep), append(e.TypeIDs, 0)
		out = append(out, e)
	}
	return out
}
