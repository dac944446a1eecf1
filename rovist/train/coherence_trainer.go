package train

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/trainloop"
	"github.com/storyeval/storyeval/training"
)

// CoherenceTrainer fine-tunes every weight of the RoViST-C classifier
// (ALBERT, its pooler and the Linear(H, 2) head) on sentence-order
// prediction pairs with cross-entropy and Adam, as usydnlp/rovist
// scripts/rovist_c.py trains it. Gradients come from hand-written backward
// passes (encoders/nn); the gradients of ALBERT's shared layer sum
// over its num_hidden_layers applications. A CoherenceTrainer is not safe
// for concurrent use.
type CoherenceTrainer struct {
	cfg     encoders.ALBERTConfig
	tok     *tokenize.ALBERT
	files   map[string][]byte // config.json and spiece.model, written with every checkpoint
	opts    CoherenceTrainOptions
	dev     nn.Device
	net     *sopNet[float32]
	grads   *sopParams[float32]
	m, v    []nn.Param[float32] // Adam's moments, zeros like the parameter walk
	adam    nn.Adam
	epoch   int // completed epochs
	best    float64
	bad     int // epochs since the best validation loss
	history []CoherenceEpoch
}

// CoherenceStep is the outcome of one training step.
type CoherenceStep struct {
	// Loss is the batch's mean cross-entropy before the update.
	Loss float64
	// Accuracy is the share of the batch whose argmax is the label.
	Accuracy float64
}

// Files of a RoViST-C model folder as the trainer writes it: the ALBERT
// config.json and spiece.model beside the classifier's weights, so that
// LoadCoherenceModel(filepath.Join(dir, CoherenceWeightsFile), dir) reads
// it (see LoadCoherenceModelDir).
const (
	CoherenceWeightsFile = "sop_model.safetensors"
	albertConfigFile     = "config.json"
	albertSpieceFile     = "spiece.model"
)

// NewCoherenceTrainer prepares to train RoViST-C. albertDir is an ALBERT
// folder (config.json and spiece.model, e.g. albert-large-v1). With
// checkpointPath empty, training starts from albertDir's own pretrained
// weights (model.safetensors or pytorch_model.bin) with a new head
// initialised from opts.Seed, as the reference starts from
// AlbertModel.from_pretrained; otherwise from a classifier checkpoint in the
// reference layout (the released sop_model_epoch4.pth.tar, or a
// CoherenceWeightsFile written by the trainer).
func NewCoherenceTrainer(checkpointPath, albertDir string, opts CoherenceTrainOptions) (*CoherenceTrainer, error) {
	var cfg encoders.ALBERTConfig
	if err := encoders.LoadConfig(albertDir, &cfg); err != nil {
		return nil, fmt.Errorf("coherence training: %w", err)
	}
	if err := checkSOPConfig(cfg); err != nil {
		return nil, fmt.Errorf("coherence training: %s: %w", albertDir, err)
	}
	tok, err := tokenize.LoadALBERT(albertDir)
	if err != nil {
		return nil, fmt.Errorf("coherence training: %w", err)
	}
	if tok.VocabSize() != cfg.VocabSize {
		return nil, fmt.Errorf("coherence training: the tokenizer of %s has %d pieces, its config's vocab_size is %d", albertDir, tok.VocabSize(), cfg.VocabSize)
	}
	files := map[string][]byte{}
	for _, name := range []string{albertConfigFile, albertSpieceFile} {
		data, err := readBounded(filepath.Join(albertDir, name), 64<<20)
		if err != nil {
			return nil, fmt.Errorf("coherence training: %w", err)
		}
		files[name] = data
	}
	var st *checkpoint.State
	var newHead *rand.Rand
	what := checkpointPath
	if checkpointPath == "" {
		st, err = checkpoint.OpenDir(albertDir)
		newHead, what = rand.New(rand.NewSource(opts.Seed)), albertDir
	} else {
		st, err = checkpoint.Open(checkpointPath)
	}
	if err != nil {
		return nil, fmt.Errorf("coherence training: %s: %w", what, err)
	}
	defer st.Close()
	p, err := readSOPParams(st, cfg, newHead)
	if err != nil {
		return nil, fmt.Errorf("coherence training: %s: %w", what, err)
	}
	return newCoherenceTrainer(cfg, tok, files, p, opts)
}

func newCoherenceTrainer(cfg encoders.ALBERTConfig, tok *tokenize.ALBERT, files map[string][]byte, p *sopParams[float32], opts CoherenceTrainOptions) (*CoherenceTrainer, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	dev, err := nn.NewDevice(o.Backend)
	if err != nil {
		return nil, fmt.Errorf("coherence training: %w", err)
	}
	act, _ := compute.ActivationByName(cfg.HiddenAct)
	t := &CoherenceTrainer{cfg: cfg, tok: tok, files: files, opts: o, dev: dev,
		net: &sopNet[float32]{p: p, E: cfg.EmbeddingSize, H: cfg.HiddenSize, I: cfg.IntermediateSize, heads: cfg.NumAttentionHeads,
			layers: cfg.NumHiddenLayers, eps: cfg.LayerNormEps, act: act, dropout: o.Dropout, buf: &nn.Arena[float32]{}, dev: &dev},
		grads: p.zeroLike(), m: nn.ZerosLike(p.tensors()), v: nn.ZerosLike(p.tensors()),
		adam: nn.Adam{LR: o.LearningRate, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, WeightDecay: o.WeightDecay},
		best: math.Inf(1),
	}
	return t, nil
}

// readBounded reads a file of at most limit bytes.
func readBounded(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes is larger than the %d-byte limit", path, st.Size(), limit)
	}
	return os.ReadFile(path)
}

// encodeSOP encodes pairs as the scorer does ([CLS] A [SEP] B [SEP]), longer
// pairs truncated longest-first to MaxLength.
func (t *CoherenceTrainer) encodeSOP(pairs []SOPPair) ([]tokenize.Encoding, []int, error) {
	maxLen := t.opts.MaxLength
	if maxLen == 0 || maxLen > t.cfg.MaxPositionEmbeddings {
		maxLen = t.cfg.MaxPositionEmbeddings
	}
	encs, labels := make([]tokenize.Encoding, len(pairs)), make([]int, len(pairs))
	for i, p := range pairs {
		e := t.tok.EncodePair(p.A, p.B)
		if e.Len() > maxLen {
			var err error
			if e, err = t.tok.EncodePairWith(p.A, p.B, tokenize.Options{Truncation: tokenize.LongestFirst, MaxLength: maxLen}); err != nil {
				return nil, nil, fmt.Errorf("pair %d: %w", i, err)
			}
		}
		encs[i], labels[i] = e, p.Label
	}
	return encs, labels, nil
}

// newSOPBatch pads encodings into a batch (padding id 0, type 0, masked).
func newSOPBatch(encs []tokenize.Encoding) *sopBatch {
	S := 0
	for _, e := range encs {
		S = max(S, e.Len())
	}
	b := &sopBatch{B: len(encs), S: S, ids: make([]int, len(encs)*S), types: make([]int, len(encs)*S), keyValid: make([]bool, len(encs)*S)}
	for i, e := range encs {
		copy(b.ids[i*S:], e.IDs)
		copy(b.types[i*S:], e.TypeIDs)
		for j := range e.Len() {
			b.keyValid[i*S+j] = true
		}
	}
	return b
}

// Step runs one training step on a batch, exactly as Train does for each of
// its mini-batches: forward pass with dropout, cross-entropy, backward pass
// through every application of the shared layer, one Adam update.
func (t *CoherenceTrainer) Step(ctx context.Context, batch []SOPPair) (CoherenceStep, error) {
	if err := checkSOPPairs(batch, "training"); err != nil {
		return CoherenceStep{}, err
	}
	encs, labels, err := t.encodeSOP(batch)
	if err != nil {
		return CoherenceStep{}, err
	}
	return t.step(ctx, encs, labels)
}

func (t *CoherenceTrainer) step(ctx context.Context, encs []tokenize.Encoding, labels []int) (CoherenceStep, error) {
	if len(encs) == 0 {
		return CoherenceStep{}, fmt.Errorf("coherence training: empty batch")
	}
	var rng *rand.Rand
	if t.net.dropout > 0 {
		// One stream per step, so a resumed run draws the same masks.
		rng = rand.New(rand.NewSource(t.opts.Seed*1_000_003 + int64(t.adam.Step) + 1))
	}
	c, err := t.net.forward(ctx, newSOPBatch(encs), rng)
	if err != nil {
		return CoherenceStep{}, err
	}
	loss, dlogits := crossEntropy(c.logits, labels)
	t.dev.Zero(nn.Values(t.grads.tensors()))
	if err := t.net.backward(ctx, c, dlogits, t.grads); err != nil {
		return CoherenceStep{}, err
	}
	if err := t.dev.AdamStep(&t.adam, nn.Values(t.net.p.tensors()), nn.Values(t.grads.tensors()), nn.Values(t.m), nn.Values(t.v)); err != nil {
		return CoherenceStep{}, err
	}
	return CoherenceStep{Loss: loss, Accuracy: accuracy(c.logits, labels)}, nil
}

// accuracy is the share of rows whose larger logit is the label (torch's
// argmax: the first index on a tie).
func accuracy[T nn.Float](logits []T, labels []int) float64 {
	correct := 0
	for b, y := range labels {
		pred := 0
		if logits[2*b+1] > logits[2*b] {
			pred = 1
		}
		if pred == y {
			correct++
		}
	}
	return float64(correct) / float64(len(labels))
}

// Train trains on the pairs until the configured number of epochs is
// complete (continuing after the epochs a resumed trainer has done) or
// early stopping ends it. Each epoch runs at the epoch's learning rate
// (LearningRate·LRDecay^(epoch−1)), shuffles the pairs with a seeded order,
// runs Step on every mini-batch, evaluates on the validation pairs (given,
// or split off the training pairs as the options say, keeping a pair and
// its swap on the same side) and writes a checkpoint when CheckpointDir is
// set. Cancelling ctx stops it between layers; the last complete checkpoint
// stays valid.
func (t *CoherenceTrainer) Train(ctx context.Context, train, validation []SOPPair) ([]CoherenceEpoch, error) {
	o := t.opts
	if len(train) == 0 {
		return nil, fmt.Errorf("coherence training: no training pairs")
	}
	if err := checkSOPPairs(train, "training"); err != nil {
		return nil, err
	}
	if err := checkSOPPairs(validation, "validation"); err != nil {
		return nil, err
	}
	if validation == nil && o.ValidationFraction > 0 {
		train, validation = splitSOPValidation(train, o.ValidationFraction, o.Seed)
	}
	encs, labels, err := t.encodeSOP(train)
	if err != nil {
		return nil, err
	}
	valEncs, valLabels, err := t.encodeSOP(validation)
	if err != nil {
		return nil, err
	}
	for t.epoch < o.Epochs {
		if o.EarlyStop > 0 && t.bad >= o.EarlyStop {
			break
		}
		epoch := t.epoch + 1
		t.adam.LR = o.LearningRate * math.Pow(o.LRDecay, float64(epoch-1))
		order := trainloop.Order(o.Seed, epoch, len(encs))
		var lossSum, accSum float64
		batches := 0
		err := trainloop.Batches(order, o.BatchSize, func(idx []int, done int) error {
			r, err := t.step(ctx, trainloop.Gather(encs, idx), trainloop.Gather(labels, idx))
			if err != nil {
				return err
			}
			lossSum += r.Loss
			accSum += r.Accuracy
			batches++
			if o.Progress != nil {
				o.Progress(training.Progress{Epoch: epoch, Epochs: o.Epochs, Done: done, Total: len(order),
					Step: t.adam.Step, Loss: lossSum / float64(batches)})
			}
			return nil
		})
		if err != nil {
			return t.History(), err
		}
		res := CoherenceEpoch{Epoch: epoch, LearningRate: t.adam.LR, TrainLoss: lossSum / float64(batches), TrainAccuracy: accSum / float64(batches),
			ValidationLoss: math.NaN(), ValidationAccuracy: math.NaN()}
		if len(valEncs) > 0 {
			if res.ValidationLoss, res.ValidationAccuracy, err = t.evaluate(ctx, valEncs, valLabels); err != nil {
				return t.History(), err
			}
			trainloop.Improved(&t.best, &t.bad, res.ValidationLoss)
		}
		t.epoch = epoch
		if err := trainloop.Record(&t.history, res, o.CheckpointDir, t.writeCheckpoint, setCoherenceCheckpoint); err != nil {
			return t.History(), err
		}
	}
	return t.History(), nil
}

func setCoherenceCheckpoint(e *CoherenceEpoch, dir string) { e.Checkpoint = dir }

// Evaluate returns the mean cross-entropy and the accuracy of the current
// weights on pairs, without dropout.
func (t *CoherenceTrainer) Evaluate(ctx context.Context, pairs []SOPPair) (loss, acc float64, err error) {
	if len(pairs) == 0 {
		return 0, 0, fmt.Errorf("coherence evaluation: no pairs")
	}
	if err := checkSOPPairs(pairs, "evaluation"); err != nil {
		return 0, 0, err
	}
	encs, labels, err := t.encodeSOP(pairs)
	if err != nil {
		return 0, 0, err
	}
	return t.evaluate(ctx, encs, labels)
}

func (t *CoherenceTrainer) evaluate(ctx context.Context, encs []tokenize.Encoding, labels []int) (loss, acc float64, err error) {
	correct := 0.0
	for lo := 0; lo < len(encs); lo += t.opts.BatchSize {
		hi := min(lo+t.opts.BatchSize, len(encs))
		c, err := t.net.forward(ctx, newSOPBatch(encs[lo:hi]), nil)
		if err != nil {
			return 0, 0, err
		}
		l, _ := crossEntropy(c.logits, labels[lo:hi])
		loss += l * float64(hi-lo)
		correct += accuracy(c.logits, labels[lo:hi]) * float64(hi-lo)
	}
	n := float64(len(encs))
	return loss / n, correct / n, nil
}

// probabilities returns softmax(logits)[1] of every pair from the training
// network's forward pass without dropout (the scorer's pair score).
func (t *CoherenceTrainer) probabilities(ctx context.Context, encs []tokenize.Encoding) ([]float64, error) {
	out := make([]float64, 0, len(encs))
	for lo := 0; lo < len(encs); lo += t.opts.BatchSize {
		hi := min(lo+t.opts.BatchSize, len(encs))
		c, err := t.net.forward(ctx, newSOPBatch(encs[lo:hi]), nil)
		if err != nil {
			return nil, err
		}
		for b := range hi - lo {
			l0, l1 := c.logits[2*b], c.logits[2*b+1]
			mx := max(l0, l1)
			e0 := float32(math.Exp(float64(l0 - mx)))
			e1 := float32(math.Exp(float64(l1 - mx)))
			out = append(out, float64(e1/(e0+e1)))
		}
	}
	return out, nil
}

// splitSOPValidation holds out a seeded random share of the pairs, keeping
// the pairs of the same two sentences (a pair and its swap) together so
// that no validation input was seen swapped in training.
func splitSOPValidation(pairs []SOPPair, fraction float64, seed int64) (train, val []SOPPair) {
	group := map[[2]string]int{}
	ids := make([]int, len(pairs))
	for i, p := range pairs {
		key := [2]string{p.A, p.B}
		if p.B < p.A {
			key = [2]string{p.B, p.A}
		}
		g, ok := group[key]
		if !ok {
			g = len(group)
			group[key] = g
		}
		ids[i] = g
	}
	n := int(math.Round(fraction * float64(len(group))))
	if n == 0 || n >= len(group) {
		return pairs, nil
	}
	held := make([]bool, len(group))
	for _, g := range rand.New(rand.NewSource(seed)).Perm(len(group))[:n] {
		held[g] = true
	}
	for i, p := range pairs {
		if held[ids[i]] {
			val = append(val, p)
		} else {
			train = append(train, p)
		}
	}
	return train, val
}

// Epoch returns the number of completed epochs.
func (t *CoherenceTrainer) Epoch() int { return t.epoch }

// History returns the results of the completed epochs.
func (t *CoherenceTrainer) History() []CoherenceEpoch { return slices.Clone(t.history) }

// SetProgress replaces the progress callback (e.g. of a resumed trainer).
func (t *CoherenceTrainer) SetProgress(fn func(training.Progress)) { t.opts.Progress = fn }
