package encoders

import (
	"context"
	"fmt"
	"math"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"gorgonia.org/tensor"
)

// CLIPTowerConfig is one tower of a HuggingFace CLIPConfig (text_config or
// vision_config).
type CLIPTowerConfig struct {
	HiddenSize            int     `json:"hidden_size"`
	IntermediateSize      int     `json:"intermediate_size"`
	NumHiddenLayers       int     `json:"num_hidden_layers"`
	NumAttentionHeads     int     `json:"num_attention_heads"`
	HiddenAct             string  `json:"hidden_act"`
	LayerNormEps          float64 `json:"layer_norm_eps"`
	VocabSize             int     `json:"vocab_size"`              // text
	MaxPositionEmbeddings int     `json:"max_position_embeddings"` // text
	ImageSize             int     `json:"image_size"`              // vision
	PatchSize             int     `json:"patch_size"`              // vision
	NumChannels           int     `json:"num_channels"`            // vision
}

// CLIPConfig is the part of a HuggingFace CLIPConfig the forward pass needs.
type CLIPConfig struct {
	TextConfig    CLIPTowerConfig `json:"text_config"`
	VisionConfig  CLIPTowerConfig `json:"vision_config"`
	ProjectionDim int             `json:"projection_dim"`
}

// CLIP is a CLIPModel: a causal text transformer pooled at the end-of-text
// token, a vision transformer pooled at its class token, the two linear
// projections into the shared space and the learned logit scale. It is
// immutable and safe for concurrent use.
type CLIP struct {
	cfg CLIPConfig
	model

	tokenEmb, textPos compute.Tensor
	textLayers        []encoderLayer
	finalNorm         layerNorm

	classEmb, visionPos compute.Tensor
	patch               patchEmbedding
	preNorm, postNorm   layerNorm
	visionLayers        []encoderLayer

	textProj, visualProj linear
	logitScale           float32 // as stored: logits use exp(logitScale)
}

// LoadCLIP loads a CLIP model from a HuggingFace model directory onto the
// backend opts choose (default: the CPU).
func LoadCLIP(dir string, opts ...Options) (*CLIP, error) { return loadModel(dir, opts, NewCLIP) }

// clipTowerLayers reads a tower's pre-LN layers.
func clipTowerLayers(r *weightReader, tower string, c CLIPTowerConfig, act compute.Activation) []encoderLayer {
	p := clipParams
	H, I := c.HiddenSize, c.IntermediateSize
	var layers []encoderLayer
	for i := 0; i < c.NumHiddenLayers; i++ {
		name := func(f string) string { return tower + fmt.Sprintf(f, i) }
		layers = append(layers, encoderLayer{
			attn: selfAttention{
				q: r.linear(name(p.query), H, H, true), k: r.linear(name(p.key), H, H, true),
				v: r.linear(name(p.value), H, H, true), o: r.linear(name(p.attnOut), H, H, true),
				heads: c.NumAttentionHeads,
			},
			ln1: r.layerNorm(name(p.norm1), H, c.LayerNormEps),
			fc1: r.linear(name(p.fc1), I, H, true),
			fc2: r.linear(name(p.fc2), H, I, true),
			ln2: r.layerNorm(name(p.norm2), H, c.LayerNormEps), act: act, preNorm: true,
		})
	}
	return layers
}

func (c *CLIPTowerConfig) defaults() {
	if c.HiddenAct == "" {
		c.HiddenAct = "quick_gelu"
	}
	if c.LayerNormEps == 0 {
		c.LayerNormEps = 1e-5
	}
	if c.NumChannels == 0 {
		c.NumChannels = 3
	}
}

// NewCLIP builds a CLIP model from a configuration and an open checkpoint.
func NewCLIP(cfg CLIPConfig, st *checkpoint.State, opts ...Options) (*CLIP, error) {
	return NewCLIPFrom(cfg, CheckpointWeights(st), opts...)
}

// NewCLIPFrom builds a CLIP model from a configuration and weights from any
// source (a checkpoint, a trainer's tensors in memory, random values) onto
// the backend opts choose.
func NewCLIPFrom(cfg CLIPConfig, w Weights, opts ...Options) (*CLIP, error) {
	return buildFrom(w, opts, cfg, newCLIP, clipParams.text+clipParams.tokenEmb, "clip.", "model.")
}

// newCLIP builds the model from any weight source (a checkpoint, or random
// weights for benchmarks).
func newCLIP(cfg CLIPConfig, r *weightReader) (*CLIP, error) {
	t, v := &cfg.TextConfig, &cfg.VisionConfig
	t.defaults()
	v.defaults()
	if err := cfg.validate("CLIP config", r); err != nil {
		return nil, err
	}
	tact, err := compute.ActivationByName(t.HiddenAct)
	if err != nil {
		return nil, fmt.Errorf("text_config: %w", err)
	}
	vact, err := compute.ActivationByName(v.HiddenAct)
	if err != nil {
		return nil, fmt.Errorf("vision_config: %w", err)
	}
	p := clipParams
	m := &CLIP{cfg: cfg, model: model{be: r.be}, patch: patchEmbedding{channels: v.NumChannels, patch: v.PatchSize, imgSize: v.ImageSize}}
	m.tokenEmb = r.param(p.text+p.tokenEmb, t.VocabSize, t.HiddenSize)
	m.textPos = r.param(p.text+p.textPos, t.MaxPositionEmbeddings, t.HiddenSize)
	m.textLayers = clipTowerLayers(r, p.text, *t, tact)
	m.finalNorm = r.layerNorm(p.text+p.finalNorm, t.HiddenSize, t.LayerNormEps)
	m.classEmb = r.param(p.vision+p.classEmb, v.HiddenSize)
	m.patch.proj = r.convAsLinear(p.vision+p.patch, v.HiddenSize, v.NumChannels, v.PatchSize, false)
	m.visionPos = r.param(p.vision+p.visionPos, m.patch.numPatches()+1, v.HiddenSize)
	m.preNorm = r.layerNorm(p.vision+p.preNorm, v.HiddenSize, v.LayerNormEps)
	m.visionLayers = clipTowerLayers(r, p.vision, *v, vact)
	m.postNorm = r.layerNorm(p.vision+p.postNorm, v.HiddenSize, v.LayerNormEps)
	m.textProj = r.linear(p.textProj, cfg.ProjectionDim, t.HiddenSize, false)
	m.visualProj = r.linear(p.visualProj, cfg.ProjectionDim, v.HiddenSize, false)
	if scale := r.tensor(p.logitScale); len(scale) == 1 {
		m.logitScale = scale[0]
	} else if r.err == nil {
		r.err = fmt.Errorf("parameter %s%s: want a scalar", r.prefix, p.logitScale)
	}
	if r.err != nil {
		return nil, r.err
	}
	m.walk = *r.walk
	return m, nil
}

// Config returns the model's configuration.
func (m *CLIP) Config() CLIPConfig { return m.cfg }

// LogitScale returns exp(logit_scale), the factor on cosine similarities in
// CLIP's logits, read from the weights.
func (m *CLIP) LogitScale() float32 { return float32(math.Exp(float64(m.logitScale))) }

// CLIPOutput is the result of one CLIP tower.
type CLIPOutput struct {
	// LastHiddenState is [batch, seq, hidden]: after final_layer_norm for
	// text, without post_layernorm for images (as HF returns them).
	LastHiddenState *tensor.Dense
	// PoolerOutput is [batch, hidden]: the end-of-text position (text) or
	// post_layernorm of the class token (images).
	PoolerOutput *tensor.Dense
	// Features are the projected pooler outputs [batch, projection_dim].
	Features *tensor.Dense
	// Embeds are Features scaled to unit length.
	Embeds *tensor.Dense
	// HiddenStates are the embeddings and each layer's output, when
	// requested.
	HiddenStates []*tensor.Dense
	// EOSIndex is, for text, the pooled position of each sequence.
	EOSIndex []int
}

// EncodeText runs the text tower on a padded batch of CLIP encodings. The
// pooled position of each sequence is the position of its largest token id,
// which is the end-of-text token in CLIP's vocabulary (HF 4.29 uses argmax
// rather than eos_token_id).
func (m *CLIP) EncodeText(ctx context.Context, encs []tokenize.Encoding, opts ForwardOptions) (*CLIPOutput, error) {
	c := m.cfg.TextConfig
	tb, err := newTextBatch(encs, c.VocabSize, 0, c.MaxPositionEmbeddings)
	if err != nil {
		return nil, fmt.Errorf("CLIP text input: %w", err)
	}
	B, T, H := tb.batch, tb.seq, c.HiddenSize
	be := m.be
	x := be.Alloc(B * T * H)
	be.Embed(x, H, []compute.Tensor{m.tokenEmb, m.textPos}, [][]int{tb.ids, nil}, []int{0, T})
	out := &CLIPOutput{}
	out.HiddenStates, err = runLayers(ctx, be, x, B, T, H, c.IntermediateSize, compute.Mask{KeyValid: tb.keyValid, Causal: true},
		opts, len(m.textLayers), oneLayer(m.textLayers))
	if err != nil {
		be.Free(x)
		return nil, err
	}
	m.finalNorm.apply(be, x, x)
	out.EOSIndex = make([]int, B)
	rows := make([]int, B)
	for b := 0; b < B; b++ {
		best := 0
		for t := 1; t < T; t++ {
			if tb.ids[b*T+t] > tb.ids[b*T+best] {
				best = t // the first position of the largest id, as torch.argmax
			}
		}
		out.EOSIndex[b] = best
		rows[b] = b*T + best
	}
	pooled := be.Alloc(B * H)
	be.Rows(pooled, x, H, rows)
	m.project(out, &m.textProj, pooled, B)
	out.PoolerOutput = outputDense(be, pooled, B, H)
	out.LastHiddenState = outputDense(be, x, B, T, H)
	if err := m.failed("CLIP text", B, T); err != nil {
		return nil, err
	}
	return out, nil
}

// EncodeImages runs the vision tower on images preprocessed with CLIP's
// processor.
func (m *CLIP) EncodeImages(ctx context.Context, imgs []imageproc.PixelValues, opts ForwardOptions) (*CLIPOutput, error) {
	if err := m.patch.checkImages(imgs); err != nil {
		return nil, fmt.Errorf("CLIP image input: %w", err)
	}
	c := m.cfg.VisionConfig
	B, N, H := len(imgs), m.patch.numPatches(), c.HiddenSize
	seq := N + 1
	be := m.be
	x := m.patch.embed(be, imgs, m.classEmb, m.visionPos)
	m.preNorm.apply(be, x, x)
	out := &CLIPOutput{}
	var err error
	out.HiddenStates, err = runLayers(ctx, be, x, B, seq, H, c.IntermediateSize, compute.Mask{}, opts, len(m.visionLayers), oneLayer(m.visionLayers))
	if err != nil {
		be.Free(x)
		return nil, err
	}
	pooled := firstRows(be, x, B, seq, H)
	m.postNorm.apply(be, pooled, pooled)
	m.project(out, &m.visualProj, pooled, B)
	out.PoolerOutput = outputDense(be, pooled, B, H)
	out.LastHiddenState = outputDense(be, x, B, seq, H)
	if err := m.failed("CLIP vision", B, seq); err != nil {
		return nil, err
	}
	return out, nil
}

// project fills Features and Embeds (Features scaled to unit length) from
// the pooled outputs.
func (m *CLIP) project(out *CLIPOutput, proj *linear, pooled compute.Tensor, B int) {
	D := m.cfg.ProjectionDim
	be := m.be
	feat, emb := be.Alloc(B*D), be.Alloc(B*D)
	proj.apply(be, feat, pooled, B)
	same := make([]int, B)
	for b := range same {
		same[b] = b
	}
	be.Rows(emb, feat, D, same)
	be.Normalize(emb, D)
	out.Features = outputDense(be, feat, B, D)
	out.Embeds = outputDense(be, emb, B, D)
}

// Logits returns CLIP's logits_per_text [texts, images] and logits_per_image
// [images, texts]: exp(logit_scale) times the cosine similarities of the
// unit-length embeddings.
func (m *CLIP) Logits(textEmbeds, imageEmbeds *tensor.Dense) (perText, perImage *tensor.Dense, err error) {
	D := m.cfg.ProjectionDim
	td, ts, err := float32Values("CLIP text embeddings", textEmbeds, anySize, D)
	if err != nil {
		return nil, nil, fmt.Errorf("CLIP logits: %w", err)
	}
	id, is, err := float32Values("CLIP image embeddings", imageEmbeds, anySize, D)
	if err != nil {
		return nil, nil, fmt.Errorf("CLIP logits: %w", err)
	}
	nt, ni, d := ts[0], is[0], D
	be := m.be
	tt, it, logits := be.Upload(td), be.Upload(id), be.Alloc(nt*ni)
	be.Gemm(false, true, nt, ni, d, m.LogitScale(), tt, d, it, d, 0, logits, ni)
	pt := make([]float32, nt*ni)
	be.Download(pt, logits)
	for _, t := range []compute.Tensor{tt, it, logits} {
		be.Free(t)
	}
	if err := m.failed("CLIP logits", nt, ni); err != nil {
		return nil, nil, err
	}
	pi := make([]float32, ni*nt)
	for i := 0; i < nt; i++ {
		for j := 0; j < ni; j++ {
			pi[j*nt+i] = pt[i*ni+j]
		}
	}
	return denseOf(pt, nt, ni), denseOf(pi, ni, nt), nil
}

// TextFLOPs and ImageFLOPs return the floating-point operations of one
// forward pass of each tower.
func (m *CLIP) TextFLOPs(batch, seq int) float64 {
	f := m.textProj.flops(batch)
	for i := range m.textLayers {
		f += m.textLayers[i].flops(batch, seq)
	}
	return f
}

// ImageFLOPs is TextFLOPs for the vision tower.
func (m *CLIP) ImageFLOPs(batch int) float64 {
	seq := m.patch.numPatches() + 1
	f := m.patch.proj.flops(batch*m.patch.numPatches()) + m.visualProj.flops(batch)
	for i := range m.visionLayers {
		f += m.visionLayers[i].flops(batch, seq)
	}
	return f
}
