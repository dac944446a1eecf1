package compute

import "github.com/storyeval/storyeval/internal/parallel"

// EmbedHost is Embed on the host: every row r of dst (w values) becomes
// the sum of the rows gathered from each table (ids[i][r]; r mod
// period[i] for nil ids[i]; r itself for period 0, where dst may be that
// table), summed left to right in T, as BERT's word + position + token
// type.
func EmbedHost[T Float](dst []T, w int, tables [][]T, ids [][]int, period []int) {
	parallel.Chunks(len(dst)/w, minRows, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			row := dst[r*w : (r+1)*w]
			for i, t := range tables {
				at := embedRow(r, i, ids, period)
				tr := t[at*w : (at+1)*w]
				if i == 0 {
					copy(row, tr)
					continue
				}
				addTo(row, tr)
			}
		}
	})
}

// embedRow is the row of table i that Embed reads for output row r.
func embedRow(r, i int, ids [][]int, period []int) int {
	switch {
	case ids[i] != nil:
		return ids[i][r]
	case period[i] > 0:
		return r % period[i]
	}
	return r
}

// EmbedBackwardHost is EmbedBackward on the host: dy's rows are added, in
// row order, to the rows of each non-nil grads[i] that Embed read (ids,
// period as for Embed), so the sums do not depend on scheduling.
func EmbedBackwardHost[T Float](grads [][]T, w int, ids [][]int, period []int, dy []T) {
	rows := len(dy) / w
	for i, g := range grads {
		if g == nil {
			continue
		}
		for r := 0; r < rows; r++ {
			at := embedRow(r, i, ids, period)
			addTo(g[at*w:(at+1)*w], dy[r*w:(r+1)*w])
		}
	}
}

// RowsBackwardHost is RowsBackward on the host: dsrc row idx[i] += dy row
// i in order of i, skipping negative indices.
func RowsBackwardHost[T Float](dsrc, dy []T, w int, idx []int) {
	for i, at := range idx {
		if at >= 0 {
			addTo(dsrc[at*w:(at+1)*w], dy[i*w:(i+1)*w])
		}
	}
}

// addTo adds x to dst element-wise.
func addTo[T Float](dst, x []T) {
	for i, v := range x {
		dst[i] += v
	}
}
