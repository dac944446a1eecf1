package encoders

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"gorgonia.org/tensor"
)

// ALBERTConfig is the part of a HuggingFace AlbertConfig the forward pass
// needs.
type ALBERTConfig struct {
	VocabSize             int     `json:"vocab_size"`
	EmbeddingSize         int     `json:"embedding_size"`
	HiddenSize            int     `json:"hidden_size"`
	NumHiddenLayers       int     `json:"num_hidden_layers"`
	NumHiddenGroups       int     `json:"num_hidden_groups"`
	InnerGroupNum         int     `json:"inner_group_num"`
	NumAttentionHeads     int     `json:"num_attention_heads"`
	IntermediateSize      int     `json:"intermediate_size"`
	HiddenAct             string  `json:"hidden_act"`
	MaxPositionEmbeddings int     `json:"max_position_embeddings"`
	TypeVocabSize         int     `json:"type_vocab_size"`
	LayerNormEps          float64 `json:"layer_norm_eps"`
}

// ALBERT is an AlbertModel: factorised embeddings (size E) projected to the
// hidden size H, layer groups whose weights are shared across the
// num_hidden_layers applications (one group in every released model), and
// the pooler tanh(dense(h_CLS)); plus whichever heads the checkpoint holds
// (sentence-order prediction, sequence classification, masked LM). It is
// immutable and safe for concurrent use.
type ALBERT struct {
	cfg ALBERTConfig
	model
	wordEmb, posEmb, typeEmb compute.Tensor
	embNorm                  layerNorm
	mapIn                    linear
	groups                   [][]encoderLayer
	pooler                   *linear
	sop, classifier          *linear
	mlm                      *albertMLMHead
}

// albertMLMHead is AlbertMLMHead: dense(H→E), activation, LayerNorm,
// decoder(E→V) whose weight is tied to the word embeddings.
type albertMLMHead struct {
	dense   linear
	norm    layerNorm
	decoder linear
	act     compute.Activation
}

// LoadALBERT loads an ALBERT model from a HuggingFace model directory onto
// the backend opts choose (default: the CPU).
func LoadALBERT(dir string, opts ...Options) (*ALBERT, error) {
	return loadModel(dir, opts, NewALBERT)
}

// NewALBERT builds an ALBERT model from a configuration and an open
// checkpoint; the weights are copied, so st may be closed afterwards.
func NewALBERT(cfg ALBERTConfig, st *checkpoint.State, opts ...Options) (*ALBERT, error) {
	return NewALBERTFrom(cfg, CheckpointWeights(st), opts...)
}

// NewALBERTFrom builds a ALBERT model from a configuration and weights from any
// source (a checkpoint, a trainer's tensors in memory, random values) onto
// the backend opts choose.
func NewALBERTFrom(cfg ALBERTConfig, w Weights, opts ...Options) (*ALBERT, error) {
	return buildFrom(w, opts, cfg, newALBERT, nn.ALBERTWordEmbeddings, albertPrefixes...)
}

// newALBERT builds the model from any weight source (a checkpoint, or random
// weights for benchmarks).
func newALBERT(cfg ALBERTConfig, r *weightReader) (*ALBERT, error) {
	act, err := prepareConfig(&cfg, "ALBERT config", r)
	if err != nil {
		return nil, err
	}
	p := albertHeads
	E, H := cfg.EmbeddingSize, cfg.HiddenSize
	eps := cfg.LayerNormEps
	m := &ALBERT{cfg: cfg, model: model{be: r.be}, groups: make([][]encoderLayer, cfg.NumHiddenGroups)}
	for g := range m.groups {
		m.groups[g] = make([]encoderLayer, cfg.InnerGroupNum)
	}
	slots := nn.ALBERTSlots[compute.Tensor, linear, layerNorm]{
		Word: &m.wordEmb, Pos: &m.posEmb, Type: &m.typeEmb, EmbNorm: &m.embNorm, MapIn: &m.mapIn,
		Layer: func(g, l int) nn.LayerSlots[linear, layerNorm] { return m.groups[g][l].slots() },
	}
	if r.has(nn.ALBERTPooler + ".weight") {
		m.pooler = new(linear)
		slots.Pooler = m.pooler
	}
	nn.WalkALBERT(readerWalker{r, eps}, "", cfg.Shape(), slots)
	for _, group := range m.groups {
		for l := range group {
			group[l].attn.heads, group[l].act = cfg.NumAttentionHeads, act
		}
	}
	// Heads live at the checkpoint root, beside the encoder prefix.
	root := r.root()
	if root.has(p.sop + ".weight") {
		l := root.linear(p.sop, 2, H, true)
		m.sop = &l
	}
	// The label count comes from the head itself: HF configs store
	// id2label rather than num_labels.
	if shape, ok := root.info(p.classifier+".weight", 2, H); ok && len(shape) == 2 {
		l := root.linear(p.classifier, shape[0], H, true)
		m.classifier = &l
	}
	if root.has(p.mlmDense + ".weight") {
		head := &albertMLMHead{dense: root.linear(p.mlmDense, E, H, true), norm: root.layerNorm(p.mlmNorm, E, eps), act: act}
		// The decoder weight is tied to the word embeddings; safetensors
		// files written by HF omit it.
		head.decoder = linear{w: m.wordEmb, in: E, out: cfg.VocabSize}
		if root.has(p.mlmDecoder) {
			head.decoder.w = root.param(p.mlmDecoder, cfg.VocabSize, E)
		}
		if root.has(p.mlmDecoderBias) {
			head.decoder.b = root.param(p.mlmDecoderBias, cfg.VocabSize)
		} else {
			head.decoder.b = root.param(p.mlmBias, cfg.VocabSize)
		}
		m.mlm = head
	}
	for _, e := range []error{r.err, root.err} {
		if e != nil {
			return nil, e
		}
	}
	m.walk = *r.walk
	return m, nil
}

// Shape returns the parameter shapes the configuration gives ALBERT's
// walk (nn.WalkALBERT).
func (cfg ALBERTConfig) Shape() nn.ALBERTShape {
	return nn.ALBERTShape{
		Vocab: cfg.VocabSize, Positions: cfg.MaxPositionEmbeddings, Types: cfg.TypeVocabSize,
		Embedding: cfg.EmbeddingSize, Hidden: cfg.HiddenSize, Intermediate: cfg.IntermediateSize,
		Groups: cfg.NumHiddenGroups, InnerLayers: cfg.InnerGroupNum,
	}
}

// Config returns the model's configuration.
func (m *ALBERT) Config() ALBERTConfig { return m.cfg }

// ALBERTOutput is ALBERT's forward-pass result: the text encoder outputs
// and the factorised embedding output [batch, seq, embedding_size].
type ALBERTOutput struct {
	TextOutput
	EmbeddingOutput *tensor.Dense
}

// Forward runs the model on a padded batch of encodings.
func (m *ALBERT) Forward(ctx context.Context, encs []tokenize.Encoding, opts ForwardOptions) (*ALBERTOutput, error) {
	tb, err := newTextBatch(encs, m.cfg.VocabSize, m.cfg.TypeVocabSize, m.cfg.MaxPositionEmbeddings)
	if err != nil {
		return nil, fmt.Errorf("ALBERT input: %w", err)
	}
	E, H := m.cfg.EmbeddingSize, m.cfg.HiddenSize
	rows := tb.batch * tb.seq
	be := m.be
	emb := be.Alloc(rows * E)
	tb.embed(be, emb, E, m.wordEmb, m.posEmb, m.typeEmb)
	m.embNorm.apply(be, emb, emb)
	x := be.Alloc(rows * H)
	m.mapIn.apply(be, x, emb, rows)
	out := &ALBERTOutput{EmbeddingOutput: outputDense(be, emb, tb.batch, tb.seq, E)}
	perGroup := m.cfg.NumHiddenLayers / m.cfg.NumHiddenGroups
	// AlbertTransformer: layer i runs group i / (layers / groups).
	out.HiddenStates, err = runLayers(ctx, be, x, tb.batch, tb.seq, H, m.cfg.IntermediateSize, compute.Mask{KeyValid: tb.keyValid},
		opts, m.cfg.NumHiddenLayers, func(i int) []encoderLayer { return m.groups[i/perGroup] })
	if err != nil {
		be.Free(x)
		return nil, err
	}
	if m.pooler != nil {
		out.PoolerOutput = outputDense(be, poolCLS(be, m.pooler, x, tb.batch, tb.seq), tb.batch, H)
	}
	out.LastHiddenState = outputDense(be, x, tb.batch, tb.seq, H)
	out.mask = tb.keyValid
	if err := m.failed("ALBERT", tb.batch, tb.seq); err != nil {
		return nil, err
	}
	return out, nil
}

// headLogits applies a linear head to the pooled output.
func (m *ALBERT) headLogits(head *linear, what string, out *ALBERTOutput) (*tensor.Dense, error) {
	if head == nil {
		return nil, fmt.Errorf("the checkpoint has no %s head", what)
	}
	if out == nil || out.PoolerOutput == nil {
		return nil, fmt.Errorf("the checkpoint has no pooler, which the %s head reads", what)
	}
	return applyHead(m.be, head, what, out.PoolerOutput)
}

// applyHead applies a model's own head to a caller's [batch, in] tensor.
func applyHead(be compute.Backend, head *linear, what string, x *tensor.Dense) (*tensor.Dense, error) {
	data, shape, err := float32Values(what+" head input", x, anySize, head.in)
	if err != nil {
		return nil, err
	}
	B := shape[0]
	y, err := head.applyHost(be, what+" head", data, B)
	if err != nil {
		return nil, err
	}
	return denseOf(y, B, head.out), nil
}

// SOPLogits returns the sentence-order-prediction logits [batch, 2] of
// AlbertForPreTraining (sop_classifier on the pooled output).
func (m *ALBERT) SOPLogits(out *ALBERTOutput) (*tensor.Dense, error) {
	return m.headLogits(m.sop, "sentence-order (sop_classifier)", out)
}

// ClassifierLogits returns AlbertForSequenceClassification's logits
// [batch, num_labels].
func (m *ALBERT) ClassifierLogits(out *ALBERTOutput) (*tensor.Dense, error) {
	return m.headLogits(m.classifier, "sequence classification (classifier)", out)
}

// MLMLogits returns the masked-LM vocabulary logits at the given
// (sequence, position) pairs, [len(positions), vocab_size].
func (m *ALBERT) MLMLogits(out *ALBERTOutput, positions [][2]int) (*tensor.Dense, error) {
	if m.mlm == nil {
		return nil, fmt.Errorf("the checkpoint has no masked-LM (predictions) head")
	}
	if out == nil {
		return nil, fmt.Errorf("ALBERT MLMLogits of a nil output")
	}
	x, shape, err := float32Values("ALBERT LastHiddenState", out.LastHiddenState, anySize, anySize, m.cfg.HiddenSize)
	if err != nil {
		return nil, err
	}
	B, T, H := shape[0], shape[1], shape[2]
	sel := make([]float32, len(positions)*H)
	for i, p := range positions {
		if p[0] < 0 || p[0] >= B || p[1] < 0 || p[1] >= T {
			return nil, fmt.Errorf("MLM position %v outside the batch [%d, %d]", p, B, T)
		}
		copy(sel[i*H:(i+1)*H], x[(p[0]*T+p[1])*H:])
	}
	n := len(positions)
	E := m.cfg.EmbeddingSize
	be := m.be
	in, h := be.Upload(sel), be.Alloc(n*E)
	m.mlm.dense.applyAct(be, h, in, n, m.mlm.act)
	m.mlm.norm.apply(be, h, h)
	logits := be.Alloc(n * m.cfg.VocabSize)
	m.mlm.decoder.apply(be, logits, h, n)
	be.Free(in)
	be.Free(h)
	res := outputDense(be, logits, n, m.cfg.VocabSize)
	if err := m.failed("ALBERT masked-LM head", n, 1); err != nil {
		return nil, err
	}
	return res, nil
}

// FLOPs returns the floating-point operations of one forward pass over a
// batch of the given shape.
func (m *ALBERT) FLOPs(batch, seq int) float64 {
	f := m.mapIn.flops(batch * seq)
	perGroup := m.cfg.NumHiddenLayers / m.cfg.NumHiddenGroups
	for i := 0; i < m.cfg.NumHiddenLayers; i++ {
		for l := range m.groups[i/perGroup] {
			f += m.groups[i/perGroup][l].flops(batch, seq)
		}
	}
	return f
}
