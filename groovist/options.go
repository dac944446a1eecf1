package groovist

// θ presets of GROOViST's config.ini, in the ×2.5 space of the scaled
// alignment scores: the mean NP score over each dataset.
const (
	ThetaVIST  = 0.6159241924121119
	ThetaAESOP = 0.5949957337433985
	ThetaVWP   = 0.6193549522736276
)

// Theta is the penalty threshold θ. The zero value is ThetaVIST, the
// threshold of the reference's default --dataset VIST.
type Theta struct {
	value float64
	set   bool
}

// ThetaOf returns the threshold x (a preset constant, EstimateTheta's
// result, or any value, 0 included).
func ThetaOf(x float64) Theta { return Theta{value: x, set: true} }

// Value returns θ.
func (t Theta) Value() float64 {
	if !t.set {
		return ThetaVIST
	}
	return t.value
}

// Weighting selects the weight of each noun phrase's score.
type Weighting int

const (
	// Concreteness weights by the mean Brysbaert rating of the phrase's
	// words (the reference).
	Concreteness Weighting = iota
	// Uniform weights every phrase 1: the paper's −C ablation.
	Uniform
	// IDF weights by the mean inverse document frequency of the phrase's
	// words (Options.IDF, see story.ComputeIDF with SplitWords), 1 when
	// none is known: the paper's +idf ablation. The paper publishes no
	// code for it; this is our reading.
	IDF
)

// Units selects what is scored when phrases are extracted from the text.
type Units int

const (
	// NounPhrases are noun chunks (the reference, via spaCy).
	NounPhrases Units = iota
	// Nouns are single nouns (words tagged NN, NNS, NNP, NNPS): the paper's
	// +Ns ablation.
	Nouns
)

// Options configure GROOViST. The zero value is the reference's behaviour
// with θ = ThetaVIST.
type Options struct {
	// Theta is the penalty threshold.
	Theta Theta
	// NoPenalty keeps scores below θ as they are: the paper's −P ablation.
	NoPenalty bool
	// Weighting selects concreteness (default), uniform or idf weights.
	Weighting Weighting
	// IDF maps a word to its idf, for Weighting IDF.
	IDF map[string]float64
	// Units selects noun phrases (default) or nouns when a story's phrases
	// are extracted from its text; given phrase lists are used as they are.
	Units Units
	// Tanh maps each story's score into [−1, 1], as groovist.py prints it.
	Tanh bool
	// Progress, when set, is called after each batch of embeddings with
	// the number of texts and crops embedded so far and the total.
	Progress func(done, total int)
}
