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

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/trainloop"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/story"
	"github.com/storyeval/storyeval/training"
	"github.com/storyeval/storyeval/vrank"
)

// PretrainOptions configures Vrank's domain pre-training: masked-language
// modelling on story texts, which the Vrank paper (§4) runs on the SIND
// references before fine-tuning. The paper gives no hyperparameters; the
// zero value takes transformers' run_mlm.py defaults (3 epochs, batch 8,
// learning rate 5e-5, 15 % masking, 5 % of the texts held out for
// validation) with torch's Adam at a constant learning rate and BERT's
// dropout 0.1 in train mode.
type PretrainOptions struct {
	// Epochs is the number of epochs to train (0: 3).
	Epochs int
	// BatchSize is the number of texts per Adam step (0: 8).
	BatchSize int
	// LearningRate is Adam's learning rate (0: 5e-5).
	LearningRate float64
	// MaskProbability is the share of the non-special tokens selected for
	// the loss (0: 0.15).
	MaskProbability float64
	// MaxLength bounds an encoded text, [CLS] and [SEP] included; longer
	// texts are truncated at the end (0: max_position_embeddings).
	MaxLength int
	// Dropout is the encoder's dropout during training (embeddings,
	// attention probabilities, attention and feed-forward outputs, as
	// BertModel in train mode; 0: 0.1, BERT's hidden_dropout_prob and
	// attention_probs_dropout_prob; NoDropout turns it off).
	Dropout   float64
	NoDropout bool
	// Seed seeds the validation split, the shuffling, the masking, the
	// dropout masks and a new head.
	Seed int64
	// ValidationFraction is the share of the texts held out for validation
	// when Train is given none (0: 0.05; negative: none).
	ValidationFraction float64
	// CheckpointDir, when set, receives a checkpoint folder after every
	// epoch (see ResumePretrainer).
	CheckpointDir string
	// Progress, when set, is called after every training step.
	Progress func(training.Progress)
	// Backend runs every step — forward, backward and the Adam update —
	// and the evaluation passes (nil: the CPU). It must implement
	// compute.TrainBackend; on a device the weights, gradients and moments
	// are copied back to the host after each step.
	Backend compute.Backend
}

// PretrainEpoch is the outcome of one pre-training epoch.
type PretrainEpoch struct {
	Epoch int
	// TrainLoss is the mean masked-LM cross-entropy of the epoch's steps
	// (each before its update).
	TrainLoss float64
	// ValidationLoss and ValidationAccuracy are the cross-entropy and the
	// share of selected tokens predicted exactly, on the validation texts
	// masked with a fixed seed and without dropout; NaN without validation
	// texts.
	ValidationLoss, ValidationAccuracy float64
	// Checkpoint is the epoch's checkpoint folder, if one was written.
	Checkpoint string
}

// PretrainStep is the outcome of one pre-training step.
type PretrainStep struct {
	// Loss is the batch's mean cross-entropy over its selected tokens,
	// before the update; Selected is their number (0: the batch had no
	// token to select and no update was made).
	Loss     float64
	Selected int
}

func (o PretrainOptions) withDefaults() (PretrainOptions, error) {
	if o.Epochs < 0 || o.BatchSize < 0 || o.LearningRate < 0 || o.MaxLength < 0 || o.MaskProbability < 0 || o.MaskProbability >= 1 ||
		o.Dropout < 0 || o.Dropout >= 1 || o.ValidationFraction >= 1 || math.IsNaN(o.LearningRate) || math.IsNaN(o.MaskProbability) ||
		math.IsNaN(o.Dropout) || math.IsNaN(o.ValidationFraction) {
		return o, fmt.Errorf("invalid pre-training options %+v", o)
	}
	trainloop.Default(&o.Epochs, 3)
	trainloop.Default(&o.BatchSize, 8)
	trainloop.Default(&o.LearningRate, 5e-5)
	trainloop.Default(&o.MaskProbability, 0.15)
	trainloop.Default(&o.Dropout, 0.1)
	if o.NoDropout {
		o.Dropout = 0
	}
	trainloop.Default(&o.ValidationFraction, 0.05)
	return o, nil
}

// Pretrainer trains a BERT encoder with BERT's masked-language-model head
// (BertOnlyMLMHead, decoder tied to the word embeddings) on texts, and
// writes an encoder folder that vrank.NewFromEncoder (storyeval vrank train
// -encoder) starts from. Gradients come from hand-written backward passes
// (encoders/nn). A Pretrainer is not safe for concurrent use.
type Pretrainer struct {
	cfg      vrank.Config
	conf     []byte // config.json of the encoder folder
	tok      *tokenize.BERT
	tokFiles map[string][]byte
	sp       mlmSpecial
	opts     PretrainOptions
	dev      nn.Device
	net      *network[float32]
	head     *mlmHead[float32]
	grads    *params[float32]
	gHead    *mlmHead[float32]
	m, v     []nn.Param[float32] // Adam's moments, zeros like the trainable walk
	adam     nn.Adam
	epoch    int
	history  []PretrainEpoch
}

// NewPretrainer starts pre-training from a BERT folder (config.json, the
// WordPiece vocab.txt and weights: a BertModel, e.g.
// princeton-nlp/sup-simcse-bert-base-uncased, or a BertForMaskedLM whose
// cls.predictions head is then continued; without one the head is
// initialised as transformers does, from opts.Seed).
func NewPretrainer(encoderDir string, opts PretrainOptions) (*Pretrainer, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	confPath := filepath.Join(encoderDir, "config.json")
	conf, err := readSmall(confPath)
	if err != nil {
		return nil, fmt.Errorf("pre-training: %w", err)
	}
	if conf, err = encoderConfigJSON(conf); err != nil {
		return nil, fmt.Errorf("pre-training: %s: %w", confPath, err)
	}
	st, err := checkpoint.OpenDir(encoderDir)
	if err != nil {
		return nil, fmt.Errorf("pre-training: %s has no readable weights: %w", encoderDir, err)
	}
	defer st.Close()
	var cfg vrank.Config
	if st.Has(bertPrefix+nn.BERTPooler+".weight") || st.Has(nn.BERTPooler+".weight") {
		cfg.Feature = vrank.FeaturePooler
	}
	// The encoder as a Vrank model: its regression head is never trained
	// nor saved here.
	m, err := vrank.NewFromEncoder(encoderDir, cfg, o.Seed)
	if err != nil {
		return nil, fmt.Errorf("pre-training: %w", err)
	}
	cfg = m.Config()
	p, err := paramsOf(cfg, m.Weights())
	if err != nil {
		return nil, fmt.Errorf("pre-training: %s: %w", encoderDir, err)
	}
	head := newMLMHead[float32](cfg.BERT.HiddenSize, cfg.BERT.VocabSize)
	if st.Has(mlmBiasName) {
		for _, t := range head.tensors() {
			info, ok := st.Info(t.Name)
			if !ok || !slices.Equal(info.Shape, t.Shape) {
				return nil, fmt.Errorf("pre-training: %s: the masked-LM head needs %q of shape %v", encoderDir, t.Name, t.Shape)
			}
			if err := st.ReadFloat32(t.Name, t.Data); err != nil {
				return nil, fmt.Errorf("pre-training: %s: %w", encoderDir, err)
			}
		}
	} else {
		head.initRandom(rand.New(rand.NewSource(o.Seed)).NormFloat64, 0.02)
	}
	return newPretrainer(cfg, conf, m.Tokenizer(), m.TokenizerFiles(), p, head, o)
}

// NewRandomPretrainer starts pre-training from random weights (BERT's
// initialisation, vrank.NewRandom's from opts.Seed; the masked-LM head from
// a stream of its own, seeded with opts.Seed + 1) for a configuration, with
// the tokenizer of vocabDir; for training small encoders from scratch and
// for tests.
func NewRandomPretrainer(cfg encoders.BERTConfig, vocabDir string, opts PretrainOptions) (*Pretrainer, error) {
	if cfg.HiddenAct == "" {
		cfg.HiddenAct = "gelu"
	}
	if cfg.LayerNormEps == 0 {
		cfg.LayerNormEps = 1e-12
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	m, err := vrank.NewRandom(vrank.Config{BERT: cfg, Feature: vrank.FeaturePooler}, vocabDir, o.Seed)
	if err != nil {
		return nil, fmt.Errorf("pre-training: %w", err)
	}
	p, err := paramsOf(m.Config(), m.Weights())
	if err != nil {
		return nil, err
	}
	head := newMLMHead[float32](cfg.HiddenSize, cfg.VocabSize)
	head.initRandom(rand.New(rand.NewSource(o.Seed+1)).NormFloat64, 0.02)
	data, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	conf, err := encoderConfigJSON(data)
	if err != nil {
		return nil, err
	}
	return newPretrainer(m.Config(), conf, m.Tokenizer(), m.TokenizerFiles(), p, head, o)
}

// readSmall reads a file of at most 1 MiB (a config.json).
func readSmall(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > 1<<20 {
		return nil, fmt.Errorf("%s: %d bytes is larger than the 1 MiB limit", path, st.Size())
	}
	return os.ReadFile(path)
}

// encoderConfigJSON turns a BertConfig's config.json into the encoder
// folder's: every member kept but a Vrank head, the architecture
// BertForMaskedLM.
func encoderConfigJSON(data []byte) ([]byte, error) {
	m := map[string]any{}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	delete(m, "vrank_head")
	m["architectures"] = []string{"BertForMaskedLM"}
	m["model_type"] = "bert"
	return json.MarshalIndent(m, "", "  ")
}

func newPretrainer(cfg vrank.Config, conf []byte, tok *tokenize.BERT, files map[string][]byte, p *params[float32], head *mlmHead[float32], o PretrainOptions) (*Pretrainer, error) {
	if tok.VocabSize() > cfg.BERT.VocabSize {
		return nil, fmt.Errorf("pre-training: the vocabulary has %d tokens, more than vocab_size %d", tok.VocabSize(), cfg.BERT.VocabSize)
	}
	var sp mlmSpecial
	for _, s := range []struct {
		tok string
		id  *int
	}{{"[MASK]", &sp.mask}, {"[CLS]", &sp.cls}, {"[SEP]", &sp.sep}, {"[PAD]", &sp.pad}} {
		id, ok := tok.TokenID(s.tok)
		if !ok {
			return nil, fmt.Errorf("pre-training: the vocabulary has no %s token", s.tok)
		}
		*s.id = id
	}
	sp.vocab = tok.VocabSize()
	dev, err := nn.NewDevice(o.Backend)
	if err != nil {
		return nil, fmt.Errorf("pre-training: %w", err)
	}
	b := cfg.BERT
	t := &Pretrainer{cfg: cfg, conf: conf, tok: tok, tokFiles: files, sp: sp, opts: o, dev: dev,
		net: &network[float32]{p: p, H: b.HiddenSize, I: b.IntermediateSize, heads: b.NumAttentionHeads, eps: b.LayerNormEps, encDropout: o.Dropout, allRows: true,
			buf: &nn.Arena[float32]{}, dev: &dev},
		head: head, grads: p.zeroLike(), gHead: head.zeroLike(),
		adam: nn.Adam{LR: o.LearningRate, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8},
	}
	ts := t.trainable(t.net.p, t.head)
	t.m, t.v = nn.ZerosLike(ts), nn.ZerosLike(ts)
	return t, nil
}

// trainable lists the tensors the masked-LM loss reaches, with their
// checkpoint names: the encoder (not its pooler, nor the regression head
// every params value carries) and the MLM head.
func (t *Pretrainer) trainable(p *params[float32], h *mlmHead[float32]) []nn.Param[float32] {
	var out []nn.Param[float32]
	for _, nt := range p.encoderTensors() {
		if !strings.HasPrefix(nt.Name, bertPrefix+nn.BERTPooler+".") {
			out = append(out, nt)
		}
	}
	return append(out, h.tensors()...)
}

// encodeTexts encodes texts as [CLS] text [SEP], truncated at MaxLength.
func (t *Pretrainer) encodeTexts(texts []string, what string) ([]tokenize.Encoding, error) {
	maxLen := t.opts.MaxLength
	if maxLen == 0 || maxLen > t.cfg.BERT.MaxPositionEmbeddings {
		maxLen = t.cfg.BERT.MaxPositionEmbeddings
	}
	encs := make([]tokenize.Encoding, len(texts))
	for i, s := range texts {
		if strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("pre-training: %s text %d is empty", what, i)
		}
		e, err := t.tok.EncodeWith(s, tokenize.Options{Truncation: tokenize.LongestFirst, MaxLength: maxLen})
		if err != nil {
			return nil, fmt.Errorf("pre-training: %s text %d: %w", what, i, err)
		}
		encs[i] = e
	}
	return encs, nil
}

// Step runs one pre-training step on texts, exactly as Train does for each
// of its mini-batches: masking (drawn from the seed and the step count),
// forward pass with dropout, cross-entropy on the selected tokens, backward
// pass, one Adam update.
func (t *Pretrainer) Step(ctx context.Context, texts []string) (PretrainStep, error) {
	encs, err := t.encodeTexts(texts, "training")
	if err != nil {
		return PretrainStep{}, err
	}
	return t.step(ctx, encs)
}

func (t *Pretrainer) step(ctx context.Context, encs []tokenize.Encoding) (PretrainStep, error) {
	if len(encs) == 0 {
		return PretrainStep{}, fmt.Errorf("pre-training: empty batch")
	}
	// One stream per step for the masks and the dropout, so that a resumed
	// run draws the same ones.
	rng := rand.New(rand.NewSource(t.opts.Seed*1_000_003 + int64(t.adam.Step) + 1))
	mb := maskBatch(encs, t.sp, t.opts.MaskProbability, rng)
	if len(mb.rows) == 0 {
		return PretrainStep{}, nil
	}
	var drop *rand.Rand
	if t.net.encDropout > 0 {
		drop = rng
	}
	c, hc, dlogits, loss, _, err := mlmForward(ctx, t.net, t.head, mb, drop)
	if err != nil {
		return PretrainStep{}, err
	}
	t.dev.Zero(nn.Values(t.trainable(t.grads, t.gHead)))
	if err := mlmBackward(ctx, t.net, t.head, c, hc, mb, dlogits, t.grads, t.gHead); err != nil {
		return PretrainStep{}, err
	}
	err = t.dev.AdamStep(&t.adam, nn.Values(t.trainable(t.net.p, t.head)), nn.Values(t.trainable(t.grads, t.gHead)), nn.Values(t.m), nn.Values(t.v))
	if err != nil {
		return PretrainStep{}, err
	}
	return PretrainStep{Loss: loss, Selected: len(mb.rows)}, nil
}

// Train pre-trains on the texts until the configured number of epochs is
// complete (continuing after the epochs a resumed pre-trainer has done).
// Each epoch shuffles the texts with a seeded order, runs Step on every
// mini-batch (fresh masks every step, as transformers' collator draws
// them), evaluates on the validation texts (given, or a seeded share of
// the training texts) and writes a checkpoint when CheckpointDir is set.
// Cancelling ctx stops it between layers; the last complete checkpoint
// stays valid.
func (t *Pretrainer) Train(ctx context.Context, train, validation []string) ([]PretrainEpoch, error) {
	o := t.opts
	if len(train) == 0 {
		return nil, fmt.Errorf("pre-training: no training texts")
	}
	if validation == nil && o.ValidationFraction > 0 {
		train, validation = splitTexts(train, o.ValidationFraction, o.Seed)
	}
	encs, err := t.encodeTexts(train, "training")
	if err != nil {
		return nil, err
	}
	valEncs, err := t.encodeTexts(validation, "validation")
	if err != nil {
		return nil, err
	}
	for t.epoch < o.Epochs {
		epoch := t.epoch + 1
		order := trainloop.Order(o.Seed, epoch, len(encs))
		var lossSum float64
		batches := 0
		err := trainloop.Batches(order, o.BatchSize, func(idx []int, done int) error {
			r, err := t.step(ctx, trainloop.Gather(encs, idx))
			if err != nil {
				return err
			}
			if r.Selected > 0 {
				lossSum += r.Loss
				batches++
			}
			if o.Progress != nil {
				o.Progress(training.Progress{Epoch: epoch, Epochs: o.Epochs, Done: done, Total: len(order), Step: t.adam.Step,
					Loss: lossSum / float64(max(batches, 1))})
			}
			return nil
		})
		if err != nil {
			return t.History(), err
		}
		res := PretrainEpoch{Epoch: epoch, TrainLoss: math.NaN(), ValidationLoss: math.NaN(), ValidationAccuracy: math.NaN()}
		if batches > 0 {
			res.TrainLoss = lossSum / float64(batches)
		}
		if len(valEncs) > 0 {
			if res.ValidationLoss, res.ValidationAccuracy, err = t.evaluate(ctx, valEncs); err != nil {
				return t.History(), err
			}
		}
		t.epoch = epoch
		if err := trainloop.Record(&t.history, res, o.CheckpointDir, t.writeCheckpoint, setPretrainCheckpoint); err != nil {
			return t.History(), err
		}
	}
	return t.History(), nil
}

func setPretrainCheckpoint(e *PretrainEpoch, dir string) { e.Checkpoint = dir }

// Evaluate returns the masked-LM loss and the share of selected tokens
// predicted exactly on texts, masked with a fixed seed and without dropout.
func (t *Pretrainer) Evaluate(ctx context.Context, texts []string) (loss, accuracy float64, err error) {
	encs, err := t.encodeTexts(texts, "evaluation")
	if err != nil {
		return 0, 0, err
	}
	if len(encs) == 0 {
		return 0, 0, fmt.Errorf("pre-training: no texts to evaluate")
	}
	return t.evaluate(ctx, encs)
}

func (t *Pretrainer) evaluate(ctx context.Context, encs []tokenize.Encoding) (loss, accuracy float64, err error) {
	rng := rand.New(rand.NewSource(t.opts.Seed ^ 0x5eed))
	var sum float64
	selected, correct := 0, 0
	for lo := 0; lo < len(encs); lo += t.opts.BatchSize {
		mb := maskBatch(encs[lo:min(lo+t.opts.BatchSize, len(encs))], t.sp, t.opts.MaskProbability, rng)
		if len(mb.rows) == 0 {
			continue
		}
		_, _, _, l, c, err := mlmForward(ctx, t.net, t.head, mb, nil)
		if err != nil {
			return 0, 0, err
		}
		sum += l * float64(len(mb.rows))
		selected += len(mb.rows)
		correct += c
	}
	if selected == 0 {
		return math.NaN(), math.NaN(), nil
	}
	return sum / float64(selected), float64(correct) / float64(selected), nil
}

// splitTexts holds out a seeded random share of the texts.
func splitTexts(texts []string, fraction float64, seed int64) (train, val []string) {
	n := int(math.Round(fraction * float64(len(texts))))
	if n == 0 || n >= len(texts) {
		return texts, nil
	}
	held := make([]bool, len(texts))
	for _, i := range rand.New(rand.NewSource(seed)).Perm(len(texts))[:n] {
		held[i] = true
	}
	for i, s := range texts {
		if held[i] {
			val = append(val, s)
		} else {
			train = append(train, s)
		}
	}
	return train, val
}

// Epoch returns the number of completed epochs.
func (t *Pretrainer) Epoch() int { return t.epoch }

// History returns the results of the completed epochs.
func (t *Pretrainer) History() []PretrainEpoch { return slices.Clone(t.history) }

// SetProgress replaces the progress callback (e.g. of a resumed trainer).
func (t *Pretrainer) SetProgress(fn func(training.Progress)) { t.opts.Progress = fn }

// LoadCorpusTexts reads the story texts of a {id: story} JSON at path, in
// file order, for Pretrainer.Train; l bounds the file (zero: story's
// defaults). A file without stories, or an empty story, is an error naming
// it.
func LoadCorpusTexts(path string, l limits.Limits) ([]string, error) {
	set, err := story.LoadJSON(path, story.ReadOptions{Limits: l})
	if err != nil {
		return nil, err
	}
	if set.Len() == 0 {
		return nil, fmt.Errorf("%s: no stories", path)
	}
	for _, st := range set.Stories() {
		if len(st.Text) == 0 {
			return nil, fmt.Errorf("%s: story %q is empty", path, st.ID)
		}
	}
	return set.Texts(), nil
}
