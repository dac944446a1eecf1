package train

import (
	"fmt"
	"slices"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/vrank"
)

// params holds every trainable parameter of the Vrank regressor: the BERT
// encoder, the optional pooler and the regression head. The same type holds
// gradients and Adam's moment estimates, so that all of them line up with
// the parameter list of tensors().
type params[T nn.Float] struct {
	word, pos, typ []T
	embLN          nn.Norm[T]
	layers         []nn.EncoderLayer[T] // post-LN BERT layers
	pooler         *nn.Linear[T]
	head           nn.Linear[T]
}

// Checkpoint names of the regressor: HF BertModel names under "bert." and the
// head as "regression_layer", the layout of the fixture's model.safetensors.
const (
	bertPrefix = "bert."
	headName   = "regression_layer"
)

// tensors lists the parameters in a fixed order with their checkpoint names;
// the slices alias the parameters.
func (p *params[T]) tensors() []nn.Param[T] { return nn.Collect(p.walk) }

// walk lists the parameters under their checkpoint names in state_dict
// order: the one parameter walk that tensors, gradients, Adam's moments,
// checkpoints and the scorer's model are made from.
func (p *params[T]) walk(add nn.TensorNamer[T]) {
	H := len(p.embLN.G)
	add(bertPrefix+"embeddings.word_embeddings.weight", p.word, len(p.word)/H, H)
	add(bertPrefix+"embeddings.position_embeddings.weight", p.pos, len(p.pos)/H, H)
	add(bertPrefix+"embeddings.token_type_embeddings.weight", p.typ, len(p.typ)/H, H)
	add.Norm(bertPrefix+"embeddings.LayerNorm", &p.embLN)
	for i := range p.layers {
		add.EncoderLayer(fmt.Sprintf("%sencoder.layer.%d.", bertPrefix, i), &p.layers[i], nn.EncoderLayerNames{
			Query: "attention.self.query", Key: "attention.self.key", Value: "attention.self.value",
			AttnOut: "attention.output.dense", LN1: "attention.output.LayerNorm",
			FFNIn: "intermediate.dense", FFNOut: "output.dense", LN2: "output.LayerNorm",
		})
	}
	if p.pooler != nil {
		add.Linear(bertPrefix+"pooler.dense", p.pooler)
	}
	add.Linear(headName, &p.head)
}

// newParams allocates zeroed parameters for a configuration.
func newParams[T nn.Float](cfg encoders.BERTConfig, pooler bool) *params[T] {
	H, I := cfg.HiddenSize, cfg.IntermediateSize
	lin := nn.NewLinear[T]
	p := &params[T]{
		word:  make([]T, cfg.VocabSize*H),
		pos:   make([]T, cfg.MaxPositionEmbeddings*H),
		typ:   make([]T, cfg.TypeVocabSize*H),
		embLN: nn.NewNorm[T](H),
		head:  lin(1, H),
	}
	for i := 0; i < cfg.NumHiddenLayers; i++ {
		p.layers = append(p.layers, nn.NewEncoderLayer[T](H, I))
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

// paramsOf copies weights (vrank.Model.Weights) into parameters for a
// configuration, checking that every parameter is given with its shape.
func paramsOf(cfg vrank.Config, ws []checkpoint.Float32Tensor) (*params[float32], error) {
	byName := make(map[string]checkpoint.Float32Tensor, len(ws))
	for _, w := range ws {
		byName[w.Name] = w
	}
	p := newParams[float32](cfg.BERT, cfg.Feature == vrank.FeaturePooler)
	for _, t := range p.tensors() {
		w, ok := byName[t.Name]
		if !ok || !slices.Equal(w.Shape, t.Shape) || len(w.Data) != len(t.Data) {
			return nil, fmt.Errorf("the model has no weight %q of shape %v", t.Name, t.Shape)
		}
		copy(t.Data, w.Data)
	}
	return p, nil
}

// weightsOf lists the parameters as vrank.Model weights, sharing their
// slices.
func weightsOf(p *params[float32]) []checkpoint.Float32Tensor {
	var ws []checkpoint.Float32Tensor
	for _, t := range p.tensors() {
		ws = append(ws, checkpoint.Float32Tensor{Name: t.Name, Shape: t.Shape, Data: t.Data})
	}
	return ws
}
