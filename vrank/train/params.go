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
// encoder with its optional pooler (nn.BERTParams, walked by nn.WalkBERT)
// and the regression head. The same type holds gradients and Adam's moment
// estimates, so that all of them line up with the parameter list of
// tensors().
type params[T nn.Float] struct {
	nn.BERTParams[T]
	head nn.Linear[T]
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
// order — BERT's walk, then the head —: the one parameter walk that
// tensors, gradients, Adam's moments, checkpoints and the scorer's model
// are made from.
func (p *params[T]) walk(add nn.TensorNamer[T]) { p.visit(nn.Lister[T]{Add: add}) }

// encoderTensors lists the encoder's parameters (BERT's walk, without the
// regression head) under their checkpoint names.
func (p *params[T]) encoderTensors() []nn.Param[T] {
	return nn.Collect(func(add nn.TensorNamer[T]) { p.Walk(nn.Lister[T]{Add: add}, bertPrefix) })
}

// visit runs the parameter walk with w.
func (p *params[T]) visit(w nn.Walker[[]T, nn.Linear[T], nn.Norm[T]]) {
	p.Walk(w, bertPrefix)
	w.Linear(headName, &p.head, 1, p.Shape.Hidden)
}

// newParams allocates zeroed parameters for a configuration.
func newParams[T nn.Float](cfg encoders.BERTConfig, pooler bool) *params[T] {
	return newParamsOf(*nn.NewBERTParams[T](cfg.Shape(), pooler))
}

// newParamsOf adds a zeroed head to an encoder's parameters.
func newParamsOf[T nn.Float](bert nn.BERTParams[T]) *params[T] {
	return &params[T]{BERTParams: bert, head: nn.NewLinear[T](1, bert.Shape.Hidden)}
}

// zeroLike returns zeroed parameters of the same shapes (gradients, moments).
func (p *params[T]) zeroLike() *params[T] { return newParamsOf(*p.ZeroLike()) }

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
