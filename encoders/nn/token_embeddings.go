package nn

import "github.com/storyeval/storyeval/internal/parallel"

// TokenEmbeddingsForward writes into dst (len(ids)×E) the sums of BERT's
// and ALBERT's embeddings, word[ids[r]] + pos[r mod S] + typ[types[r]],
// for rows r of sequences of S tokens.
func TokenEmbeddingsForward[T Float](word, pos, typ []T, ids, types []int, S, E int, dst []T) {
	parallel.Chunks(len(ids), MinRows, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			w := word[ids[r]*E : (ids[r]+1)*E]
			ps := pos[(r%S)*E : (r%S+1)*E]
			ty := typ[types[r]*E : (types[r]+1)*E]
			dr := dst[r*E : (r+1)*E]
			for j := range dr {
				dr[j] = w[j] + ps[j] + ty[j]
			}
		}
	})
}

// TokenEmbeddingsBackward adds the gradient d (len(ids)×E) of
// TokenEmbeddingsForward's output to the gradients of the three tables,
// scattering in row order so that the sums are deterministic.
func TokenEmbeddingsBackward[T Float](gword, gpos, gtyp []T, ids, types []int, S, E int, d []T) {
	for r := range ids {
		dr := d[r*E : (r+1)*E]
		AddInPlace(gword[ids[r]*E:(ids[r]+1)*E], dr)
		AddInPlace(gpos[(r%S)*E:(r%S+1)*E], dr)
		AddInPlace(gtyp[types[r]*E:(types[r]+1)*E], dr)
	}
}
