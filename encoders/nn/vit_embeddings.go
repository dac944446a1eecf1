package nn

import "github.com/storyeval/storyeval/internal/parallel"

// Patchify writes the flattened patches of the images pix (C×S×S each,
// channels first) into dst in row-major patch order, each patch flattened
// (channel, row, column) as a Conv2d weight [H, C, P, P] is stored, so
// that the patch embedding is a linear layer over the rows (ViT's and
// CLIP's vision towers, for scoring and for training).
func Patchify[T Float](pix [][]float32, C, S, P int, dst []T) {
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

// PatchRows returns the Rows indices that lay out B sequences of a class
// token followed by N patch embeddings: the patch row of each output row
// (−1 at the class token) and the class-token row (0 at the class token,
// −1 elsewhere).
func PatchRows(B, N int) (fromPatches, fromClass []int) {
	seq := N + 1
	fromPatches, fromClass = make([]int, B*seq), make([]int, B*seq)
	for i := range fromPatches {
		b, t := i/seq, i%seq
		fromPatches[i], fromClass[i] = b*N+t-1, -1
		if t == 0 {
			fromPatches[i], fromClass[i] = -1, 0
		}
	}
	return fromPatches, fromClass
}
