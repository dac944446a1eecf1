package train

import (
	"fmt"
	"math"
	"math/rand"
	"strings"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
)

// sopParams holds every trainable parameter of the RoViST-C classifier:
// AlbertModel (nn.ALBERTParams, walked by nn.WalkALBERT: the factorised
// embeddings, the mapping E→H, the one layer group of one layer shared by
// all num_hidden_layers applications, the pooler) and the Linear(H, 2)
// head. The same type holds gradients and Adam's moments.
type sopParams[T nn.Float] struct {
	nn.ALBERTParams[T]
	head nn.Linear[T]
}

// State-dict names of the reference SOPClassifier (usydnlp/rovist
// scripts/rovist_c.py): AlbertModel under "albert_model.", the head as
// "linear".
const (
	sopEncoderPrefix = "albert_model."
	sopHeadName      = "linear"
)

// tensors lists the parameters in a fixed order with their state_dict
// names; the slices alias the parameters.
func (p *sopParams[T]) tensors() []nn.Param[T] { return nn.Collect(p.walk) }

// walk lists the parameters under their checkpoint names in state_dict
// order — ALBERT's walk, then the head —: the one parameter walk that
// tensors, gradients, Adam's moments, checkpoints and the scorer's model
// are made from.
func (p *sopParams[T]) walk(add nn.TensorNamer[T]) {
	p.Walk(nn.Lister[T]{Add: add}, sopEncoderPrefix)
	add.Linear(sopHeadName, &p.head)
}

// layer is the shared AlbertLayer (the one layer of the one group).
func (p *sopParams[T]) layer() *nn.EncoderLayer[T] { return &p.Layers[0] }

// newSOPParams allocates zeroed parameters for a configuration.
func newSOPParams[T nn.Float](cfg encoders.ALBERTConfig) *sopParams[T] {
	return newSOPParamsOf(*nn.NewALBERTParams[T](cfg.Shape(), true))
}

// newSOPParamsOf adds a zeroed head to an encoder's parameters.
func newSOPParamsOf[T nn.Float](albert nn.ALBERTParams[T]) *sopParams[T] {
	return &sopParams[T]{ALBERTParams: albert, head: nn.NewLinear[T](2, albert.Shape.Hidden)}
}

// zeroLike returns zeroed parameters of the same shapes.
func (p *sopParams[T]) zeroLike() *sopParams[T] { return newSOPParamsOf(*p.ZeroLike()) }

func copySOPParams[T nn.Float](dst, src *sopParams[T]) {
	ds, ss := dst.tensors(), src.tensors()
	for i := range ds {
		copy(ds[i].Data, ss[i].Data)
	}
}

// checkSOPConfig rejects ALBERT configurations the trainer does not
// implement: more than one layer group or layer per group (every released
// ALBERT has one of each), and a hidden_act that compute does not know
// (every activation it knows has a backward pass).
func checkSOPConfig(cfg encoders.ALBERTConfig) error {
	if cfg.NumHiddenGroups != 1 || cfg.InnerGroupNum != 1 {
		return fmt.Errorf("num_hidden_groups %d and inner_group_num %d: training supports one group of one shared layer", cfg.NumHiddenGroups, cfg.InnerGroupNum)
	}
	if _, err := compute.ActivationByName(cfg.HiddenAct); err != nil {
		return err
	}
	if cfg.EmbeddingSize <= 0 || cfg.HiddenSize <= 0 || cfg.IntermediateSize <= 0 || cfg.NumHiddenLayers <= 0 ||
		cfg.NumAttentionHeads <= 0 || cfg.HiddenSize%cfg.NumAttentionHeads != 0 || cfg.VocabSize <= 0 ||
		cfg.MaxPositionEmbeddings <= 0 || cfg.TypeVocabSize < 2 {
		return fmt.Errorf("invalid ALBERT configuration %+v", cfg)
	}
	return nil
}

// readSOPParams reads the classifier's parameters from a checkpoint in the
// reference layout (albert_model.*, linear.*; the whole torch.save dict
// with the state_dict under "model." is accepted), checking every shape
// against cfg. With newHead set, the head need not be in the checkpoint:
// it is initialised as torch's nn.Linear (uniform in ±1/√H) from newHead,
// and a plain AlbertModel checkpoint (names with or without "albert.")
// gives the encoder.
func readSOPParams(st *checkpoint.State, cfg encoders.ALBERTConfig, newHead *rand.Rand) (*sopParams[float32], error) {
	if !st.Has(sopHeadName+".weight") && st.Has("model."+sopHeadName+".weight") {
		st = st.Sub("model.")
	}
	encPrefix := ""
	switch {
	case st.Has(sopEncoderPrefix + nn.ALBERTWordEmbeddings):
		encPrefix = sopEncoderPrefix
	case st.Has("albert." + nn.ALBERTWordEmbeddings):
		encPrefix = "albert."
	case st.Has(nn.ALBERTWordEmbeddings):
	default:
		return nil, fmt.Errorf("the checkpoint has no ALBERT embeddings (albert_model.embeddings.word_embeddings.weight)")
	}
	// Compare the largest tensors' shapes before anything is allocated.
	for _, c := range []struct {
		name  string
		shape []int
	}{
		{nn.ALBERTWordEmbeddings, []int{cfg.VocabSize, cfg.EmbeddingSize}},
		{nn.ALBERTPositionEmbeddings, []int{cfg.MaxPositionEmbeddings, cfg.EmbeddingSize}},
		{nn.ALBERTLayerPrefix(0, 0) + nn.ALBERTLayerNames.FFNIn + ".weight", []int{cfg.IntermediateSize, cfg.HiddenSize}},
	} {
		info, ok := st.Info(encPrefix + c.name)
		if !ok {
			return nil, fmt.Errorf("the checkpoint has no tensor %q", encPrefix+c.name)
		}
		if !sameInts(info.Shape, c.shape) {
			return nil, fmt.Errorf("tensor %q has shape %v, config.json needs %v", encPrefix+c.name, info.Shape, c.shape)
		}
	}
	p := newSOPParams[float32](cfg)
	for _, t := range p.tensors() {
		name := t.Name
		isHead := strings.HasPrefix(name, sopHeadName+".")
		if isHead && newHead != nil {
			continue
		}
		if !isHead {
			name = encPrefix + strings.TrimPrefix(name, sopEncoderPrefix)
		}
		info, ok := st.Info(name)
		if !ok {
			return nil, fmt.Errorf("the checkpoint has no tensor %q", name)
		}
		if !sameInts(info.Shape, t.Shape) {
			return nil, fmt.Errorf("tensor %q has shape %v, the configuration needs %v", name, info.Shape, t.Shape)
		}
		if err := st.ReadFloat32(name, t.Data); err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, err)
		}
		for i, v := range t.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("tensor %q holds a non-finite value at %d", name, i)
			}
		}
	}
	if newHead != nil {
		bound := 1 / math.Sqrt(float64(cfg.HiddenSize))
		for i := range p.head.W {
			p.head.W[i] = float32((2*newHead.Float64() - 1) * bound)
		}
		for i := range p.head.B {
			p.head.B[i] = float32((2*newHead.Float64() - 1) * bound)
		}
	}
	return p, nil
}

// initSOPRandom fills the parameters as transformers' AlbertPreTrainedModel
// _init_weights does: normal(0, 0.02) weights and embeddings, zero biases,
// LayerNorm gamma 1 and beta 0.
func initSOPRandom[T nn.Float](p *sopParams[T], seed int64) {
	rng := rand.New(rand.NewSource(seed))
	for _, t := range p.tensors() {
		switch {
		case len(t.Shape) == 1 && strings.HasSuffix(t.Name, "LayerNorm.weight"), len(t.Shape) == 1 && strings.HasSuffix(t.Name, "layer_norm.weight"):
			for i := range t.Data {
				t.Data[i] = 1
			}
		case len(t.Shape) == 1:
			clear(t.Data)
		default:
			for i := range t.Data {
				t.Data[i] = T(rng.NormFloat64() * 0.02)
			}
		}
	}
}
