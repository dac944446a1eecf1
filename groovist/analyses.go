package groovist

import (
	"math"
	"strings"
)

// temporalMisalignment is the paper's T (eq. 3a/3b): sentence k is paired
// with image k; T_k is the share of sentence k's scored phrases whose best
// image is not k; T is the mean of T_k over the sentences that have an
// image and at least one scored phrase. A phrase that occurs in several
// sentences counts in each (its best image is a property of the story).
func temporalMisalignment(sentences [][]string, nps []NPScore, images int) float64 {
	if sentences == nil {
		return math.NaN()
	}
	best := make(map[string]int, len(nps))
	for _, np := range nps {
		best[np.NP] = np.BestImage
	}
	sum, n := 0.0, 0
	for k, sent := range sentences {
		if k >= images {
			break
		}
		mis, cnt := 0, 0
		for _, p := range sent {
			b, ok := best[p]
			if !ok {
				continue // a pronoun
			}
			cnt++
			if b != k {
				mis++
			}
		}
		if cnt > 0 {
			sum += float64(mis) / float64(cnt)
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// idfWeight is the mean idf of a phrase's words that have one, 1 if none.
func idfWeight(idf map[string]float64, np string) float64 {
	sum, n := 0.0, 0
	for _, w := range strings.Split(strings.TrimSpace(np), " ") {
		if v, ok := idf[w]; ok {
			sum += v
			n++
		}
	}
	if n == 0 {
		return 1
	}
	return sum / float64(n)
}
