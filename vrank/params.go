package vrank

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/internal/backprop"
)

// params holds every trainable parameter of the Vrank regressor: the BERT
// encoder, the optional pooler and the regression head. The same type holds
// gradients and Adam's moment estimates, so that all of them line up with
// the parameter list of tensors().
type params[T backprop.Float] struct {
	word, pos, typ []T
	embLN          backprop.Norm[T]
	layers         []backprop.EncoderLayer[T] // post-LN BERT layers
	pooler         *backprop.Linear[T]
	head           backprop.Linear[T]
}

// namedTensor is one parameter tensor under its checkpoint name.
type namedTensor[T backprop.Float] struct {
	name  string
	shape []int
	data  []T
}

// Checkpoint names of the regressor: HF BertModel names under "bert." and the
// head as "regression_layer", the layout of the fixture's model.safetensors.
const (
	bertPrefix = "bert."
	headName   = "regression_layer"
)

// tensors lists the parameters in a fixed order with their checkpoint names;
// the slices alias the parameters.
func (p *params[T]) tensors() []namedTensor[T] {
	var ts []namedTensor[T]
	add := backprop.TensorNamer[T](func(name string, data []T, shape ...int) {
		ts = append(ts, namedTensor[T]{name: name, shape: shape, data: data})
	})
	H := len(p.embLN.G)
	add(bertPrefix+"embeddings.word_embeddings.weight", p.word, len(p.word)/H, H)
	add(bertPrefix+"embeddings.position_embeddings.weight", p.pos, len(p.pos)/H, H)
	add(bertPrefix+"embeddings.token_type_embeddings.weight", p.typ, len(p.typ)/H, H)
	add.Norm(bertPrefix+"embeddings.LayerNorm", &p.embLN)
	for i := range p.layers {
		add.EncoderLayer(fmt.Sprintf("%sencoder.layer.%d.", bertPrefix, i), &p.layers[i], backprop.EncoderLayerNames{
			Query: "attention.self.query", Key: "attention.self.key", Value: "attention.self.value",
			AttnOut: "attention.output.dense", LN1: "attention.output.LayerNorm",
			FFNIn: "intermediate.dense", FFNOut: "output.dense", LN2: "output.LayerNorm",
		})
	}
	if p.pooler != nil {
		add.Linear(bertPrefix+"pooler.dense", p.pooler)
	}
	add.Linear(headName, &p.head)
	return ts
}

// newParams allocates zeroed parameters for a configuration.
func newParams[T backprop.Float](cfg encoders.BERTConfig, pooler bool) *params[T] {
	H, I := cfg.HiddenSize, cfg.IntermediateSize
	lin := backprop.NewLinear[T]
	p := &params[T]{
		word:  make([]T, cfg.VocabSize*H),
		pos:   make([]T, cfg.MaxPositionEmbeddings*H),
		typ:   make([]T, cfg.TypeVocabSize*H),
		embLN: backprop.NewNorm[T](H),
		head:  lin(1, H),
	}
	for i := 0; i < cfg.NumHiddenLayers; i++ {
		p.layers = append(p.layers, backprop.NewEncoderLayer[T](H, I))
	}
	if pooler {
		pl := lin(H, H)
		p.pooler = &pl
	}
	return p
}

// zeroLike returns zeroed parameters of the same shapes (gradients, moments).
func (p *params[T]) zeroLike() *params[T] {
	z := &params[T]{
		word: make([]T, len(p.word)), pos: make([]T, len(p.pos)), typ: make([]T, len(p.typ)),
		embLN: p.embLN.ZeroLike(), head: p.head.ZeroLike(),
	}
	for i := range p.layers {
		z.layers = append(z.layers, p.layers[i].ZeroLike())
	}
	if p.pooler != nil {
		pl := p.pooler.ZeroLike()
		z.pooler = &pl
	}
	return z
}

// initRandom fills the parameters as transformers' BertPreTrainedModel
// _init_weights does: normal(0, std) weights and embeddings, zero biases,
// LayerNorm gamma 1 and beta 0.
func (p *params[T]) initRandom(rng *rand.Rand, std float64) {
	for _, t := range p.tensors() {
		isNorm := len(t.shape) == 1 && (strings.HasSuffix(t.name, "LayerNorm.weight") || strings.HasSuffix(t.name, "LayerNorm.bias"))
		switch {
		case isNorm && strings.HasSuffix(t.name, ".weight"):
			fill(t.data, 1)
		case len(t.shape) == 1:
			fill(t.data, 0)
		default:
			for i := range t.data {
				t.data[i] = T(rng.NormFloat64() * std)
			}
		}
	}
}

func fill[T backprop.Float](x []T, v T) {
	for i := range x {
		x[i] = v
	}
}

// readParams reads every parameter from a checkpoint, checking shapes. Names
// are looked up as written by Save ("bert.…", "regression_layer.…"); a plain
// BertModel checkpoint without the "bert." prefix is accepted too.
func readParams(st *checkpoint.State, cfg encoders.BERTConfig, pooler bool) (*params[float32], error) {
	if err := checkSizes(st, cfg); err != nil {
		return nil, err
	}
	p := newParams[float32](cfg, pooler)
	prefixed := st.Has(bertPrefix + "embeddings.word_embeddings.weight")
	for _, t := range p.tensors() {
		name := t.name
		if !prefixed && len(name) > len(bertPrefix) && name[:len(bertPrefix)] == bertPrefix {
			name = name[len(bertPrefix):]
		}
		if !st.Has(name) {
			return nil, fmt.Errorf("checkpoint has no tensor %q", name)
		}
		info, _ := st.Info(name)
		if !sameShape(info.Shape, t.shape) {
			return nil, fmt.Errorf("tensor %q has shape %v, the configuration needs %v", name, info.Shape, t.shape)
		}
		if err := st.ReadFloat32(name, t.data); err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, err)
		}
	}
	return p, nil
}

// sameShape reports whether two tensor shapes are equal.
func sameShape(a, b []int) bool { return slices.Equal(a, b) }

// checkSizes compares the configuration's largest tensors with the
// checkpoint before anything is allocated, so that a config.json claiming
// huge sizes fails with an error instead of exhausting memory.
func checkSizes(st *checkpoint.State, cfg encoders.BERTConfig) error {
	prefix := ""
	if st.Has(bertPrefix + "embeddings.word_embeddings.weight") {
		prefix = bertPrefix
	}
	H, I, L := cfg.HiddenSize, cfg.IntermediateSize, cfg.NumHiddenLayers
	for _, c := range []struct {
		name  string
		shape []int
	}{
		{"embeddings.word_embeddings.weight", []int{cfg.VocabSize, H}},
		{"embeddings.position_embeddings.weight", []int{cfg.MaxPositionEmbeddings, H}},
		{"embeddings.token_type_embeddings.weight", []int{cfg.TypeVocabSize, H}},
		{fmt.Sprintf("encoder.layer.%d.intermediate.dense.weight", L-1), []int{I, H}},
	} {
		info, ok := st.Info(prefix + c.name)
		if !ok {
			return fmt.Errorf("checkpoint has no tensor %q", prefix+c.name)
		}
		if !sameShape(info.Shape, c.shape) {
			return fmt.Errorf("tensor %q has shape %v, config.json needs %v", prefix+c.name, info.Shape, c.shape)
		}
	}
	if name := fmt.Sprintf("%sencoder.layer.%d.intermediate.dense.weight", prefix, L); st.Has(name) {
		return fmt.Errorf("checkpoint has %q: more layers than num_hidden_layers = %d", name, L)
	}
	return nil
}
