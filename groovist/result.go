package groovist

import "github.com/storyeval/storyeval/story"

// Input is one story to score.
type Input struct {
	// Story gives the id, the text (chunked when NPs is nil) and the images
	// in story order: their IDs select rows of Scorer.Entities, or, without
	// entities, their Path and Regions are cropped.
	story.Story
	// NPs, when not nil, are the story's noun phrases as the reference reads
	// them from nphrases.json (spaCy's chunks), used as given.
	NPs []string
}

// ImageStatus tells whether an image's regions could be used.
type ImageStatus struct {
	ID string
	// Regions is how many regions the image has; Used how many were
	// embedded (at most RegionsPerImage), 0 when it failed.
	Regions, Used int
	// Err is why the image contributed nothing (a crop that could not be
	// read or decoded, no region at all). Matches the reference
	// implementation, which catches the exception and leaves the image's
	// alignment row at 0 — a 0 that wins the maximum over negative
	// cosines.
	Err error
}

// NPScore is one scored noun phrase.
type NPScore struct {
	NP string
	// Weight is the phrase's weight (concreteness, 1, or idf) and Words the
	// per-word concreteness detail.
	Weight float64
	Words  []WordRating
	// Alignment holds, per image, the best cosine over its regions (0 for
	// a failed image), in float32 as the reference.
	Alignment []float32
	// MaxCosine is the maximum of Alignment; BestImage and BestRegion
	// locate it (BestRegion is -1 when a failed image's 0 won).
	MaxCosine             float32
	BestImage, BestRegion int
	// Scaled is 2.5 × MaxCosine, the value compared with θ.
	Scaled float32
	// Score is the penalised, weighted score (the reference's NP_scores).
	Score float32
}

// Result is the GROOViST score of one story.
type Result struct {
	ID string
	// Input are the phrases before filtering (given or extracted).
	Input []string
	// NPs are the scored phrases: Input without pronouns and repeats.
	NPs    []NPScore
	Images []ImageStatus
	// Score is GROOViST: the sum of the NP scores over their number
	// (float32 as the reference), tanh of it with Options.Tanh. Unbounded
	// otherwise. NaN when no phrase is left (the reference divides 0 by 0);
	// Defined is false then.
	Score   float64
	Defined bool
	// TemporalMisalignment is the paper's T (eq. 3): per sentence with an
	// image, the share of its phrases whose best image is not the
	// sentence's own, averaged over sentences. NaN when unknown (phrases
	// given without sentences, or no sentence has both).
	TemporalMisalignment float64
	// NPProportion is the paper's P (eq. 4): scored phrases over words
	// (NLTK word tokens with a letter or digit). NaN without a text.
	NPProportion float64
}
