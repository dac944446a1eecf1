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

// vgParams holds every trainable parameter of Region2PhraseModel: the ViT
// with its pooler (nn.ViTParams, walked by nn.WalkViT) and the two heads;
// the same type holds gradients and Adam's moments, aligned through
// tensors().
type vgParams[T nn.Float] struct {
	nn.ViTParams[T]
	img, txt nn.Linear[T] // image_encoder.linear, text_encoder.linear
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
	return newVGParamsOf(*nn.NewViTParams[T](g.shape(), true), g.joint, g.wordDim)
}

// shape returns the ViT's parameter shapes.
func (g vgGeometry) shape() nn.ViTShape {
	return nn.ViTShape{Hidden: g.hidden, Intermediate: g.intermediate, Layers: g.layers,
		Channels: g.channels, Patch: g.patchSize, ImageSize: g.imageSize}
}

// newVGParamsOf adds zeroed heads (joint-wide, over a wordDim-wide phrase
// vector) to a ViT's parameters.
func newVGParamsOf[T nn.Float](vit nn.ViTParams[T], joint, wordDim int) *vgParams[T] {
	return &vgParams[T]{ViTParams: vit, img: nn.NewLinear[T](joint, vit.Shape.Hidden), txt: nn.NewLinear[T](joint, wordDim)}
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
// order — ViT's walk, then the heads —: the one parameter walk that tensors, gradients, Adam's moments,
// checkpoints and the scorer's model are made from.
func (p *vgParams[T]) walk(add nn.TensorNamer[T]) {
	p.Walk(nn.Lister[T]{Add: add}, vgViTPrefix)
	add.Linear(vgImageHeadPrefix, &p.img)
	add.Linear(vgTextHeadPrefix, &p.txt)
}

// zeroLike returns zeroed parameters of p's shapes.
func (p *vgParams[T]) zeroLike() *vgParams[T] {
	return newVGParamsOf(*p.ZeroLike(), p.img.Out, p.txt.In)
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
	H := p.Shape.Hidden
	C, P, Sz := p.Shape.Channels, p.Shape.Patch, p.Shape.ImageSize
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
	c := &vgCache[T]{B: B, S: S, layers: make([]nn.PreLNCache[T], len(p.Layers))}
	c.keyValid = make([]bool, rows)
	for i := range c.keyValid {
		c.keyValid[i] = true
	}
	e := n.pass(c)
	be, t := e.TrainBackend(), e.TensorOf
	// The embeddings, as the inference ViT lays them out: patches through
	// the patch projection, the class token in front, positions added.
	patches := a.Get(B * np * p.PatchEmbed.In)
	nn.Patchify(pix, C, Sz, P, patches)
	c.patches = e.Upload(patches)
	emb := e.Buffer(B * np * H)
	p.PatchEmbed.Tensors(t).Forward(be, emb, c.patches, B*np, compute.Identity)
	c.fromPatches, c.fromClass = nn.PatchRows(B, np)
	x := e.Buffer(rows * H)
	be.Rows(x, emb, H, c.fromPatches)
	be.Rows(x, t(p.CLS), H, c.fromClass)
	be.Embed(x, H, []compute.Tensor{x, t(p.Pos)}, [][]int{nil, nil}, []int{0, S})
	for li := range p.Layers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		x = nn.PreLNForwardT(p.Layers[li].Tensors(t), x, e, &c.layers[li])
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
	p.Norm.Tensors(t).Forward(be, c.cls, topCLS, H, n.eps, &c.nf)
	c.poolPre, c.pooled = e.Buffer(B*H), e.Buffer(B*H)
	p.Pooler.Tensors(t).ForwardSave(be, c.pooled, c.poolPre, c.cls, B, compute.Tanh)
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
	H := p.Shape.Hidden
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
	be.BiasActBackward(dPooled, t(g.Pooler.B), dPooled, c.poolPre, H, compute.Tanh)
	dCLS := e.Buffer(B * H)
	p.Pooler.Tensors(t).Backward(be, nn.LinearT{W: t(g.Pooler.W)}, c.cls, dPooled, B, dCLS, 0)
	dTopCLS := e.Buffer(B * H)
	p.Norm.Tensors(t).Backward(be, g.Norm.Tensors(t), &c.nf, dTopCLS, dCLS, H)
	// Only the class-token rows reach the loss.
	dx := e.Buffer(rows * H)
	be.Zero(dx)
	be.RowsBackward(dx, dTopCLS, H, c.clsRows)
	w := nn.NewPreLNWork(e)
	for li := len(p.Layers) - 1; li >= 0; li-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		nn.PreLNBackwardT(p.Layers[li].Tensors(t), g.Layers[li].Tensors(t), &c.layers[li], dx, e, w)
	}
	// The embeddings: positions (every row), the class token, the patches.
	be.EmbedBackward([]compute.Tensor{nil, t(g.Pos)}, H, [][]int{nil, nil}, []int{0, S}, dx)
	be.RowsBackward(t(g.CLS), dx, H, c.fromClass)
	dEmb := e.Buffer(B * (S - 1) * H)
	be.Zero(dEmb)
	be.RowsBackward(dEmb, dx, H, c.fromPatches)
	p.PatchEmbed.Tensors(t).Backward(be, g.PatchEmbed.Tensors(t), c.patches, dEmb, B*(S-1), nil, 0)
	return nil
}

// pass returns the encoder pass of forward cache c: the batch and the
// ViT's exact GELU (no dropout), with the network's arena.
func (n *vgNetwork[T]) pass(c *vgCache[T]) *nn.EncoderPass[T] {
	e := &nn.EncoderPass[T]{
		B: c.B, S: c.S, H: n.p.Shape.Hidden, Heads: n.heads, KeyValid: c.keyValid, Eps: n.eps,
		Act:   compute.GELU,
		Arena: n.buf,
	}
	nn.Attach(e, n.dev)
	return e
}
