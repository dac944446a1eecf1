package groovist

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/errtext"
	"github.com/storyeval/storyeval/internal/nphrase"
	"github.com/storyeval/storyeval/regions"
)

// RegionsPerImage is how many regions of an image GROOViST uses (B = 10 in
// utils.get_max_alignment_scores).
const RegionsPerImage = 10

// scale is GROOViST's factor on the maximum cosine (NPs_scores *= 2.5).
const scale float32 = 2.5

// Batch sizes of the CLIP forward passes.
const (
	textBatch  = 64
	imageBatch = 32
)

// Scorer computes GROOViST. Its fields are read-only after construction;
// a Scorer is safe for concurrent use.
type Scorer struct {
	// Text embeds noun phrases into unit-length vectors; NewScorer sets a
	// CLIPText (no prompt, no truncation, as groovist.py).
	Text encoders.TextEncoder
	// Images embeds preprocessed crops into unit-length vectors.
	Images encoders.ImageEncoder
	// Processor is the image preprocessing (OpenAI's clip preprocess).
	Processor *imageproc.Processor
	// Ratings are the concreteness ratings (DefaultRatings when nil).
	Ratings *Ratings
	// Pronouns are the phrases dropped (DefaultPronouns when nil).
	Pronouns *Pronouns
	// Entities and CropsDir give the regions as the reference reads them:
	// the first RegionsPerImage rows of each image in the entities CSV
	// (read with regions.Load, whose zero Options compare image ids as
	// GROOViST's pandas does), loaded from CropsDir/{image_id}_{bbox}.jpg.
	// When Entities is nil, each story image's Path is decoded and
	// cropped to its Regions.
	Entities *regions.Entities
	CropsDir string
	// Decode bounds image decoding; with no Budget, each Score call
	// decodes within a DecodeBudget of its own of the default size.
	Decode imageproc.DecodeOptions

	// Cache, when set, keeps the crops' and the noun phrases' embeddings
	// between runs: an image's crops are looked up before Images runs and
	// stored after, keyed by CacheModel, the preprocessing and each crop's
	// source bytes, box and decoding options; a phrase likewise, keyed by
	// CacheModel, its text and its token ids, when Text is a *CLIPText
	// (another TextEncoder's phrases are encoded every run). Scores are
	// bit-identical with and without it. Off (nil) by default, as the
	// reference keeps nothing.
	Cache embcache.Cache
	// CacheModel identifies the weights behind Images and Text for Cache,
	// e.g. embcache.DigestDir of the CLIP model folder (NewScorer's Text
	// and Images are the one model's towers); required with Cache.
	CacheModel embcache.Digest
}

// withBudget returns opts with a budget of the default size when it has
// none, so that the images a call decodes at once are bounded by memory.
func withBudget(opts imageproc.DecodeOptions) imageproc.DecodeOptions {
	if opts.Budget == nil {
		opts.Budget = imageproc.NewDecodeBudget(0)
	}
	return opts
}

// NewScorer returns a Scorer on a CLIP model and its tokenizer with
// OpenAI's preprocessing at the model's image size and the default ratings
// and pronouns.
func NewScorer(model *encoders.CLIP, tok *tokenize.CLIP) (*Scorer, error) {
	proc, err := openAIProcessor(model)
	if err != nil {
		return nil, err
	}
	r, err := DefaultRatings()
	if err != nil {
		return nil, err
	}
	return &Scorer{
		Text:      &CLIPText{Model: model, Tokenizer: tok},
		Images:    model,
		Processor: proc,
		Ratings:   r,
		Pronouns:  DefaultPronouns(),
	}, nil
}

func openAIProcessor(model *encoders.CLIP) (*imageproc.Processor, error) {
	cfg, err := imageproc.OpenAICLIPConfig(model.Config().VisionConfig.ImageSize)
	if err != nil {
		return nil, err
	}
	return imageproc.NewProcessor(cfg)
}

// storyPlan is what Score works out for one story before any embedding.
type storyPlan struct {
	input     []string
	kept      []string
	weights   []float64
	words     [][]WordRating
	sentences [][]string // per sentence, when extracted from the text
	images    []imagePlan
	words0    int // word count, -1 without a text
}

// Score scores the stories, in input order. Every distinct phrase and every
// distinct crop is embedded once, in batches. An error (a phrase longer than
// CLIP's context, a malformed input, a cancelled context) fails the whole
// call; an image whose crops cannot be read is reported in
// Result.Images and scored as the reference does.
func (s *Scorer) Score(ctx context.Context, inputs []Input, opts Options) ([]Result, error) {
	if s.Text == nil || s.Images == nil || s.Processor == nil {
		return nil, fmt.Errorf("Scorer needs Text, Images and Processor")
	}
	if opts.Weighting == IDF && opts.IDF == nil {
		return nil, fmt.Errorf("Weighting IDF needs Options.IDF")
	}
	ratings := s.Ratings
	if ratings == nil {
		var err error
		if ratings, err = DefaultRatings(); err != nil {
			return nil, err
		}
	}
	pronouns := s.Pronouns
	if pronouns == nil {
		pronouns = DefaultPronouns()
	}
	plans := make([]storyPlan, len(inputs))
	texts := newTextSet()
	crops := newCropSet()
	for i, in := range inputs {
		p, err := s.plan(in, opts, ratings, pronouns)
		if err != nil {
			return nil, fmt.Errorf("story %q: %w", in.ID, err)
		}
		for _, np := range p.kept {
			texts.add(np)
		}
		for k := range p.images {
			p.images[k].unit = crops.add(p.images[k])
		}
		plans[i] = p
	}
	keys, err := crops.fromCache(s)
	if err != nil {
		return nil, err
	}
	cachedTexts, err := s.lookupTexts(texts)
	if err != nil {
		return nil, nameStory(err, inputs, plans)
	}
	toEncode := len(texts.list)
	if cachedTexts != nil {
		toEncode = len(cachedTexts.missing)
	}
	total := toEncode + crops.crops()
	prog := func(n int) {
		if opts.Progress != nil {
			opts.Progress(n, total)
		}
	}
	if err := texts.embedMissing(ctx, s.Text, cachedTexts, prog); err != nil {
		return nil, nameStory(err, inputs, plans)
	}
	if err := crops.embedMissing(ctx, s, keys, toEncode, prog); err != nil {
		return nil, err
	}
	out := make([]Result, len(inputs))
	for i := range inputs {
		out[i] = finish(inputs[i].ID, &plans[i], texts, crops, opts)
	}
	return out, nil
}

// plan extracts and filters the phrases, weighs them and lists the
// regions of each image.
func (s *Scorer) plan(in Input, opts Options, ratings *Ratings, pronouns *Pronouns) (storyPlan, error) {
	p := storyPlan{words0: -1}
	if in.NPs != nil {
		p.input = append([]string(nil), in.NPs...)
	} else {
		sents, err := sentencePhrases(in.Text, opts.Units)
		if err != nil {
			return p, err
		}
		p.sentences = sents
		for _, s := range sents {
			p.input = append(p.input, s...)
		}
	}
	if in.Text != "" {
		p.words0 = nphrase.WordCount(in.Text)
	}
	p.kept = pronouns.Filter(p.input)
	p.weights = make([]float64, len(p.kept))
	p.words = make([][]WordRating, len(p.kept))
	for k, np := range p.kept {
		w, detail, err := ratings.Weight(np)
		if err != nil {
			return p, err
		}
		p.words[k] = detail
		switch opts.Weighting {
		case Concreteness:
			p.weights[k] = w
		case Uniform:
			p.weights[k] = 1
		case IDF:
			p.weights[k] = idfWeight(opts.IDF, np)
		default:
			return p, fmt.Errorf("unknown Weighting %d", opts.Weighting)
		}
	}
	if len(in.Images) == 0 {
		// the reference's max over an empty image axis raises
		return p, fmt.Errorf("no images")
	}
	p.images = make([]imagePlan, len(in.Images))
	for k, img := range in.Images {
		ip, err := s.imagePlan(img)
		if err != nil {
			return p, err
		}
		p.images[k] = ip
	}
	return p, nil
}

// Phrases extracts a story's phrases from its text as Score does when no
// NP list is given: noun chunks or, for Units Nouns, single nouns; per
// sentence, lower-cased, de-duplicated within the sentence, concatenated.
// The chunker approximates spaCy's noun_chunks, which the reference runs
// offline: against the real spaCy lists of the fixtures (6 stories, 71
// chunks) it has precision 0.971, recall 0.944, F1 0.957, and 3 of the 6
// lists identical (go test -run TestAgreement -v ./internal/nphrase).
// Scores from extracted phrases therefore approximate the published ones;
// pass spaCy's lists as Input.NPs to reproduce them.
func Phrases(text string, units Units) ([]string, error) {
	sents, err := sentencePhrases(text, units)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range sents {
		out = append(out, s...)
	}
	return out, nil
}

func sentencePhrases(text string, units Units) ([][]string, error) {
	switch units {
	case NounPhrases:
		return nphrase.Sentences(text)
	case Nouns:
		return nphrase.SentenceNouns(text)
	}
	return nil, fmt.Errorf("unknown Units %d", units)
}

// finish computes the alignment, the penalised scores and the analyses of
// one story from the embeddings.
func finish(id string, p *storyPlan, texts *textSet, crops *cropSet, opts Options) Result {
	r := Result{ID: id, Input: p.input, NPs: make([]NPScore, len(p.kept)), Images: make([]ImageStatus, len(p.images))}
	for k, ip := range p.images {
		u := crops.units[ip.unit]
		st := ImageStatus{ID: ip.id, Regions: ip.regions, Err: u.err}
		if u.err == nil {
			st.Used = len(u.keys)
		}
		r.Images[k] = st
	}
	for n, np := range p.kept {
		e := texts.emb[texts.index[np]]
		sc := NPScore{NP: np, Weight: p.weights[n], Words: p.words[n], Alignment: make([]float32, len(p.images)), BestImage: -1, BestRegion: -1}
		for k, ip := range p.images {
			u := crops.units[ip.unit]
			row, best := float32(0), -1
			if u.err == nil {
				for j, emb := range u.embs {
					c := dot(e, emb)
					if best < 0 || c > row {
						row, best = c, j
					}
				}
			}
			sc.Alignment[k] = row
			if sc.BestImage < 0 || row > sc.MaxCosine {
				sc.MaxCosine, sc.BestImage, sc.BestRegion = row, k, best
			}
		}
		sc.Scaled = sc.MaxCosine * scale
		r.NPs[n] = sc
	}
	rescore(&r, opts)
	r.TemporalMisalignment = temporalMisalignment(p.sentences, r.NPs, len(p.images))
	r.NPProportion = math.NaN()
	if p.words0 > 0 {
		r.NPProportion = float64(len(r.NPs)) / float64(p.words0)
	}
	return r
}

// rescore applies the penalty, the weights and the normalisation.
// Matches the reference implementation, which compares with θ cast to
// float32 and computes in float32: s ≥ θ keeps s, s < θ becomes −(θ − s);
// then s × weight, and the mean over the phrases.
func rescore(r *Result, opts Options) {
	theta := float32(opts.Theta.Value())
	sum := 0.0
	for i := range r.NPs {
		np := &r.NPs[i]
		s := np.Scaled
		if !opts.NoPenalty && !(s >= theta) {
			s = -(theta - s)
		}
		np.Score = s * float32(np.Weight)
		sum += float64(np.Score)
	}
	if len(r.NPs) == 0 {
		r.Score, r.Defined = math.NaN(), false
		return
	}
	r.Score = float64(float32(sum) / float32(len(r.NPs)))
	r.Defined = true
	if opts.Tanh {
		r.Score = math.Tanh(r.Score)
	}
}

// Rescore recomputes the θ-dependent parts of results (NP scores and story
// scores) under opts.Theta, opts.NoPenalty and opts.Tanh, without
// embedding anything again; weights stay as they were computed. Use it
// after EstimateTheta.
func Rescore(results []Result, opts Options) []Result {
	out := make([]Result, len(results))
	for i, r := range results {
		r.NPs = append([]NPScore(nil), r.NPs...)
		rescore(&r, opts)
		out[i] = r
	}
	return out
}

// EstimateTheta returns the mean of the scaled alignment scores (2.5 × max
// cosine) of every scored phrase of every story: a θ for a new dataset, in
// the way the presets were made (the mean NP score over the dataset). The
// reference publishes no code for it. It is NaN when no phrase was scored.
func EstimateTheta(results []Result) float64 {
	sum, n := 0.0, 0
	for _, r := range results {
		for _, np := range r.NPs {
			sum += float64(np.Scaled)
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// Mean is the corpus score as groovist.py --average_across_samples prints
// it: the mean over every story (statistics.fmean, which sums exactly;
// here summed in float64), so NaN when any story is undefined.
// MeanDefined skips those.
func Mean(results []Result) float64 {
	if len(results) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, r := range results {
		sum += r.Score
	}
	return sum / float64(len(results))
}

// MeanDefined is the mean score of the defined stories (NaN when none is).
func MeanDefined(results []Result) float64 {
	sum, n := 0.0, 0
	for _, r := range results {
		if r.Defined {
			sum += r.Score
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// dot is the cosine of two unit vectors, accumulated in float64 and
// rounded to float32 (the reference's float32 matmul agrees to ~1e-7).
func dot(a, b []float32) float32 {
	s := 0.0
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return float32(s)
}

var errNoRegions = errors.New("no region")

// nameStory adds to a phrase too long for CLIP's context the first story
// that has it: phrases are embedded once per run, across stories.
func nameStory(err error, inputs []Input, plans []storyPlan) error {
	var tl *tokenize.TooLongError
	if !errors.As(err, &tl) {
		return err
	}
	for i, p := range plans {
		if slices.Contains(p.kept, tl.Text) {
			return fmt.Errorf("story %q: the noun phrase %s has %d CLIP tokens, more than the context of %d (clip.tokenize raises in the reference)",
				inputs[i].ID, errtext.Quote(tl.Text), tl.Tokens, tl.ContextLength)
		}
	}
	return err
}
