package encoders

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/nn"
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

// apply returns the patch embeddings of every image, [B·N, hidden]: the
// patches laid out as rows on the host (im2col), uploaded, multiplied.
func (p *patchEmbedding) apply(be compute.Backend, imgs []imageproc.PixelValues) compute.Tensor {
	n, k := p.numPatches(), p.channels*p.patch*p.patch
	pix := make([][]float32, len(imgs))
	for b, im := range imgs {
		pix[b] = im.Data
	}
	cols := make([]float32, len(imgs)*n*k)
	nn.Patchify(pix, p.channels, p.imgSize, p.patch, cols)
	in := compute.Adopt(be, cols)
	dst := be.Alloc(len(imgs) * n * p.proj.out)
	p.proj.apply(be, dst, in, len(imgs)*n)
	be.Free(in)
	return dst
}

// convAsLinear reads a Conv2d weight [out, c, k, k] as a linear layer over
// flattened patches.
func (r *weightReader) convAsLinear(prefix string, out, channels, patch int, bias bool) linear {
	l := linear{w: r.param(prefix+".weight", out, channels, patch, patch), in: channels * patch * patch, out: out}
	if bias {
		l.b = r.param(prefix+".bias", out)
	}
	return l
}

// embed returns the input of the first layer, [B·(1+N), hidden]: the
// class embedding followed by the patch embeddings of each image, plus the
// position embeddings pos [(1+N), hidden].
func (p *patchEmbedding) embed(be compute.Backend, imgs []imageproc.PixelValues, class, pos compute.Tensor) compute.Tensor {
	B, N, H := len(imgs), p.numPatches(), p.proj.out
	seq := N + 1
	patches := p.apply(be, imgs)
	x := be.Alloc(B * seq * H)
	fromPatches, fromClass := nn.PatchRows(B, N)
	be.Rows(x, patches, H, fromPatches)
	be.Rows(x, class, H, fromClass)
	be.Free(patches)
	be.Embed(x, H, []compute.Tensor{x, pos}, [][]int{nil, nil}, []int{0, seq})
	return x
}
