package encoders

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
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

// bertPrefixes are the prefixes BertModel's names have in the BertFor…
// checkpoints the metrics load.
var bertPrefixes = []string{"bert.", "model.bert.", "model."}

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
	return buildFrom(w, opts, cfg, newBERT, nn.BERTWordEmbeddings, bertPrefixes...)
}

// newBERT builds the model from any weight source (a checkpoint, or random
// weights for benchmarks).
func newBERT(cfg BERTConfig, r *weightReader) (*BERT, error) {
	act, err := prepareConfig(&cfg, "BERT config", r)
	if err != nil {
		return nil, err
	}
	m := &BERT{cfg: cfg, model: model{be: r.be}, layers: make([]encoderLayer, cfg.NumHiddenLayers)}
	slots := nn.BERTSlots[compute.Tensor, linear, layerNorm]{
		Word: &m.wordEmb, Pos: &m.posEmb, Type: &m.typeEmb, EmbNorm: &m.embNorm,
		Layer: func(i int) nn.LayerSlots[linear, layerNorm] { return m.layers[i].slots() },
	}
	if r.has(nn.BERTPooler + ".weight") {
		m.pooler = new(linear)
		slots.Pooler = m.pooler
	}
	nn.WalkBERT(readerWalker{r, cfg.LayerNormEps}, "", cfg.Shape(), slots)
	for i := range m.layers {
		m.layers[i].attn.heads, m.layers[i].act = cfg.NumAttentionHeads, act
	}
	if r.err != nil {
		return nil, r.err
	}
	m.walk = *r.walk
	return m, nil
}

// Shape returns the parameter shapes the configuration gives BERT's walk
// (nn.WalkBERT).
func (cfg BERTConfig) Shape() nn.BERTShape {
	return nn.BERTShape{
		Vocab: cfg.VocabSize, Positions: cfg.MaxPositionEmbeddings, Types: cfg.TypeVocabSize,
		Hidden: cfg.HiddenSize, Intermediate: cfg.IntermediateSize, Layers: cfg.NumHiddenLayers,
	}
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
