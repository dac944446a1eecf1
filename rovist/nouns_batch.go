package rovist

import "github.com/storyeval/storyeval/internal/parallel"

// NounsAll extracts the nouns of many stories (Nouns) on up to GOMAXPROCS
// goroutines and returns them in input order. errs[i] is the error of story
// i (nil when it was tagged), so one bad story does not hide the others'
// nouns. Tagging is the slow step of RoViST's text side, which is why a
// caller preparing many stories for several metrics extracts them once.
func NounsAll(stories []string) (nouns [][][]string, errs []error) {
	nouns = make([][][]string, len(stories))
	errs = make([]error, len(stories))
	parallel.Chunks(len(stories), 8, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			nouns[i], errs[i] = Nouns(stories[i])
		}
	})
	return nouns, errs
}
