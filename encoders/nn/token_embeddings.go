package nn

import "github.com/storyeval/storyeval/encoders/compute"

// TokenEmbeddingsForward writes into dst (len(ids)×E) the sums of BERT's
// and ALBERT's embeddings, word[ids[r]] + pos[r mod S] + typ[types[r]],
// for rows r of sequences of S tokens (compute.EmbedHost, the CPU
// backend's Embed).
func TokenEmbeddingsForward[T Float](word, pos, typ []T, ids, types []int, S, E int, dst []T) {
	compute.EmbedHost(dst[:len(ids)*E], E, [][]T{word, pos, typ}, [][]int{ids, nil, types}, []int{0, S, 0})
}

// TokenEmbeddingsBackward adds the gradient d (len(ids)×E) of
// TokenEmbeddingsForward's output to the gradients of the three tables,
// scattering in row order so that the sums are deterministic.
func TokenEmbeddingsBackward[T Float](gword, gpos, gtyp []T, ids, types []int, S, E int, d []T) {
	compute.EmbedBackwardHost([][]T{gword, gpos, gtyp}, E, [][]int{ids, nil, types}, []int{0, S, 0}, d[:len(ids)*E])
}
