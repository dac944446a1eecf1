package encoders

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/imageproc"
)

// patchEmbedding is the convolution with kernel and stride equal to the
// patch size that ViT and CLIP use to embed image patches, computed as a
// matrix product over the patches laid out as rows (im2col). The weight is
// PyTorch's Conv2d [hidden, channels, patch, patch]; CLIP has no bias.
type patchEmbedding struct {
	proj                     linear // [hidden, channels·patch·patch]
	channels, patch, imgSize int
}

func (p *patchEmbedding) numPatches() int { return (p.imgSize / p.patch) * (p.imgSize / p.patch) }

// checkImages validates a batch of images against the model's input size.
func (p *patchEmbedding) checkImages(imgs []imageproc.PixelValues) error {
	if len(imgs) == 0 {
		return fmt.Errorf("empty batch")
	}
	for i, im := range imgs {
		if im.Channels != p.channels || im.Height != p.imgSize || im.Width != p.imgSize {
			return fmt.Errorf("image %d is %d×%d×%d, the model takes %d×%d×%d (preprocess with the model's processor)",
				i, im.Channels, im.Height, im.Width, p.channels, p.imgSize, p.imgSize)
		}
		if len(im.Data) != im.Channels*im.Height*im.Width {
			return fmt.Errorf("image %d has %d values for %d×%d×%d", i, len(im.Data), im.Channels, im.Height, im.Width)
		}
	}
	return nil
}

// apply writes the patch embeddings of every image, [B·N, hidden], into dst.
func (p *patchEmbedding) apply(dst []float32, imgs []imageproc.PixelValues) {
	g := p.imgSize / p.patch
	n := g * g
	k := p.channels * p.patch * p.patch
	cols := make([]float32, len(imgs)*n*k)
	for b, im := range imgs {
		for py := 0; py < g; py++ {
			for px := 0; px < g; px++ {
				row := cols[((b*n)+py*g+px)*k:]
				i := 0
				for c := 0; c < p.channels; c++ {
					for y := 0; y < p.patch; y++ {
						src := im.Data[(c*p.imgSize+py*p.patch+y)*p.imgSize+px*p.patch:]
						copy(row[i:i+p.patch], src[:p.patch])
						i += p.patch
					}
				}
			}
		}
	}
	p.proj.apply(dst, cols, len(imgs)*n)
}

// convAsLinear reads a Conv2d weight [out, c, k, k] as a linear layer over
// flattened patches.
func (r *weightReader) convAsLinear(prefix string, out, channels, patch int, bias bool) linear {
	l := linear{w: r.tensor(prefix+".weight", out, channels, patch, patch), in: channels * patch * patch, out: out}
	if bias {
		l.b = r.tensor(prefix+".bias", out)
	}
	return l
}

// embed writes the input of the first layer, [B·(1+N), hidden]: the class
// embedding followed by the patch embeddings of each image, plus the
// position embeddings pos [(1+N), hidden].
func (p *patchEmbedding) embed(imgs []imageproc.PixelValues, class, pos []float32) []float32 {
	B, N, H := len(imgs), p.numPatches(), p.proj.out
	seq := N + 1
	patches := make([]float32, B*N*H)
	p.apply(patches, imgs)
	x := make([]float32, B*seq*H)
	for b := 0; b < B; b++ {
		copy(x[b*seq*H:], class[:H])
		copy(x[(b*seq+1)*H:(b+1)*seq*H], patches[b*N*H:(b+1)*N*H])
	}
	for i := 0; i < B*seq; i++ {
		row, ps := x[i*H:(i+1)*H], pos[(i%seq)*H:]
		for j := range row {
			row[j] += ps[j]
		}
	}
	return x
}
