package randmodel

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
)

// WriteGloVe writes a GloVe text file (a word and dim space-separated
// values per line, as glove.6B.300d.txt) with a normal(0, 0.3) vector for
// each word.
func WriteGloVe(path string, words []string, dim int, seed int64) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	w := bufio.NewWriter(f)
	rng := rand.New(rand.NewSource(seed))
	for _, word := range words {
		w.WriteString(word)
		for range dim {
			fmt.Fprintf(w, " %.6f", rng.NormFloat64()*0.3)
		}
		w.WriteByte('\n')
	}
	return w.Flush()
}
