package groovist

import "errors"

// Ablations are the variants of GROOViST the paper evaluates (Surikuchi
// et al. 2023, §5): −C (NoConcreteness: every phrase weighs 1), −P
// (NoPenalty), +idf (IDF: idf weights over the scored stories), +Ns
// (Nouns: single nouns instead of noun phrases), and the tanh mapping of
// groovist.py's output. The zero value is the full metric.
type Ablations struct {
	NoConcreteness, NoPenalty, IDF, Nouns, Tanh bool
}

// Options returns the options of the ablations with θ theta; with IDF the
// idf weights are computed over inputs (InputsIDF). NoConcreteness and IDF
// exclude each other.
func (a Ablations) Options(theta Theta, inputs []Input) (Options, error) {
	o := Options{Theta: theta, NoPenalty: a.NoPenalty, Tanh: a.Tanh}
	if a.Nouns {
		o.Units = Nouns
	}
	switch {
	case a.NoConcreteness && a.IDF:
		return Options{}, errors.New("no concreteness (uniform weights) and idf weights exclude each other")
	case a.NoConcreteness:
		o.Weighting = Uniform
	case a.IDF:
		o.Weighting = IDF
		var err error
		if o.IDF, err = InputsIDF(inputs, o.Units); err != nil {
			return Options{}, err
		}
	}
	return o, nil
}
