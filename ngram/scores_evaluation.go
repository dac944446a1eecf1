package ngram

// Evaluation returns s as an Evaluation of one column named column, its
// items in c's order (the corpus s was computed on).
func (s Scores) Evaluation(c *Corpus, column string) *Evaluation {
	ev := &Evaluation{Columns: []string{column}, Corpus: []float64{s.Corpus}, IDs: c.IDs(), Items: make([][]float64, c.Len())}
	for i, id := range ev.IDs {
		ev.Items[i] = []float64{s.Items[id]}
	}
	return ev
}
