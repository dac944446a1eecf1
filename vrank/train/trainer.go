package train

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"time"

	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/trainloop"
	"github.com/storyeval/storyeval/training"
	"github.com/storyeval/storyeval/vrank"
)

// Trainer fine-tunes every weight of a Vrank model (the whole BERT encoder
// and the head) on story pairs with MSE loss and Adam. Gradients come from
// the hand-written backward passes of the encoder blocks (see the package
// documentation). A Trainer is not safe for concurrent use.
type Trainer struct {
	// model is the model training started from: its configuration and
	// tokenizer, and (vrank.Model.WithWeights) the type trained weights
	// are returned and saved as.
	model   *vrank.Model
	opts    Options
	dev     nn.Device
	net     *network[float32]
	grads   *params[float32]
	opt     *adam
	epoch   int // completed epochs
	history []EpochResult
	// best holds the weights of epoch bestEpoch, the best so far, when no
	// checkpoint does (see BestModel).
	best      *params[float32]
	bestEpoch int
}

// StepResult is the outcome of one training step.
type StepResult struct {
	// Loss is the batch's MSE before the update.
	Loss float64
	// Predictions are the batch's predicted gaps before the update.
	Predictions []float64
}

// NewTrainer prepares to fine-tune a copy of m; m itself is not changed.
func NewTrainer(m *vrank.Model, opts Options) (*Trainer, error) {
	opts = opts.withDefaults()
	if opts.Epochs < 0 || opts.BatchSize < 0 || opts.LearningRate < 0 || opts.Dropout < 0 || opts.Dropout >= 1 || opts.EncoderDropout < 0 || opts.EncoderDropout >= 1 ||
		opts.Beta1 < 0 || opts.Beta1 >= 1 || opts.Beta2 < 0 || opts.Beta2 >= 1 || opts.Epsilon < 0 {
		return nil, fmt.Errorf("invalid training options %+v", opts)
	}
	dev, err := nn.NewDevice(opts.Backend)
	if err != nil {
		return nil, fmt.Errorf("the training backend: %w", err)
	}
	cfg := m.Config()
	p, err := paramsOf(cfg, m.Weights())
	if err != nil {
		return nil, err
	}
	b := cfg.BERT
	t := &Trainer{model: m, opts: opts, dev: dev,
		net: &network[float32]{p: p, H: b.HiddenSize, I: b.IntermediateSize, heads: b.NumAttentionHeads, eps: b.LayerNormEps, dropout: opts.Dropout, encDropout: opts.EncoderDropout,
			dev: &dev},
		grads: p.zeroLike(),
		opt:   newAdam(p, opts.LearningRate, opts.Beta1, opts.Beta2, opts.Epsilon),
	}
	// Activation buffers are reused from step to step.
	t.net.buf = &nn.Arena[float32]{}
	return t, nil
}

func copyParams[T nn.Float](dst, src *params[T]) {
	ds, ss := dst.tensors(), src.tensors()
	for i := range ds {
		copy(ds[i].Data, ss[i].Data)
	}
}

// Step runs one training step on a batch, exactly as Train does for each of
// its mini-batches: forward pass (with dropout on the head's input unless
// disabled), MSE loss, backward pass through every layer, one Adam update.
func (t *Trainer) Step(ctx context.Context, batch []Pair) (StepResult, error) {
	s1, s2, gaps, err := splitPairs(batch)
	if err != nil {
		return StepResult{}, err
	}
	encs, err := t.model.Encode(s1, s2)
	if err != nil {
		return StepResult{}, err
	}
	return t.step(ctx, encs, gaps)
}

func (t *Trainer) step(ctx context.Context, encs []tokenize.Encoding, gaps []float64) (StepResult, error) {
	if len(encs) == 0 {
		return StepResult{}, fmt.Errorf("empty batch")
	}
	var rng *rand.Rand
	if t.net.dropout > 0 || t.net.encDropout > 0 {
		// One stream per step, so a resumed run draws the same masks.
		rng = rand.New(rand.NewSource(t.opts.Seed*1_000_003 + int64(t.opt.Step) + 1))
	}
	c, err := t.net.forward(ctx, padBatch(encs), rng)
	if err != nil {
		return StepResult{}, err
	}
	loss, dpred := mseLoss(c.pred, gaps)
	t.dev.Zero(nn.Values(t.grads.tensors()))
	if err := t.net.backward(ctx, c, dpred, t.grads); err != nil {
		return StepResult{}, err
	}
	t.opt.update(t.dev, t.net.p, t.grads)
	return StepResult{Loss: loss, Predictions: nn.Convert[float64](c.pred)}, nil
}

// Parameter returns a copy of the current value of a parameter by its
// checkpoint name (e.g. "bert.encoder.layer.0.attention.self.query.weight",
// "regression_layer.bias"), or nil if there is none.
func (t *Trainer) Parameter(name string) []float32 { return lookup(t.net.p, name) }

// Gradient returns a copy of a parameter's gradient from the last step, or
// nil if there is no such parameter.
func (t *Trainer) Gradient(name string) []float32 { return lookup(t.grads, name) }

// ParameterNames lists the parameters' checkpoint names in a fixed order.
func (t *Trainer) ParameterNames() []string {
	var names []string
	for _, nt := range t.net.p.tensors() {
		names = append(names, nt.Name)
	}
	return names
}

func lookup(p *params[float32], name string) []float32 {
	for _, nt := range p.tensors() {
		if nt.Name == name {
			return slices.Clone(nt.Data)
		}
	}
	return nil
}

// Epoch returns the number of completed epochs.
func (t *Trainer) Epoch() int { return t.epoch }

// History returns the results of the completed epochs.
func (t *Trainer) History() []EpochResult { return slices.Clone(t.history) }

// Model returns the model with the current weights.
func (t *Trainer) Model() (*vrank.Model, error) { return t.modelOf(t.net.p, true) }

// modelOf returns the model with the weights of p: a copy of them, or with
// share the slices of p themselves, for a model that is only saved before
// p changes again.
func (t *Trainer) modelOf(p *params[float32], copied bool) (*vrank.Model, error) {
	if copied {
		c := p.zeroLike()
		copyParams(c, p)
		p = c
	}
	return t.model.WithWeights(weightsOf(p))
}

// Train fine-tunes on the training pairs until the configured number of
// epochs is complete (continuing after the epochs a resumed trainer has
// done). Each epoch shuffles the (augmented) pairs with a seeded order,
// runs Step on every mini-batch, evaluates on the validation pairs (given,
// or split off the training pairs as Options says) and writes a
// checkpoint when CheckpointDir is set. Cancelling ctx stops it between
// layers; the last complete checkpoint stays valid.
func (t *Trainer) Train(ctx context.Context, train, validation []Pair) ([]EpochResult, error) {
	o := t.opts
	if len(train) == 0 {
		return nil, fmt.Errorf("no training pairs")
	}
	if _, _, _, err := splitPairs(train); err != nil {
		return nil, err
	}
	if validation == nil && o.ValidationFraction > 0 {
		train, validation = splitValidation(train, o.ValidationFraction, o.Seed)
	}
	examples := slices.Clone(train)
	if !o.NoAugment {
		for _, e := range train {
			examples = append(examples, Pair{Story1: e.Story2, Story2: e.Story1, Gap: -e.Gap})
		}
	}
	s1, s2, gaps, _ := splitPairs(examples)
	encs, err := t.model.Encode(s1, s2)
	if err != nil {
		return nil, err
	}
	var val *evalSet
	if len(validation) > 0 {
		if val, err = t.newEvalSet(validation); err != nil {
			return nil, err
		}
	}
	for t.epoch < o.Epochs {
		epoch := t.epoch + 1
		order := trainloop.Order(o.Seed, epoch, len(examples))
		start := time.Now()
		var lossSum float64
		batches := 0
		err := trainloop.Batches(order, o.BatchSize, func(idx []int, done int) error {
			r, err := t.step(ctx, trainloop.Gather(encs, idx), trainloop.Gather(gaps, idx))
			if err != nil {
				return err
			}
			lossSum += r.Loss
			batches++
			if o.Progress != nil {
				o.Progress(training.Progress{Epoch: epoch, Epochs: o.Epochs, Done: done, Total: len(order), Step: t.opt.Step,
					Loss: lossSum / float64(batches), ExamplesPerSecond: float64(done) / time.Since(start).Seconds()})
			}
			return nil
		})
		if err != nil {
			return t.History(), err
		}
		res := EpochResult{Epoch: epoch, TrainLoss: lossSum / float64(batches), ValidationLoss: math.NaN(), ValidationAccuracy: math.NaN()}
		if val != nil {
			if res.ValidationLoss, res.ValidationAccuracy, err = t.evaluate(ctx, val); err != nil {
				return t.History(), err
			}
		}
		t.epoch = epoch
		if err := trainloop.Record(&t.history, res, o.CheckpointDir, t.writeCheckpoint, setCheckpoint); err != nil {
			return t.History(), err
		}
		t.keepBest()
	}
	return t.History(), nil
}

func setCheckpoint(e *EpochResult, dir string) { e.Checkpoint = dir }

// splitValidation holds out a seeded random share of the pairs.
func splitValidation(pairs []Pair, fraction float64, seed int64) (train, val []Pair) {
	n := int(math.Round(fraction * float64(len(pairs))))
	if n == 0 || n >= len(pairs) {
		return pairs, nil
	}
	perm := rand.New(rand.NewSource(seed)).Perm(len(pairs))
	held := make([]bool, len(pairs))
	for _, i := range perm[:n] {
		held[i] = true
	}
	for i, p := range pairs {
		if held[i] {
			val = append(val, p)
		} else {
			train = append(train, p)
		}
	}
	return train, val
}

// splitTrainPairs checks the examples and splits them into columns.
func splitPairs(ex []Pair) (s1, s2 []string, gaps []float64, err error) {
	for i, e := range ex {
		if math.IsNaN(e.Gap) || math.IsInf(e.Gap, 0) {
			return nil, nil, nil, fmt.Errorf("pair %d: gap %v is not a finite number", i, e.Gap)
		}
		s1, s2, gaps = append(s1, e.Story1), append(s2, e.Story2), append(gaps, e.Gap)
	}
	return s1, s2, gaps, nil
}

// evalSet is a validation set, encoded once.
type evalSet struct {
	encs []tokenize.Encoding
	gaps []float64
}

func (t *Trainer) newEvalSet(ex []Pair) (*evalSet, error) {
	s1, s2, gaps, err := splitPairs(ex)
	if err != nil {
		return nil, fmt.Errorf("validation: %w", err)
	}
	encs, err := t.model.Encode(s1, s2)
	if err != nil {
		return nil, err
	}
	return &evalSet{encs: encs, gaps: gaps}, nil
}

// evalBatch is the number of validation pairs run through the network at
// once, vrank.Model.Predict's batch.
const evalBatch = 8

// evaluate returns the MSE and the share of pairs ranked correctly (a
// strict predicted order that agrees with the gold gap's sign).
func (t *Trainer) evaluate(ctx context.Context, s *evalSet) (loss, agreement float64, err error) {
	correct := 0
	for lo := 0; lo < len(s.encs); lo += evalBatch {
		hi := min(lo+evalBatch, len(s.encs))
		c, err := t.net.forward(ctx, padBatch(s.encs[lo:hi]), nil)
		if err != nil {
			return 0, 0, err
		}
		for j, p := range c.pred {
			g := s.gaps[lo+j]
			d := float64(p) - g
			loss += d * d
			if (p < 0 && g < 0) || (p > 0 && g > 0) {
				correct++
			}
		}
	}
	n := float64(len(s.encs))
	return loss / n, float64(correct) / n, nil
}

// SetProgress replaces the progress callback (e.g. of a resumed trainer).
func (t *Trainer) SetProgress(fn func(training.Progress)) { t.opts.Progress = fn }
