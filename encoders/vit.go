package encoders

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/nn"
	"gorgonia.org/tensor"
)

// ViTConfig is the part of a HuggingFace ViTConfig the forward pass needs.
type ViTConfig struct {
	HiddenSize        int     `json:"hidden_size"`
	NumHiddenLayers   int     `json:"num_hidden_layers"`
	NumAttentionHeads int     `json:"num_attention_heads"`
	IntermediateSize  int     `json:"intermediate_size"`
	HiddenAct         string  `json:"hidden_act"`
	ImageSize         int     `json:"image_size"`
	PatchSize         int     `json:"patch_size"`
	NumChannels       int     `json:"num_channels"`
	LayerNormEps      float64 `json:"layer_norm_eps"`
	QKVBias           *bool   `json:"qkv_bias"`
}

// ViT is a ViTModel: patch embedding with a [CLS] token and learned
// positions, pre-LN transformer layers, a final LayerNorm and the optional
// pooler tanh(dense(LN(h)_CLS)); plus the image-classification head when the
// checkpoint holds one. It is immutable and safe for concurrent use.
type ViT struct {
	cfg ViTConfig
	model
	cls, pos   compute.Tensor
	patch      patchEmbedding
	layers     []encoderLayer
	norm       layerNorm
	pooler     *linear
	classifier *linear
}

// LoadViT loads a ViT model from a HuggingFace model directory onto the
// backend opts choose (default: the CPU).
func LoadViT(dir string, opts ...Options) (*ViT, error) { return loadModel(dir, opts, NewViT) }

// NewViT builds a ViT model from a configuration and an open checkpoint.
func NewViT(cfg ViTConfig, st *checkpoint.State, opts ...Options) (*ViT, error) {
	return NewViTFrom(cfg, CheckpointWeights(st), opts...)
}

// NewViTFrom builds a ViT model from a configuration and weights from any
// source (a checkpoint, a trainer's tensors in memory, random values) onto
// the backend opts choose.
func NewViTFrom(cfg ViTConfig, w Weights, opts ...Options) (*ViT, error) {
	return buildFrom(w, opts, cfg, newViT, nn.ViTClassToken, vitPrefixes...)
}

// newViT builds the model from any weight source (a checkpoint, or random
// weights for benchmarks).
func newViT(cfg ViTConfig, r *weightReader) (*ViT, error) {
	act, err := prepareConfig(&cfg, "ViT config", r)
	if err != nil {
		return nil, err
	}
	m := &ViT{cfg: cfg, model: model{be: r.be}, layers: make([]encoderLayer, cfg.NumHiddenLayers),
		patch: patchEmbedding{channels: cfg.NumChannels, patch: cfg.PatchSize, imgSize: cfg.ImageSize}}
	slots := nn.ViTSlots[compute.Tensor, linear, layerNorm]{
		CLS: &m.cls, Pos: &m.pos, PatchEmbed: &m.patch.proj, Norm: &m.norm,
		Layer: func(i int) nn.LayerSlots[linear, layerNorm] { return m.layers[i].slots() },
	}
	if r.has(nn.ViTPooler + ".weight") {
		m.pooler = new(linear)
		slots.Pooler = m.pooler
	}
	nn.WalkViT(readerWalker{r, cfg.LayerNormEps}, "", cfg.Shape(), slots)
	for i := range m.layers {
		m.layers[i].attn.heads, m.layers[i].act, m.layers[i].preNorm = cfg.NumAttentionHeads, act, true
	}
	root := r.root()
	if shape, ok := root.info(vitClassifier + ".weight"); ok && len(shape) == 2 {
		l := root.linear(vitClassifier, shape[0], cfg.HiddenSize, true)
		m.classifier = &l
	}
	for _, e := range []error{r.err, root.err} {
		if e != nil {
			return nil, e
		}
	}
	m.walk = *r.walk
	return m, nil
}

// Shape returns the parameter shapes the configuration gives ViT's walk
// (nn.WalkViT).
func (cfg ViTConfig) Shape() nn.ViTShape {
	return nn.ViTShape{
		Hidden: cfg.HiddenSize, Intermediate: cfg.IntermediateSize, Layers: cfg.NumHiddenLayers,
		Channels: cfg.NumChannels, Patch: cfg.PatchSize, ImageSize: cfg.ImageSize,
		NoQKVBias: cfg.QKVBias != nil && !*cfg.QKVBias,
	}
}

// Config returns the model's configuration.
func (m *ViT) Config() ViTConfig { return m.cfg }

// ImageOutput is the result of an image encoder's forward pass.
type ImageOutput struct {
	// LastHiddenState is [batch, 1+patches, hidden].
	LastHiddenState *tensor.Dense
	// PoolerOutput is [batch, hidden], or nil when the model has no pooler.
	PoolerOutput *tensor.Dense
	// HiddenStates are the embeddings and each layer's output [batch,
	// 1+patches, hidden], when requested (without the final LayerNorm).
	HiddenStates []*tensor.Dense
}

// Forward runs the model on preprocessed images (imageproc's ViT
// processor).
func (m *ViT) Forward(ctx context.Context, imgs []imageproc.PixelValues, opts ForwardOptions) (*ImageOutput, error) {
	if err := m.patch.checkImages(imgs); err != nil {
		return nil, fmt.Errorf("ViT input: %w", err)
	}
	B, N, H := len(imgs), m.patch.numPatches(), m.cfg.HiddenSize
	seq := N + 1
	be := m.be
	x := m.patch.embed(be, imgs, m.cls, m.pos)
	out := &ImageOutput{}
	var err error
	out.HiddenStates, err = runLayers(ctx, be, x, B, seq, H, m.cfg.IntermediateSize, compute.Mask{}, opts, len(m.layers), oneLayer(m.layers))
	if err != nil {
		be.Free(x)
		return nil, err
	}
	m.norm.apply(be, x, x)
	if m.pooler != nil {
		out.PoolerOutput = outputDense(be, poolCLS(be, m.pooler, x, B, seq), B, H)
	}
	out.LastHiddenState = outputDense(be, x, B, seq, H)
	if err := m.failed("ViT", B, seq); err != nil {
		return nil, err
	}
	return out, nil
}

// ClassifierLogits returns ViTForImageClassification's logits
// classifier(LN(h)_CLS), [batch, num_labels].
func (m *ViT) ClassifierLogits(out *ImageOutput) (*tensor.Dense, error) {
	if m.classifier == nil {
		return nil, fmt.Errorf("the checkpoint has no image-classification head")
	}
	if out == nil {
		return nil, fmt.Errorf("ViT ClassifierLogits of a nil output")
	}
	cls, err := firstPosition("ViT LastHiddenState", out.LastHiddenState)
	if err != nil {
		return nil, err
	}
	return applyHead(m.be, m.classifier, "ViT image-classification", cls)
}

// CLS returns the final-LayerNorm hidden state of the class token,
// [batch, hidden]: what ViTForImageClassification's head reads.
func (o *ImageOutput) CLS() (*tensor.Dense, error) {
	if o == nil {
		return nil, fmt.Errorf("CLS of a nil output")
	}
	return firstPosition("LastHiddenState", o.LastHiddenState)
}

// Pooled returns the pooler output tanh(W·LN(h)_CLS + b), [batch, hidden],
// or an error when the model has no pooler.
func (o *ImageOutput) Pooled() (*tensor.Dense, error) {
	if o == nil {
		return copyPooled(nil, "CLS")
	}
	return copyPooled(o.PoolerOutput, "CLS")
}

// FLOPs returns the floating-point operations of one forward pass over
// batch images.
func (m *ViT) FLOPs(batch int) float64 {
	seq := m.patch.numPatches() + 1
	f := m.patch.proj.flops(batch * m.patch.numPatches())
	for i := range m.layers {
		f += m.layers[i].flops(batch, seq)
	}
	return f
}
