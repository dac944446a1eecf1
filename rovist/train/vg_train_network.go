package train

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/internal/parallel"
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
}

// vgCache keeps a forward pass's activations.
type vgCache[T nn.Float] struct {
	B, S                 int
	patches              []T // B·N × C·P·P
	layers               []nn.PreLNCache[T]
	top                  []T // the last layer's output
	nf                   nn.NormCache[T]
	cls, poolPre, pooled []T // B × H
	imgPre, img          []T // B × joint: the image features I_e
	words, txt           []T // B × wordDim, B × joint: T_e
	keyValid             []bool
}

// patchify writes the flattened patches of B images (C×S×S each, channels
// first) in row-major patch order, each flattened (channel, row, column) as
// the conv weight is.
func patchify[T nn.Float](pix [][]float32, C, S, P int, dst []T) {
	n := S / P
	per := C * P * P
	parallel.Chunks(len(pix)*n*n, 16, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			b, pi := r/(n*n), r%(n*n)
			py, px := pi/n, pi%n
			row := dst[r*per : (r+1)*per]
			img := pix[b]
			j := 0
			for c := 0; c < C; c++ {
				for ky := 0; ky < P; ky++ {
					src := img[c*S*S+(py*P+ky)*S+px*P:]
					for kx := 0; kx < P; kx++ {
						row[j] = T(src[kx])
						j++
					}
				}
			}
		}
	})
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
		return nil, fmt.Errorf("rovist: vg training: %d word-vector values for %d examples of width %d", len(words), B, p.txt.In)
	}
	for i, px := range pix {
		if len(px) != C*Sz*Sz {
			return nil, fmt.Errorf("rovist: vg training: image %d has %d pixel values, the ViT takes %d×%d×%d", i, len(px), C, Sz, Sz)
		}
	}
	c := &vgCache[T]{B: B, S: S, layers: make([]nn.PreLNCache[T], len(p.layers)), words: words}
	c.patches = a.Get(B * np * p.patch.In)
	patchify(pix, C, Sz, P, c.patches)
	emb := a.Get(B * np * H)
	nn.LinearForward(&p.patch, c.patches, B*np, emb)
	x := a.Get(rows * H)
	for b := 0; b < B; b++ {
		row := x[b*S*H : b*S*H+H]
		for j := range row {
			row[j] = p.cls[j] + p.pos[j]
		}
		for t := 1; t < S; t++ {
			dst, src, pos := x[(b*S+t)*H:(b*S+t+1)*H], emb[(b*np+t-1)*H:], p.pos[t*H:]
			for j := range dst {
				dst[j] = src[j] + pos[j]
			}
		}
	}
	c.keyValid = make([]bool, rows)
	for i := range c.keyValid {
		c.keyValid[i] = true
	}
	e := n.pass(c)
	for li := range p.layers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		x = nn.PreLNForward(&p.layers[li], x, e, &c.layers[li])
	}
	c.top = x
	// Only the CLS rows of the final LayerNorm reach the pooler.
	c.cls = a.Get(B * H)
	topCLS := a.Get(B * H)
	for b := 0; b < B; b++ {
		copy(topCLS[b*H:(b+1)*H], x[b*S*H:b*S*H+H])
	}
	nn.LayerNormForward(&p.ln, topCLS, B, H, n.eps, c.cls, &c.nf, a)
	c.poolPre, c.pooled = a.Get(B*H), a.Get(B*H)
	nn.LinearForward(&p.pooler, c.cls, B, c.poolPre)
	tanhInto(c.poolPre, c.pooled)
	E := p.img.Out
	c.imgPre, c.img = a.Get(B*E), a.Get(B*E)
	nn.LinearForward(&p.img, c.pooled, B, c.imgPre)
	tanhInto(c.imgPre, c.img)
	c.txt = a.Get(B * E)
	txtPre := a.Get(B * E)
	nn.LinearForward(&p.txt, words, B, txtPre)
	tanhInto(txtPre, c.txt)
	return c, nil
}

// backward accumulates into g the gradients of the parameters, given the
// gradients dImg and dTxt of the image and text features.
func (n *vgNetwork[T]) backward(ctx context.Context, c *vgCache[T], dImg, dTxt []T, g *vgParams[T]) error {
	p, a := n.p, n.buf
	B, S := c.B, c.S
	H := len(p.cls)
	rows := B * S
	E := p.img.Out
	dpre := a.Get(B * E)
	tanhBackward(c.txt, dTxt, dpre)
	nn.LinearBackward(&p.txt, &g.txt, c.words, dpre, B, nil)
	tanhBackward(c.img, dImg, dpre)
	dPooled := a.Get(B * H)
	nn.LinearBackward(&p.img, &g.img, c.pooled, dpre, B, dPooled)
	dPoolPre := a.Get(B * H)
	tanhBackward(c.pooled, dPooled, dPoolPre)
	dCLS := a.Get(B * H)
	nn.LinearBackward(&p.pooler, &g.pooler, c.cls, dPoolPre, B, dCLS)
	dTopCLS := a.Get(B * H)
	nn.LayerNormBackward(&p.ln, &g.ln, &c.nf, dCLS, B, H, dTopCLS)
	dx := a.Zeros(rows * H)
	for b := 0; b < B; b++ {
		copy(dx[b*S*H:b*S*H+H], dTopCLS[b*H:(b+1)*H])
	}
	e := n.pass(c)
	w := nn.NewPreLNWork(e)
	for li := len(p.layers) - 1; li >= 0; li-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		nn.PreLNBackward(&p.layers[li], &g.layers[li], &c.layers[li], dx, e, w)
	}
	// Embeddings: x[b,0] = cls + pos[0], x[b,t] = patch(b,t−1) + pos[t].
	for b := 0; b < B; b++ {
		for t := 0; t < S; t++ {
			src, dst := dx[(b*S+t)*H:(b*S+t+1)*H], g.pos[t*H:(t+1)*H]
			for j, v := range src {
				dst[j] += v
			}
		}
		for j, v := range dx[b*S*H : b*S*H+H] {
			g.cls[j] += v
		}
	}
	np := S - 1
	dEmb := a.Get(B * np * H)
	for b := 0; b < B; b++ {
		copy(dEmb[b*np*H:(b+1)*np*H], dx[(b*S+1)*H:(b+1)*S*H])
	}
	nn.LinearBackward(&p.patch, &g.patch, c.patches, dEmb, B*np, nil)
	return nil
}

// pass returns the encoder pass of forward cache c: the batch and the
// ViT's exact GELU (no dropout), with the network's arena.
func (n *vgNetwork[T]) pass(c *vgCache[T]) *nn.EncoderPass[T] {
	return &nn.EncoderPass[T]{
		B: c.B, S: c.S, H: len(n.p.cls), Heads: n.heads, KeyValid: c.keyValid, Eps: n.eps,
		Act:   compute.GELU,
		Arena: n.buf,
	}
}

func tanhInto[T nn.Float](x, y []T) {
	for i, v := range x {
		y[i] = nn.Tanh(v)
	}
}

// tanhBackward writes dx = dy·(1 − y²) for y = tanh(x).
func tanhBackward[T nn.Float](y, dy, dx []T) {
	for i, v := range y {
		dx[i] = dy[i] * (1 - v*v)
	}
}
