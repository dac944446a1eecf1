package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/storyeval/storyeval/rovist"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/internal/parallel"
	"github.com/storyeval/storyeval/internal/trainloop"
	"github.com/storyeval/storyeval/training"
)

// VGTrainOptions configures RoViST-VG training. The zero value is the
// original training script's configuration (usydnlp/rovist rovist_vg.py
// main(): Adam with lr 5e-5 and weight decay 1e-5, StepLR ×0.95 after each
// epoch, batches of 64 shuffled pairs, 50 epochs with early stopping after
// 10 epochs without a better validation loss, SymmetricLoss(gamma=1.0)).
type VGTrainOptions struct {
	Epochs       int     // 0: 50
	BatchSize    int     // 0: 64
	LearningRate float64 // 0: 5e-5
	LRDecay      float64 // per-epoch factor of the learning rate; 0: 0.95
	WeightDecay  float64 // Adam's L2 penalty; 0: 1e-5 (NoWeightDecay: none)
	// NoWeightDecay trains without weight decay.
	NoWeightDecay bool
	// EarlyStop stops after this many epochs without a lower validation
	// loss; 0: 10; negative: never.
	EarlyStop int
	// Temperature is τ's starting value; 0: 1.0.
	Temperature float64
	// LearnTemperature lets Adam update τ too. The original creates τ as a
	// Variable with requires_grad outside model.parameters(), so its
	// optimizer never updates it: τ stays at its starting value, the
	// default here.
	LearnTemperature bool
	// Seed seeds the shuffling of the pairs (and the heads' initialisation
	// when the starting checkpoint has none).
	Seed int64
	// CheckpointDir, when set, receives a checkpoint folder epoch-NNN after
	// every epoch (written atomically), loadable by LoadGroundingModel and
	// by ResumeVGTrainer.
	CheckpointDir string
	// Progress, when set, is called after every training batch.
	Progress func(training.Progress)
	// Backend runs every step — forward, backward and the Adam update of
	// the network's parameters — and the evaluation passes (nil: the
	// CPU). It must implement compute.TrainBackend; on a device the
	// weights, gradients and moments are copied back to the host after
	// each step (τ is updated on the host).
	Backend compute.Backend
}

// VGEpochResult is the outcome of one epoch.
type VGEpochResult struct {
	Epoch          int     // counted from 1
	TrainLoss      float64 // mean batch loss over the epoch
	ValidationLoss float64 // mean batch loss over the validation pairs (NaN: none)
	LearningRate   float64 // the learning rate the epoch trained with
	// Best reports that the validation loss is the lowest so far: the
	// epochs whose checkpoint the original script keeps
	// (r2p_model_epoch{epoch}.pth.tar).
	Best       bool
	Checkpoint string // the folder written, if any
}

func (o VGTrainOptions) withDefaults() VGTrainOptions {
	trainloop.Default(&o.Epochs, 50)
	trainloop.Default(&o.BatchSize, 64)
	trainloop.Default(&o.LearningRate, 5e-5)
	trainloop.Default(&o.LRDecay, 0.95)
	trainloop.Default(&o.WeightDecay, 1e-5)
	if o.NoWeightDecay {
		o.WeightDecay = 0
	}
	trainloop.Default(&o.EarlyStop, 10)
	trainloop.Default(&o.Temperature, 1)
	return o
}

func (o VGTrainOptions) validate() error {
	bad := func(what string, v any) error { return fmt.Errorf("vg training: invalid %s %v", what, v) }
	switch {
	case o.Epochs < 0:
		return bad("Epochs", o.Epochs)
	case o.BatchSize < 1:
		return bad("BatchSize", o.BatchSize)
	case !(o.LearningRate > 0) || math.IsInf(o.LearningRate, 0):
		return bad("LearningRate", o.LearningRate)
	case !(o.LRDecay > 0) || o.LRDecay > 1:
		return bad("LRDecay", o.LRDecay)
	case !(o.WeightDecay >= 0) || math.IsInf(o.WeightDecay, 0):
		return bad("WeightDecay", o.WeightDecay)
	case math.IsNaN(o.Temperature) || math.IsInf(o.Temperature, 0):
		return bad("Temperature", o.Temperature)
	}
	return nil
}

// VGTrainer trains RoViST-VG's region-to-phrase model (usydnlp/rovist
// rovist_vg.py Region2PhraseModel with SymmetricLoss and Adam) in float32.
// It is not safe for concurrent use.
type VGTrainer struct {
	opts      VGTrainOptions
	geom      vgGeometry
	vitConfig []byte // config.json as read, written into checkpoints
	procJSON  []byte // preprocessor_config.json as read ("" for the defaults)
	vitCfg    encoders.ViTConfig
	pcfg      imageproc.ProcessorConfig // the image processing procJSON gives
	proc      *imageproc.Processor
	dev       nn.Device
	net       *vgNetwork[float32]
	grads     *vgParams[float32]
	m, v      []nn.Param[float32] // Adam's moments, zeros like the parameter walk
	opt       nn.Adam
	tau       float64
	dTau      float64
	tauM      float64 // Adam's moments of τ (LearnTemperature)
	tauV      float64
	epoch     int // epochs completed
	history   []VGEpochResult
	best      float64 // lowest validation loss so far
	sinceBest int
}

// NewVGTrainer starts training from a checkpoint: the released
// r2p_model_epoch2.pth.tar (or any Region2PhraseModel state_dict, with or
// without the "model." level of the saved dict), or a ViT checkpoint
// (a HF ViTModel's model.safetensors or pytorch_model.bin), in which case
// the two heads start as torch.nn.Linear initialises them, seeded by
// opts.Seed. vitDir holds the ViT's config.json and, optionally, its
// preprocessor_config.json; to continue an interrupted run use
// ResumeVGTrainer.
func NewVGTrainer(checkpointPath, vitDir string, opts VGTrainOptions) (*VGTrainer, error) {
	opts = opts.withDefaults()
	if err := opts.validate(); err != nil {
		return nil, err
	}
	cfgData, err := readSmallFile(filepath.Join(vitDir, "config.json"))
	if err != nil {
		return nil, fmt.Errorf("vg training: %w", err)
	}
	var cfg encoders.ViTConfig
	if err := encoders.LoadConfig(vitDir, &cfg); err != nil {
		return nil, fmt.Errorf("vg training: %w", err)
	}
	procJSON, err := readSmallFile(filepath.Join(vitDir, "preprocessor_config.json"))
	var pcfg imageproc.ProcessorConfig
	switch {
	case errors.Is(err, fs.ErrNotExist):
		procJSON = nil
		pcfg, err = imageproc.DefaultConfig(imageproc.ViT)
	case err == nil:
		pcfg, err = imageproc.ParseProcessorConfig(procJSON)
	}
	if err != nil {
		return nil, fmt.Errorf("vg training: %w", err)
	}
	if pcfg.Kind != imageproc.ViT {
		return nil, fmt.Errorf("vg training: the image processor of %s is %v, want ViT", vitDir, pcfg.Kind)
	}
	proc, err := imageproc.NewProcessor(pcfg)
	if err != nil {
		return nil, fmt.Errorf("vg training: %w", err)
	}
	geom, err := vgGeometryOf(cfg)
	if err != nil {
		return nil, err
	}
	// The trainer applies no dropout: google/vit-base-patch16-224-in21k's
	// probabilities are 0, and a config asking for dropout is refused
	// rather than trained differently.
	var drop struct {
		Hidden    float64 `json:"hidden_dropout_prob"`
		Attention float64 `json:"attention_probs_dropout_prob"`
	}
	if err := json.Unmarshal(cfgData, &drop); err != nil {
		return nil, fmt.Errorf("vg training: %s: %w", filepath.Join(vitDir, "config.json"), err)
	}
	if drop.Hidden != 0 || drop.Attention != 0 {
		return nil, fmt.Errorf("vg training: %s asks for dropout (hidden %v, attention %v); the trainer supports the released ViT's 0", filepath.Join(vitDir, "config.json"), drop.Hidden, drop.Attention)
	}
	if pcfg.Size.Height != geom.imageSize || pcfg.Size.Width != geom.imageSize {
		return nil, fmt.Errorf("vg training: the processor resizes to %d×%d, the ViT takes %d×%d", pcfg.Size.Height, pcfg.Size.Width, geom.imageSize, geom.imageSize)
	}
	if _, err := os.Stat(checkpointPath); err != nil {
		return nil, fmt.Errorf("vg training: %w", err)
	}
	st, err := checkpoint.Open(checkpointPath)
	if err != nil {
		return nil, fmt.Errorf("vg training: %s: %w", checkpointPath, err)
	}
	defer st.Close()
	p := newVGParams[float32](geom)
	if err := loadVGParams(p, st, opts.Seed); err != nil {
		return nil, fmt.Errorf("vg training: %s: %w", checkpointPath, err)
	}
	dev, err := nn.NewDevice(opts.Backend)
	if err != nil {
		return nil, fmt.Errorf("vg training: %w", err)
	}
	t := &VGTrainer{
		opts: opts, geom: geom, vitConfig: cfgData, procJSON: procJSON, vitCfg: cfg, pcfg: pcfg, proc: proc, dev: dev,
		net:   &vgNetwork[float32]{p: p, heads: geom.heads, eps: geom.eps, buf: &nn.Arena[float32]{}, dev: &dev},
		grads: p.zeroLike(), m: nn.ZerosLike(p.tensors()), v: nn.ZerosLike(p.tensors()),
		opt:  nn.Adam{LR: opts.LearningRate, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, WeightDecay: opts.WeightDecay},
		tau:  opts.Temperature,
		best: math.Inf(1),
	}
	return t, nil
}

// vgGeometryOf checks a ViT configuration for training.
func vgGeometryOf(cfg encoders.ViTConfig) (vgGeometry, error) {
	g := vgGeometry{hidden: cfg.HiddenSize, layers: cfg.NumHiddenLayers, heads: cfg.NumAttentionHeads,
		intermediate: cfg.IntermediateSize, channels: cfg.NumChannels, patchSize: cfg.PatchSize,
		imageSize: cfg.ImageSize, eps: cfg.LayerNormEps, joint: 1024, wordDim: 300}
	if g.channels == 0 {
		g.channels = 3
	}
	if g.eps == 0 {
		g.eps = 1e-12
	}
	switch {
	case g.hidden <= 0 || g.layers < 0 || g.heads <= 0 || g.hidden%g.heads != 0 || g.intermediate <= 0:
		return g, fmt.Errorf("vg training: ViT config: hidden %d, %d layers, %d heads, intermediate %d", g.hidden, g.layers, g.heads, g.intermediate)
	case g.patchSize <= 0 || g.imageSize <= 0 || g.imageSize%g.patchSize != 0:
		return g, fmt.Errorf("vg training: ViT config: image size %d is not a multiple of the patch size %d", g.imageSize, g.patchSize)
	case cfg.HiddenAct != "" && cfg.HiddenAct != "gelu":
		return g, fmt.Errorf("vg training: ViT config: hidden_act %q, training supports the exact \"gelu\"", cfg.HiddenAct)
	case cfg.QKVBias != nil && !*cfg.QKVBias:
		return g, fmt.Errorf("vg training: ViT config: qkv_bias false is not supported")
	}
	return g, nil
}

// loadVGParams reads p from st: a Region2PhraseModel state_dict (at the
// root or under "model."), or a bare ViTModel (at the root or under
// "vit."), whose missing heads are initialised as torch.nn.Linear does
// (weights and biases uniform in ±1/√in), seeded.
func loadVGParams(p *vgParams[float32], st *checkpoint.State, seed int64) error {
	var vitRoot, headRoot *checkpoint.State
	for _, pre := range []string{"model." + vgViTPrefix, vgViTPrefix, "", "vit."} {
		if st.Has(pre + "embeddings.cls_token") {
			vitRoot = st.Sub(pre)
			if pre == "model."+vgViTPrefix {
				headRoot = st.Sub("model.")
			} else if pre == vgViTPrefix {
				headRoot = st
			}
			break
		}
	}
	if vitRoot == nil {
		return fmt.Errorf("no ViT tensors (embeddings.cls_token) under image_encoder.image_model., model.image_encoder.image_model., vit. or the root")
	}
	rng := rand.New(rand.NewSource(seed))
	for _, nt := range p.tensors() {
		src, name := vitRoot, strings.TrimPrefix(nt.Name, vgViTPrefix)
		if !strings.HasPrefix(nt.Name, vgViTPrefix) {
			src, name = headRoot, nt.Name
			if headRoot == nil || !headRoot.Has(name) {
				if headRoot != nil && (headRoot.Has(vgImageHeadPrefix+".weight") || headRoot.Has(vgTextHeadPrefix+".weight")) {
					return fmt.Errorf("the checkpoint has the heads but no %s", name)
				}
				// torch.nn.Linear.reset_parameters: kaiming_uniform(a=√5) on
				// the weight is uniform in ±1/√in, as is the bias.
				in := nt.Shape[len(nt.Shape)-1]
				if len(nt.Shape) == 1 {
					in = headInWidth(p, nt.Name)
				}
				bound := 1 / math.Sqrt(float64(in))
				for i := range nt.Data {
					nt.Data[i] = float32((2*rng.Float64() - 1) * bound)
				}
				continue
			}
		}
		info, ok := src.Info(name)
		if !ok {
			return fmt.Errorf("no tensor %s", name)
		}
		if !sameInts(info.Shape, nt.Shape) {
			return fmt.Errorf("%s has shape %v, the configuration wants %v", name, info.Shape, nt.Shape)
		}
		if err := src.ReadFloat32(name, nt.Data); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for i, v := range nt.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("%s holds a non-finite value at %d", name, i)
			}
		}
	}
	return nil
}

func headInWidth(p *vgParams[float32], name string) int {
	if name == vgImageHeadPrefix+".bias" {
		return p.img.In
	}
	return p.txt.In
}

// sameInts reports whether two tensor shapes are equal.
func sameInts(a, b []int) bool { return slices.Equal(a, b) }

// Temperature returns τ.
func (t *VGTrainer) Temperature() float64 { return t.tau }

// Epoch returns the number of epochs completed.
func (t *VGTrainer) Epoch() int { return t.epoch }

// History returns the results of the epochs completed so far.
func (t *VGTrainer) History() []VGEpochResult { return append([]VGEpochResult(nil), t.history...) }

// VGStepResult is the outcome of one training step.
type VGStepResult struct {
	Loss float64
}

// Step trains on one batch: the symmetric loss of its pairs, its
// gradients, and one Adam update (τ too with LearnTemperature).
func (t *VGTrainer) Step(ctx context.Context, batch []rovist.VGExample) (VGStepResult, error) {
	loss, err := t.lossAndGradients(ctx, batch, true)
	if err != nil {
		return VGStepResult{}, err
	}
	t.update()
	return VGStepResult{Loss: loss}, nil
}

// Loss returns the symmetric loss of a batch without training (the
// validation loss of the original's model.eval() pass).
func (t *VGTrainer) Loss(ctx context.Context, batch []rovist.VGExample) (float64, error) {
	return t.lossAndGradients(ctx, batch, false)
}

// pixels decodes and preprocesses the crops of a batch, in parallel.
func (t *VGTrainer) pixels(batch []rovist.VGExample) ([][]float32, error) {
	pix := make([][]float32, len(batch))
	err := parallel.Each(len(batch), 1, func(i int) error {
		if batch[i].Crop.Load == nil {
			return fmt.Errorf("vg training: example %d has no crop", i)
		}
		img, err := batch[i].Crop.Load()
		if err != nil {
			return fmt.Errorf("vg training: crop %s: %w", batch[i].Crop.Key, err)
		}
		pv, err := t.proc.Preprocess(img, nil)
		if err != nil {
			return fmt.Errorf("vg training: crop %s: %w", batch[i].Crop.Key, err)
		}
		pix[i] = pv.Data
		return nil
	})
	return pix, err
}

// lossAndGradients runs the forward pass and the loss on a batch and, with
// grad, the backward pass, leaving the gradients in t.grads and t.dTau.
func (t *VGTrainer) lossAndGradients(ctx context.Context, batch []rovist.VGExample, grad bool) (float64, error) {
	if len(batch) == 0 {
		return 0, fmt.Errorf("vg training: empty batch")
	}
	W := t.geom.wordDim
	words := make([]float32, len(batch)*W)
	for i, ex := range batch {
		if len(ex.Vector) != W {
			return 0, fmt.Errorf("vg training: example %d has a %d-d word vector, the model takes %d", i, len(ex.Vector), W)
		}
		copy(words[i*W:], ex.Vector)
	}
	pix, err := t.pixels(batch)
	if err != nil {
		return 0, err
	}
	return t.lossAndGradientsOf(ctx, pix, words, grad)
}

// lossAndGradientsOf is lossAndGradients on preprocessed pixels and word
// vectors.
func (t *VGTrainer) lossAndGradientsOf(ctx context.Context, pix [][]float32, words []float32, grad bool) (float64, error) {
	c, err := t.net.forward(ctx, pix, words)
	if err != nil {
		return 0, err
	}
	n, E := len(pix), t.geom.joint
	dImg, dTxt := make([]float32, n*E), make([]float32, n*E)
	loss, dTau := compute.SymmetricContrastiveLossHost(c.img, c.txt, n, E, t.tau, dImg, dTxt)
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return 0, fmt.Errorf("vg training: the loss is %v", loss)
	}
	if !grad {
		return loss, nil
	}
	t.dev.Zero(nn.Values(t.grads.tensors()))
	if err := t.net.backward(ctx, c, dImg, dTxt, t.grads); err != nil {
		return 0, err
	}
	t.dTau = dTau
	return loss, nil
}

// update applies Adam to the parameters on the trainer's device (and to τ,
// a host scalar, with LearnTemperature: the same step of the same
// optimiser).
func (t *VGTrainer) update() {
	// The lists come from one parameter layout: AdamStep's checks hold.
	_ = t.dev.AdamStep(&t.opt, nn.Values(t.net.p.tensors()), nn.Values(t.grads.tensors()), nn.Values(t.m), nn.Values(t.v))
	if t.opts.LearnTemperature {
		tau, g := []float32{float32(t.tau)}, []float32{float32(t.dTau)}
		m, v := []float32{float32(t.tauM)}, []float32{float32(t.tauV)}
		compute.AdamHost(tau, g, m, v, t.opt.Hyper())
		t.tau, t.tauM, t.tauV = float64(tau[0]), float64(m[0]), float64(v[0])
	}
}

// Train trains for the remaining epochs of opts.Epochs: each epoch shuffles
// the training examples (seeded), steps through batches of BatchSize (the
// last one smaller, as torch's DataLoader), then computes the validation
// loss (mean batch loss over valid in order; NaN without valid), writes a
// checkpoint when CheckpointDir is set, and multiplies the learning rate by
// LRDecay. It stops early after EarlyStop epochs without a lower validation
// loss, or when ctx is cancelled (returning the epochs completed and the
// context's error).
func (t *VGTrainer) Train(ctx context.Context, train, valid []rovist.VGExample) ([]VGEpochResult, error) {
	if len(train) == 0 {
		return nil, fmt.Errorf("vg training: no training examples")
	}
	var done []VGEpochResult
	for t.epoch < t.opts.Epochs {
		if t.opts.EarlyStop > 0 && t.sinceBest >= t.opts.EarlyStop {
			break
		}
		epoch := t.epoch
		lr := t.opts.LearningRate * math.Pow(t.opts.LRDecay, float64(epoch))
		t.opt.LR = lr
		order := rand.New(rand.NewSource(t.opts.Seed*1_000_003 + int64(epoch))).Perm(len(train))
		var sum float64
		batches := 0
		err := trainloop.Batches(order, t.opts.BatchSize, func(idx []int, n int) error {
			r, err := t.Step(ctx, trainloop.Gather(train, idx))
			if err != nil {
				return err
			}
			sum += r.Loss
			batches++
			if t.opts.Progress != nil {
				t.opts.Progress(training.Progress{Epoch: epoch + 1, Epochs: t.opts.Epochs, Done: n, Total: len(order), Step: t.opt.Step, Loss: sum / float64(batches)})
			}
			return nil
		})
		if err != nil {
			return done, err
		}
		res := VGEpochResult{Epoch: epoch + 1, TrainLoss: sum / float64(batches), ValidationLoss: math.NaN(), LearningRate: lr}
		if len(valid) > 0 {
			vl, err := t.ValidationLoss(ctx, valid)
			if err != nil {
				return done, err
			}
			res.ValidationLoss = vl
			res.Best = trainloop.Improved(&t.best, &t.sinceBest, vl)
		}
		t.epoch++
		if err := trainloop.Record(&t.history, res, t.opts.CheckpointDir, t.writeCheckpoint, setVGCheckpoint); err != nil {
			return done, err
		}
		done = append(done, t.history[len(t.history)-1])
	}
	return done, nil
}

func setVGCheckpoint(e *VGEpochResult, dir string) { e.Checkpoint = dir }

// ValidationLoss returns the mean batch loss over examples in their order,
// in batches of BatchSize, as the original's validation pass.
func (t *VGTrainer) ValidationLoss(ctx context.Context, examples []rovist.VGExample) (float64, error) {
	if len(examples) == 0 {
		return math.NaN(), nil
	}
	var sum float64
	n := 0
	for lo := 0; lo < len(examples); lo += t.opts.BatchSize {
		l, err := t.Loss(ctx, examples[lo:min(lo+t.opts.BatchSize, len(examples))])
		if err != nil {
			return 0, err
		}
		sum += l
		n++
	}
	return sum / float64(n), nil
}

// SetProgress replaces the progress callback (a resumed trainer gets the
// one of the options it was resumed with).
func (t *VGTrainer) SetProgress(fn func(training.Progress)) { t.opts.Progress = fn }
