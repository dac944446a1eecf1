package vrank

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"

	"github.com/storyeval/storyeval/encoders/checkpoint"
)

// Checkpoint names of the regressor: HF BertModel names under "bert." and the
// head as "regression_layer", the layout of the fixture's model.safetensors.
const (
	bertPrefix = "bert."
	headName   = "regression_layer"
)

// layout lists a configuration's weights, zeroed, under their checkpoint
// names in state_dict order: the BERT encoder, the pooler with
// FeaturePooler, and the head. It is the one description of a Vrank model's
// parameters that loading, saving, random initialisation and the trainers
// (vrank/train) go by.
func layout(cfg Config) []checkpoint.Float32Tensor {
	b := cfg.BERT
	H, I := b.HiddenSize, b.IntermediateSize
	var ws []checkpoint.Float32Tensor
	add := func(name string, shape ...int) {
		n := 1
		for _, d := range shape {
			n *= d
		}
		ws = append(ws, checkpoint.Float32Tensor{Name: name, Shape: shape, Data: make([]float32, n)})
	}
	linear := func(name string, out, in int) {
		add(name+".weight", out, in)
		add(name+".bias", out)
	}
	norm := func(name string) {
		add(name+".weight", H)
		add(name+".bias", H)
	}
	add(bertPrefix+"embeddings.word_embeddings.weight", b.VocabSize, H)
	add(bertPrefix+"embeddings.position_embeddings.weight", b.MaxPositionEmbeddings, H)
	add(bertPrefix+"embeddings.token_type_embeddings.weight", b.TypeVocabSize, H)
	norm(bertPrefix + "embeddings.LayerNorm")
	for i := 0; i < b.NumHiddenLayers; i++ {
		l := fmt.Sprintf("%sencoder.layer.%d.", bertPrefix, i)
		for _, n := range []string{"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"} {
			linear(l+n, H, H)
		}
		norm(l + "attention.output.LayerNorm")
		linear(l+"intermediate.dense", I, H)
		linear(l+"output.dense", H, I)
		norm(l + "output.LayerNorm")
	}
	if cfg.Feature == FeaturePooler {
		linear(bertPrefix+"pooler.dense", H, H)
	}
	linear(headName, 1, H)
	return ws
}

// isHead reports whether a weight belongs to the regression head.
func isHead(name string) bool { return strings.HasPrefix(name, headName+".") }

// initRandom fills weights as transformers' BertPreTrainedModel
// _init_weights does: normal(0, std) weights and embeddings, zero biases,
// LayerNorm gamma 1 and beta 0.
func initRandom(ws []checkpoint.Float32Tensor, rng *rand.Rand, std float64) {
	for _, t := range ws {
		switch {
		case len(t.Shape) == 1 && strings.HasSuffix(t.Name, "LayerNorm.weight"):
			fill(t.Data, 1)
		case len(t.Shape) == 1:
			fill(t.Data, 0)
		default:
			for i := range t.Data {
				t.Data[i] = float32(rng.NormFloat64() * std)
			}
		}
	}
}

func fill(x []float32, v float32) {
	for i := range x {
		x[i] = v
	}
}

// initHead draws the head as torch's nn.Linear initialises it: weight and
// bias uniform in ±1/√H, the weight first.
func initHead(ws []checkpoint.Float32Tensor, H int, rng *rand.Rand) {
	bound := 1 / math.Sqrt(float64(H))
	for _, name := range []string{headName + ".weight", headName + ".bias"} {
		for i, t := range ws {
			if t.Name == name {
				for j := range ws[i].Data {
					ws[i].Data[j] = float32((2*rng.Float64() - 1) * bound)
				}
			}
		}
	}
}

// readWeights reads the weights of cfg from a checkpoint, checking shapes;
// skip names weights left as they are (a new head). Names are looked up as
// Save writes them ("bert.…", "regression_layer.…"); a plain BertModel
// checkpoint without the "bert." prefix is accepted too.
func readWeights(st *checkpoint.State, cfg Config, skip func(name string) bool) ([]checkpoint.Float32Tensor, error) {
	if err := checkSizes(st, cfg); err != nil {
		return nil, err
	}
	ws := layout(cfg)
	prefixed := st.Has(bertPrefix + "embeddings.word_embeddings.weight")
	for _, t := range ws {
		if skip != nil && skip(t.Name) {
			continue
		}
		name := t.Name
		if !prefixed && strings.HasPrefix(name, bertPrefix) {
			name = name[len(bertPrefix):]
		}
		info, ok := st.Info(name)
		if !ok {
			return nil, fmt.Errorf("checkpoint has no tensor %q", name)
		}
		if !slices.Equal(info.Shape, t.Shape) {
			return nil, fmt.Errorf("tensor %q has shape %v, the configuration needs %v", name, info.Shape, t.Shape)
		}
		if err := st.ReadFloat32(name, t.Data); err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, err)
		}
	}
	return ws, nil
}

// checkSizes compares the configuration's largest tensors with the
// checkpoint before anything is allocated, so that a config.json claiming
// huge sizes fails with an error instead of exhausting memory.
func checkSizes(st *checkpoint.State, cfg Config) error {
	prefix := ""
	if st.Has(bertPrefix + "embeddings.word_embeddings.weight") {
		prefix = bertPrefix
	}
	b := cfg.BERT
	H, I, L := b.HiddenSize, b.IntermediateSize, b.NumHiddenLayers
	for _, c := range []struct {
		name  string
		shape []int
	}{
		{"embeddings.word_embeddings.weight", []int{b.VocabSize, H}},
		{"embeddings.position_embeddings.weight", []int{b.MaxPositionEmbeddings, H}},
		{"embeddings.token_type_embeddings.weight", []int{b.TypeVocabSize, H}},
		{fmt.Sprintf("encoder.layer.%d.intermediate.dense.weight", L-1), []int{I, H}},
	} {
		info, ok := st.Info(prefix + c.name)
		if !ok {
			return fmt.Errorf("checkpoint has no tensor %q", prefix+c.name)
		}
		if !slices.Equal(info.Shape, c.shape) {
			return fmt.Errorf("tensor %q has shape %v, config.json needs %v", prefix+c.name, info.Shape, c.shape)
		}
	}
	if name := fmt.Sprintf("%sencoder.layer.%d.intermediate.dense.weight", prefix, L); st.Has(name) {
		return fmt.Errorf("checkpoint has %q: more layers than num_hidden_layers = %d", name, L)
	}
	return nil
}
