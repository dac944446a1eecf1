package encoders

// sumEmbeddings writes word + absolute position + token type embeddings of
// width w for every token of the batch into x.
func sumEmbeddings(x []float32, tb *textBatch, word, pos, typ []float32, w int) {
	for b := 0; b < tb.batch; b++ {
		for t := 0; t < tb.seq; t++ {
			i := b*tb.seq + t
			row := x[i*w : (i+1)*w]
			wd := word[tb.ids[i]*w:]
			p := pos[t*w:]
			ty := typ[tb.types[i]*w:]
			for j := range row {
				row[j] = wd[j] + p[j] + ty[j]
			}
		}
	}
}
