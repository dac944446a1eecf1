package encoders

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/tokenize"
)

// BERTConfig is the part of a HuggingFace BertConfig (config.json) the
// forward pass needs.
type BERTConfig struct {
	VocabSize             int     `json:"vocab_size"`
	HiddenSize            int     `json:"hidden_size"`
	NumHiddenLayers       int     `json:"num_hidden_layers"`
	NumAttentionHeads     int     `json:"num_attention_heads"`
	IntermediateSize      int     `json:"intermediate_size"`
	HiddenAct             string  `json:"hidden_act"`
	MaxPositionEmbeddings int     `json:"max_position_embeddings"`
	TypeVocabSize         int     `json:"type_vocab_size"`
	LayerNormEps          float64 `json:"layer_norm_eps"`
	PositionEmbeddingType string  `json:"position_embedding_type"`
}

// BERT is a BertModel: embeddings, post-LN transformer layers and the
// optional pooler tanh(dense(h_CLS)). It is immutable and safe for
// concurrent use.
type BERT struct {
	cfg BERTConfig
	model
	wordEmb, posEmb, typeEmb compute.Tensor
	embNorm                  layerNorm
	layers                   []encoderLayer
	pooler                   *linear
}

// LoadBERT loads a BERT model from a HuggingFace model directory onto the
// backend opts choose (default: the CPU).
func LoadBERT(dir string, opts ...Options) (*BERT, error) { return loadModel(dir, opts, NewBERT) }

// NewBERT builds a BERT model from a configuration and an open checkpoint;
// the weights are copied, so st may be closed afterwards.
func NewBERT(cfg BERTConfig, st *checkpoint.State, opts ...Options) (*BERT, error) {
	return NewBERTFrom(cfg, CheckpointWeights(st), opts...)
}

// NewBERTFrom builds a BERT model from a configuration and weights from any
// source (a checkpoint, a trainer's tensors in memory, random values) onto
// the backend opts choose.
func NewBERTFrom(cfg BERTConfig, w Weights, opts ...Options) (*BERT, error) {
	return buildFrom(w, opts, cfg, newBERT, bertParams.wordEmb, bertParams.prefixes...)
}

// newBERT builds the model from any weight source (a checkpoint, or random
// weights for benchmarks).
func newBERT(cfg BERTConfig, r *weightReader) (*BERT, error) {
	act, err := prepareConfig(&cfg, "BERT config", r)
	if err != nil {
		return nil, err
	}
	p := bertParams
	H, I := cfg.HiddenSize, cfg.IntermediateSize
	m := &BERT{
		cfg:     cfg,
		model:   model{be: r.be},
		wordEmb: r.param(p.wordEmb, cfg.VocabSize, H),
		posEmb:  r.param(p.posEmb, cfg.MaxPositionEmbeddings, H),
		typeEmb: r.param(p.typeEmb, cfg.TypeVocabSize, H),
		embNorm: r.layerNorm(p.embNorm, H, cfg.LayerNormEps),
	}
	for i := 0; i < cfg.NumHiddenLayers; i++ {
		name := func(f string) string { return fmt.Sprintf(f, i) }
		m.layers = append(m.layers, encoderLayer{
			attn: selfAttention{
				q: r.linear(name(p.query), H, H, true), k: r.linear(name(p.key), H, H, true),
				v: r.linear(name(p.value), H, H, true), o: r.linear(name(p.attnOut), H, H, true),
				heads: cfg.NumAttentionHeads,
			},
			ln1: r.layerNorm(name(p.attnNorm), H, cfg.LayerNormEps),
			fc1: r.linear(name(p.intermediate), I, H, true),
			fc2: r.linear(name(p.output), H, I, true),
			ln2: r.layerNorm(name(p.outNorm), H, cfg.LayerNormEps),
			act: act,
		})
	}
	if r.has(p.pooler + ".weight") {
		pl := r.linear(p.pooler, H, H, true)
		m.pooler = &pl
	}
	if r.err != nil {
		return nil, r.err
	}
	m.walk = *r.walk
	return m, nil
}

// Config returns the model's configuration.
func (m *BERT) Config() BERTConfig { return m.cfg }

// Forward runs the model on a padded batch of encodings (all of one
// length, as tokenize's EncodeBatch returns them) and returns the last
// hidden states, the pooled output (when the checkpoint has a pooler) and,
// if opts asks, every layer's hidden states.
func (m *BERT) Forward(ctx context.Context, encs []tokenize.Encoding, opts ForwardOptions) (*TextOutput, error) {
	tb, err := newTextBatch(encs, m.cfg.VocabSize, m.cfg.TypeVocabSize, m.cfg.MaxPositionEmbeddings)
	if err != nil {
		return nil, fmt.Errorf("BERT input: %w", err)
	}
	H := m.cfg.HiddenSize
	rows := tb.batch * tb.seq
	x := m.be.Alloc(rows * H)
	m.embed(x, tb)
	out := &TextOutput{}
	out.HiddenStates, err = runLayers(ctx, m.be, x, tb.batch, tb.seq, H, m.cfg.IntermediateSize, compute.Mask{KeyValid: tb.keyValid},
		opts, len(m.layers), oneLayer(m.layers))
	if err != nil {
		m.be.Free(x)
		return nil, err
	}
	if m.pooler != nil {
		out.PoolerOutput = outputDense(m.be, poolCLS(m.be, m.pooler, x, tb.batch, tb.seq), tb.batch, H)
	}
	out.LastHiddenState = outputDense(m.be, x, tb.batch, tb.seq, H)
	out.mask = tb.keyValid
	if err := m.failed("BERT", tb.batch, tb.seq); err != nil {
		return nil, err
	}
	return out, nil
}

// embed writes LayerNorm(word + position + token type embeddings) into x.
func (m *BERT) embed(x compute.Tensor, tb *textBatch) {
	tb.embed(m.be, x, m.cfg.HiddenSize, m.wordEmb, m.posEmb, m.typeEmb)
	m.embNorm.apply(m.be, x, x)
}

// FLOPs returns the floating-point operations of one forward pass over a
// batch of the given shape, for reporting GFLOP/s.
func (m *BERT) FLOPs(batch, seq int) float64 {
	f := 0.0
	for i := range m.layers {
		f += m.layers[i].flops(batch, seq)
	}
	if m.pooler != nil {
		f += m.pooler.flops(batch)
	}
	return f
}
