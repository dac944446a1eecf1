package train

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
)

// The trainable RoViST-VG region-to-phrase model: a pre-LN ViT (HF
// ViTModel) whose pooler output goes through image_encoder.linear and tanh,
// and text_encoder.linear + tanh over a phrase's mean GloVe vector. The
// forward and backward passes are composed of encoders/nn's blocks,
// generic over float32 (training) and float64 (finite-difference checks).
// The ViT's dropout probabilities are 0 in google/vit-base-patch16-224-in21k
// (hidden_dropout_prob, attention_probs_dropout_prob), so train mode and
// eval mode compute the same function and no dropout is applied.

// vgParams holds every trainable parameter of Region2PhraseModel; the same
// type holds gradients and Adam's moments, aligned through tensors().
type vgParams[T nn.Float] struct {
	// patch is the Conv2d patch embedding as a linear layer over flattened
	// patches: its weight [H, C·P·P] is the conv weight [H, C, P, P] as
	// stored, and a patch is flattened in the same (channel, row, column)
	// order.
	patch    nn.Linear[T]
	cls, pos []T
	layers   []nn.EncoderLayer[T] // pre-LN ViTLayers
	ln       nn.Norm[T]           // the final layernorm
	pooler   nn.Linear[T]
	img, txt nn.Linear[T] // image_encoder.linear, text_encoder.linear

	channels, patchSize, imageSize int
}

// vgGeometry is the shape of a ViT and its heads.
type vgGeometry struct {
	hidden, layers, heads, intermediate int
	channels, patchSize, imageSize      int
	eps                                 float64
	joint, wordDim                      int
}

func (g vgGeometry) patches() int { n := g.imageSize / g.patchSize; return n * n }

func newVGParams[T nn.Float](g vgGeometry) *vgParams[T] {
	H, I := g.hidden, g.intermediate
	p := &vgParams[T]{
		patch:    nn.NewLinear[T](H, g.channels*g.patchSize*g.patchSize),
		cls:      make([]T, H),
		pos:      make([]T, (g.patches()+1)*H),
		layers:   make([]nn.EncoderLayer[T], g.layers),
		ln:       nn.NewNorm[T](H),
		pooler:   nn.NewLinear[T](H, H),
		img:      nn.NewLinear[T](g.joint, H),
		txt:      nn.NewLinear[T](g.joint, g.wordDim),
		channels: g.channels, patchSize: g.patchSize, imageSize: g.imageSize,
	}
	for i := range p.layers {
		p.layers[i] = nn.NewEncoderLayer[T](H, I)
	}
	return p
}

// Prefixes of the state_dict of usydnlp/rovist's Region2PhraseModel.
const (
	vgViTPrefix       = "image_encoder.image_model."
	vgImageHeadPrefix = "image_encoder.linear"
	vgTextHeadPrefix  = "text_encoder.linear"
)

// tensors lists the parameters in the order of Region2PhraseModel's
// state_dict, under its names and shapes; the slices alias p.
func (p *vgParams[T]) tensors() []nn.Param[T] { return nn.Collect(p.walk) }

// walk lists the parameters under their checkpoint names in state_dict
// order: the one parameter walk that tensors, gradients, Adam's moments,
// checkpoints and the scorer's model are made from.
func (p *vgParams[T]) walk(add nn.TensorNamer[T]) {
	H := len(p.cls)
	v := vgViTPrefix
	add(v+"embeddings.cls_token", p.cls, 1, 1, H)
	add(v+"embeddings.position_embeddings", p.pos, 1, len(p.pos)/H, H)
	add(v+"embeddings.patch_embeddings.projection.weight", p.patch.W, H, p.channels, p.patchSize, p.patchSize)
	add(v+"embeddings.patch_embeddings.projection.bias", p.patch.B, H)
	for i := range p.layers {
		add.EncoderLayer(fmt.Sprintf("%sencoder.layer.%d.", v, i), &p.layers[i], nn.EncoderLayerNames{
			Query: "attention.attention.query", Key: "attention.attention.key", Value: "attention.attention.value",
			AttnOut: "attention.output.dense", FFNIn: "intermediate.dense", FFNOut: "output.dense",
			LN1: "layernorm_before", LN2: "layernorm_after", NormsLast: true,
		})
	}
	add.Norm(v+"layernorm", &p.ln)
	add.Linear(v+"pooler.dense", &p.pooler)
	add.Linear(vgImageHeadPrefix, &p.img)
	add.Linear(vgTextHeadPrefix, &p.txt)
}

// zeroLike returns zeroed parameters of p's shapes.
func (p *vgParams[T]) zeroLike() *vgParams[T] {
	q := &vgParams[T]{
		patch: p.patch.ZeroLike(), cls: make([]T, len(p.cls)), pos: make([]T, len(p.pos)),
		layers: make([]nn.EncoderLayer[T], len(p.layers)), ln: p.ln.ZeroLike(), pooler: p.pooler.ZeroLike(),
		img: p.img.ZeroLike(), txt: p.txt.ZeroLike(),
		channels: p.channels, patchSize: p.patchSize, imageSize: p.imageSize,
	}
	for i := range p.layers {
		q.layers[i] = p.layers[i].ZeroLike()
	}
	return q
}

// vgNetwork runs Region2PhraseModel's forward and backward passes.
type vgNetwork[T nn.Float] struct {
	p     *vgParams[T]
	heads int
	eps   float64
	buf   *nn.Arena[T] // nil: fresh buffers each pass
	dev   *nn.Device   // nil: the host in T
}

// vgCache keeps a forward pass's activations, as tensors of the network's
// backend.
type vgCache[T nn.Float] struct {
	B, S                       int
	fromPatches, fromClass     []int // the Rows that lay out the ViT's input
	clsRows                    []int // each sequence's class-token row
	patches                    compute.Tensor
	layers                     []nn.PreLNCache[T]
	nf                         nn.NormSave
	cls, poolPre, pooled       compute.Tensor // B × H
	imgPre, imgT, txtPre, txtT compute.Tensor // B × joint
	wordsT                     compute.Tensor // B × wordDim
	img, txt                   []T            // the image and text features I_e and T_e, on the host
	keyValid                   []bool
}

// forward computes the image features tanh(W_i·pooler + b_i) of the B
// images pix (each C×S×S, preprocessed) and the text features
// tanh(W_t·w + b_t) of the B word vectors words (B × wordDim).
func (n *vgNetwork[T]) forward(ctx context.Context, pix [][]float32, words []T) (*vgCache[T], error) {
	p, a := n.p, n.buf
	a.Reset()
	B := len(pix)
	H := len(p.cls)
	C, P, Sz := p.channels, p.patchSize, p.imageSize
	np := (Sz / P) * (Sz / P)
	S := np + 1
	rows := B * S
	if len(words) != B*p.txt.In {
		return nil, fmt.Errorf("vg training: %d word-vector values for %d examples of width %d", len(words), B, p.txt.In)
	}
	for i, px := range pix {
		if len(px) != C*Sz*Sz {
			return nil, fmt.Errorf("vg training: image %d has %d pixel values, the ViT takes %d×%d×%d", i, len(px), C, Sz, Sz)
		}
	}
	c := &vgCache[T]{B: B, S: S, layers: make([]nn.PreLNCache[T], len(p.layers))}
	c.keyValid = make([]bool, rows)
	for i := range c.keyValid {
		c.keyValid[i] = true
	}
	e := n.pass(c)
	be, t := e.TrainBackend(), e.TensorOf
	// The embeddings, as the inference ViT lays them out: patches through
	// the patch projection, the class token in front, positions added.
	patches := a.Get(B * np * p.patch.In)
	nn.Patchify(pix, C, Sz, P, patches)
	c.patches = e.Upload(patches)
	emb := e.Buffer(B * np * H)
	p.patch.Tensors(t).Forward(be, emb, c.patches, B*np, compute.Identity)
	c.fromPatches, c.fromClass = nn.PatchRows(B, np)
	x := e.Buffer(rows * H)
	be.Rows(x, emb, H, c.fromPatches)
	be.Rows(x, t(p.cls), H, c.fromClass)
	be.Embed(x, H, []compute.Tensor{x, t(p.pos)}, [][]int{nil, nil}, []int{0, S})
	for li := range p.layers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		x = nn.PreLNForwardT(p.layers[li].Tensors(t), x, e, &c.layers[li])
	}
	// ViTModel's final layernorm (on the class-token rows, the only ones
	// the pooler reads), pooler and the two heads.
	c.clsRows = make([]int, B)
	for b := range c.clsRows {
		c.clsRows[b] = b * S
	}
	topCLS := e.Buffer(B * H)
	be.Rows(topCLS, x, H, c.clsRows)
	c.cls = e.Buffer(B * H)
	c.nf = nn.NormSave{XHat: e.Buffer(B * H), RStd: e.Buffer(B)}
	p.ln.Tensors(t).Forward(be, c.cls, topCLS, H, n.eps, &c.nf)
	c.poolPre, c.pooled = e.Buffer(B*H), e.Buffer(B*H)
	p.pooler.Tensors(t).ForwardSave(be, c.pooled, c.poolPre, c.cls, B, compute.Tanh)
	E := p.img.Out
	c.imgPre, c.imgT = e.Buffer(B*E), e.Buffer(B*E)
	p.img.Tensors(t).ForwardSave(be, c.imgT, c.imgPre, c.pooled, B, compute.Tanh)
	c.wordsT = e.Upload(words)
	c.txtPre, c.txtT = e.Buffer(B*E), e.Buffer(B*E)
	p.txt.Tensors(t).ForwardSave(be, c.txtT, c.txtPre, c.wordsT, B, compute.Tanh)
	c.img, c.txt = e.Download(c.imgT, B*E), e.Download(c.txtT, B*E)
	return c, nil
}

// backward accumulates into g the gradients of the parameters, given the
// gradients dImg and dTxt of the image and text features.
func (n *vgNetwork[T]) backward(ctx context.Context, c *vgCache[T], dImg, dTxt []T, g *vgParams[T]) error {
	p := n.p
	B, S := c.B, c.S
	H := len(p.cls)
	rows := B * S
	E := p.img.Out
	e := n.pass(c)
	be, t := e.TrainBackend(), e.TensorOf
	// The text head: T_e = tanh(W_t·w + b_t); w is an input.
	dpre := e.Buffer(B * E)
	be.BiasActBackward(dpre, t(g.txt.B), e.Upload(dTxt), c.txtPre, E, compute.Tanh)
	p.txt.Tensors(t).Backward(be, nn.LinearT{W: t(g.txt.W)}, c.wordsT, dpre, B, nil, 0)
	// The image head and the pooler.
	be.BiasActBackward(dpre, t(g.img.B), e.Upload(dImg), c.imgPre, E, compute.Tanh)
	dPooled := e.Buffer(B * H)
	p.img.Tensors(t).Backward(be, nn.LinearT{W: t(g.img.W)}, c.pooled, dpre, B, dPooled, 0)
	be.BiasActBackward(dPooled, t(g.pooler.B), dPooled, c.poolPre, H, compute.Tanh)
	dCLS := e.Buffer(B * H)
	p.pooler.Tensors(t).Backward(be, nn.LinearT{W: t(g.pooler.W)}, c.cls, dPooled, B, dCLS, 0)
	dTopCLS := e.Buffer(B * H)
	p.ln.Tensors(t).Backward(be, g.ln.Tensors(t), &c.nf, dTopCLS, dCLS, H)
	// Only the class-token rows reach the loss.
	dx := e.Buffer(rows * H)
	be.Zero(dx)
	be.RowsBackward(dx, dTopCLS, H, c.clsRows)
	w := nn.NewPreLNWork(e)
	for li := len(p.layers) - 1; li >= 0; li-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		nn.PreLNBackwardT(p.layers[li].Tensors(t), g.layers[li].Tensors(t), &c.layers[li], dx, e, w)
	}
	// The embeddings: positions (every row), the class token, the patches.
	be.EmbedBackward([]compute.Tensor{nil, t(g.pos)}, H, [][]int{nil, nil}, []int{0, S}, dx)
	be.RowsBackward(t(g.cls), dx, H, c.fromClass)
	dEmb := e.Buffer(B * (S - 1) * H)
	be.Zero(dEmb)
	be.RowsBackward(dEmb, dx, H, c.fromPatches)
	p.patch.Tensors(t).Backward(be, g.patch.Tensors(t), c.patches, dEmb, B*(S-1), nil, 0)
	return nil
}

// pass returns the encoder pass of forward cache c: the batch and the
// ViT's exact GELU (no dropout), with the network's arena.
func (n *vgNetwork[T]) pass(c *vgCache[T]) *nn.EncoderPass[T] {
	e := &nn.EncoderPass[T]{
		B: c.B, S: c.S, H: len(n.p.cls), Heads: n.heads, KeyValid: c.keyValid, Eps: n.eps,
		Act:   compute.GELU,
		Arena: n.buf,
	}
	nn.Attach(e, n.dev)
	return e
}
