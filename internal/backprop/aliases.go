package backprop

import (
	"math/rand"

	"github.com/storyeval/storyeval/encoders/nn"
)

// Types and constants of encoders/nn under their former names.
type (
	Float                   = nn.Float
	Linear[T Float]         = nn.Linear[T]
	Norm[T Float]           = nn.Norm[T]
	NormCache[T Float]      = nn.NormCache[T]
	Arena[T Float]          = nn.Arena[T]
	Adam                    = nn.Adam
	Dropout                 = nn.Dropout
	EncoderLayer[T Float]   = nn.EncoderLayer[T]
	EncoderLayerNames       = nn.EncoderLayerNames
	EncoderPass[T Float]    = nn.EncoderPass[T]
	PostLNCache[T Float]    = nn.PostLNCache[T]
	PreLNCache[T Float]     = nn.PreLNCache[T]
	TensorNamer[T Float]    = nn.TensorNamer[T]
	AttentionCache[T Float] = nn.AttentionCache[T]
	PostLNWork[T Float]     = nn.PostLNWork[T]
	PreLNWork[T Float]      = nn.PreLNWork[T]
)

// Dropout mask sites, as nn's.
const (
	SiteEmbeddings = nn.SiteEmbeddings
	SiteAttnProbs  = nn.SiteAttnProbs
	SiteAttnOut    = nn.SiteAttnOut
	SiteFFNOut     = nn.SiteFFNOut
	MinRows        = nn.MinRows
)

// NewDropout is nn.NewDropout.
func NewDropout(p float64, rng *rand.Rand) Dropout { return nn.NewDropout(p, rng) }

// Site is nn.Site.
func Site(layer, s int) uint64 { return nn.Site(layer, s) }

// ApplyDropout is nn.ApplyDropout.
func ApplyDropout[T Float](d Dropout, stream uint64, x []T) { nn.ApplyDropout(d, stream, x) }

// NewLinear is nn.NewLinear.
func NewLinear[T Float](out, in int) Linear[T] { return nn.NewLinear[T](out, in) }

// NewNorm is nn.NewNorm.
func NewNorm[T Float](h int) Norm[T] { return nn.NewNorm[T](h) }

// NewEncoderLayer is nn.NewEncoderLayer.
func NewEncoderLayer[T Float](hidden, intermediate int) EncoderLayer[T] {
	return nn.NewEncoderLayer[T](hidden, intermediate)
}

// LinearForward is nn.LinearForward.
func LinearForward[T Float](l *Linear[T], x []T, rows int, y []T) { nn.LinearForward(l, x, rows, y) }

// LinearBackward is nn.LinearBackward.
func LinearBackward[T Float](l, g *Linear[T], x, dy []T, rows int, dx []T) {
	nn.LinearBackward(l, g, x, dy, rows, dx)
}

// LayerNormForward is nn.LayerNormForward.
func LayerNormForward[T Float](n *Norm[T], x []T, rows, H int, eps float64, y []T, c *NormCache[T], a *Arena[T]) {
	nn.LayerNormForward(n, x, rows, H, eps, y, c, a)
}

// LayerNormBackward is nn.LayerNormBackward.
func LayerNormBackward[T Float](n, g *Norm[T], c *NormCache[T], dy []T, rows, H int, dx []T) {
	nn.LayerNormBackward(n, g, c, dy, rows, H, dx)
}

// GELUForward is nn.GELUForward.
func GELUForward[T Float](x, y []T) { nn.GELUForward(x, y) }

// GELUBackward is nn.GELUBackward.
func GELUBackward[T Float](x, dy []T) { nn.GELUBackward(x, dy) }

// Tanh is nn.Tanh.
func Tanh[T Float](x T) T { return nn.Tanh(x) }

// Convert is nn.Convert.
func Convert[D, S Float](src []S) []D { return nn.Convert[D](src) }

// AddInPlace is nn.AddInPlace.
func AddInPlace[T Float](dst, src []T) { nn.AddInPlace(dst, src) }

// TokenEmbeddingsForward is nn.TokenEmbeddingsForward.
func TokenEmbeddingsForward[T Float](word, pos, typ []T, ids, types []int, S, E int, dst []T) {
	nn.TokenEmbeddingsForward(word, pos, typ, ids, types, S, E, dst)
}

// TokenEmbeddingsBackward is nn.TokenEmbeddingsBackward.
func TokenEmbeddingsBackward[T Float](gword, gpos, gtyp []T, ids, types []int, S, E int, d []T) {
	nn.TokenEmbeddingsBackward(gword, gpos, gtyp, ids, types, S, E, d)
}

// PostLNForward is nn.PostLNForward.
func PostLNForward[T Float](l *EncoderLayer[T], x []T, sq, li int, e *EncoderPass[T], c *PostLNCache[T]) []T {
	return nn.PostLNForward(l, x, sq, li, e, c)
}

// PostLNBackward is nn.PostLNBackward.
func PostLNBackward[T Float](l, g *EncoderLayer[T], c *PostLNCache[T], dx []T, li int, e *EncoderPass[T], w *PostLNWork[T]) []T {
	return nn.PostLNBackward(l, g, c, dx, li, e, w)
}

// NewPostLNWork is nn.NewPostLNWork.
func NewPostLNWork[T Float](e *EncoderPass[T], intermediate int) *PostLNWork[T] {
	return nn.NewPostLNWork(e, intermediate)
}

// PreLNForward is nn.PreLNForward.
func PreLNForward[T Float](l *EncoderLayer[T], x []T, e *EncoderPass[T], c *PreLNCache[T]) []T {
	return nn.PreLNForward(l, x, e, c)
}

// PreLNBackward is nn.PreLNBackward.
func PreLNBackward[T Float](l, g *EncoderLayer[T], c *PreLNCache[T], dx []T, e *EncoderPass[T], w *PreLNWork[T]) {
	nn.PreLNBackward(l, g, c, dx, e, w)
}

// NewPreLNWork is nn.NewPreLNWork.
func NewPreLNWork[T Float](e *EncoderPass[T]) *PreLNWork[T] { return nn.NewPreLNWork(e) }
