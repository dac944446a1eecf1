package groovist

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/pairwise"
	"github.com/storyeval/storyeval/internal/parallel"
)

// CLIPScorePrefix is the prompt clipscore.py puts before every caption,
// candidates and references alike.
const CLIPScorePrefix = "A photo depicts "

// clipScoreW is clipscore.py's w.
const clipScoreW float32 = 2.5

// CLIPScorer computes CLIPScore and RefCLIPScore (Hessel et al., 2021) as
// jmhessel/clipscore's clipscore.py does. It is safe for concurrent use.
type CLIPScorer struct {
	// Text tokenizes with truncation to 77 tokens (clip.tokenize(...,
	// truncate=True)) and runs the text tower.
	Text *CLIPText
	// Model runs the image tower.
	Model *encoders.CLIP
	// Processor is OpenAI's preprocess; images are converted to RGB after
	// the resize and crop, as clipscore.py's own transform does.
	Processor *imageproc.Processor
	// Decode bounds image decoding; with no Budget, each Score call
	// decodes within a DecodeBudget of its own of the default size.
	Decode imageproc.DecodeOptions

	// Cache, when set, keeps the images' and the texts' features between
	// runs: each image file is looked up (by its bytes, the preprocessing
	// and CacheModel) before it is decoded and encoded, and each caption
	// and reference (by its text, its token ids and CacheModel) before it
	// goes through the text tower; what is encoded is stored. Scores are
	// bit-identical with and without it. Off (nil) by default, as
	// clipscore.py keeps nothing.
	Cache embcache.Cache
	// CacheModel identifies the weights of Model and Text.Model for Cache,
	// e.g. embcache.DigestDir of the CLIP model folder; required with
	// Cache.
	CacheModel embcache.Digest

	// forwardTime, when set (benchmarks), receives the duration of each
	// forward pass.
	forwardTime func(time.Duration)
	// imagesEncoded, when set (tests), is told how many images go
	// through the image tower.
	imagesEncoded func(n int)
}

// timed runs a forward pass, reporting its duration to forwardTime.
func (s *CLIPScorer) timed(f func() error) error {
	if s.forwardTime == nil {
		return f()
	}
	start := time.Now()
	err := f()
	s.forwardTime(time.Since(start))
	return err
}

// NewCLIPScorer returns a CLIPScorer on a CLIP model and its tokenizer.
func NewCLIPScorer(model *encoders.CLIP, tok *tokenize.CLIP) (*CLIPScorer, error) {
	proc, err := openAIProcessor(model)
	if err != nil {
		return nil, err
	}
	return &CLIPScorer{Text: &CLIPText{Model: model, Tokenizer: tok, Truncate: true}, Model: model, Processor: proc}, nil
}

// Caption is one image with its candidate caption and optional references.
type Caption struct {
	ID string
	// Image is the image file (PNG or JPEG).
	Image      string
	Candidate  string
	References []string
}

// CaptionScore is the score of one Caption.
type CaptionScore struct {
	ID string
	// CLIPScore is 2.5 × max(cos(image, candidate), 0).
	CLIPScore float64
	// MaxRefCosine is the largest cosine between the candidate and a
	// reference, unclipped and unscaled; RefCLIPScore is the harmonic mean
	// 2·c·r/(c+r) of CLIPScore and it. Both NaN when there are no
	// references (HasRefs false). Matches the reference implementation,
	// which clips and scales only the image side; c = 0 gives 0.
	MaxRefCosine float64
	RefCLIPScore float64
	HasRefs      bool
}

// Score scores the captions, in input order. Every distinct image and text
// is embedded once, in batches. An image that cannot be decoded is an error
// naming it (clipscore.py stops there too).
func (s *CLIPScorer) Score(ctx context.Context, items []Caption) ([]CaptionScore, error) {
	if s.Text == nil || s.Model == nil || s.Processor == nil {
		return nil, fmt.Errorf("CLIPScorer needs Text, Model and Processor")
	}
	if s.Cache != nil && s.CacheModel == (embcache.Digest{}) {
		return nil, errNoCacheModel
	}
	texts := newTextSet()
	paths := newTextSet()
	for _, it := range items {
		texts.add(CLIPScorePrefix + it.Candidate)
		for _, r := range it.References {
			texts.add(CLIPScorePrefix + r)
		}
		paths.add(it.Image)
	}
	tf, err := s.textFeatures(ctx, texts.list)
	if err != nil {
		return nil, err
	}
	imf, err := s.cachedImageFeatures(ctx, paths.list)
	if err != nil {
		return nil, err
	}
	for _, f := range [][][]float32{tf, imf} {
		for i := range f {
			f[i] = normalize32(f[i])
		}
	}
	out := make([]CaptionScore, len(items))
	for i, it := range items {
		cand := tf[texts.index[CLIPScorePrefix+it.Candidate]]
		img := imf[paths.index[it.Image]]
		c := clipScoreW * max(dot32(img, cand), 0)
		sc := CaptionScore{ID: it.ID, CLIPScore: float64(c), MaxRefCosine: math.NaN(), RefCLIPScore: math.NaN()}
		if len(it.References) > 0 {
			r := float32(math.Inf(-1))
			for _, ref := range it.References {
				r = max(r, dot32(cand, tf[texts.index[CLIPScorePrefix+ref]]))
			}
			sc.HasRefs = true
			sc.MaxRefCosine = float64(r)
			sc.RefCLIPScore = float64(2 * c * r / (c + r))
		}
		out[i] = sc
	}
	return out, nil
}

// CorpusMeans are the system-level scores clipscore.py prints: np.mean of
// the per-item values (pairwise summation), RefCLIPScore over the items
// that have references.
func CorpusMeans(scores []CaptionScore) (clipScore, refCLIPScore float64) {
	c := make([]float64, 0, len(scores))
	r := make([]float64, 0, len(scores))
	for _, s := range scores {
		c = append(c, s.CLIPScore)
		if s.HasRefs {
			r = append(r, s.RefCLIPScore)
		}
	}
	clipScore, refCLIPScore = math.NaN(), math.NaN()
	if len(c) > 0 {
		clipScore = pairwise.Mean(c)
	}
	if len(r) > 0 {
		refCLIPScore = pairwise.Mean(r)
	}
	return clipScore, refCLIPScore
}

// textFeatures returns the projected text features (encode_text), not
// normalised, taking those s.Cache holds from it and storing the others.
func (s *CLIPScorer) textFeatures(ctx context.Context, texts []string) ([][]float32, error) {
	l, err := s.Text.lookupTexts(s.Cache, s.CacheModel, "clipscore encode_text", texts)
	if err != nil {
		return nil, err
	}
	err = l.encode(ctx, func(ctx context.Context, ids [][]int) ([][]float32, error) {
		var res *encoders.CLIPOutput
		if err := s.timed(func() (err error) { res, err = s.Text.run(ctx, ids); return err }); err != nil {
			return nil, err
		}
		return splitRows(res.Features, len(ids))
	}, func(int) {})
	if err != nil {
		return nil, err
	}
	return l.rows, nil
}

// imageFeatures decodes, preprocesses (in parallel) and embeds the images:
// encode_image, not normalised.
func (s *CLIPScorer) imageFeatures(ctx context.Context, paths []string) ([][]float32, error) {
	out := make([][]float32, 0, len(paths))
	opts := withBudget(s.Decode)
	for lo := 0; lo < len(paths); lo += imageBatch {
		hi := min(lo+imageBatch, len(paths))
		pv := make([]imageproc.PixelValues, hi-lo)
		err := parallel.Each(hi-lo, 1, func(i int) (err error) {
			pv[i], err = s.Processor.PreprocessSourceFile(ctx, paths[lo+i], opts)
			return err
		})
		if err != nil {
			return nil, err
		}
		var res *encoders.CLIPOutput
		err = s.timed(func() (err error) { res, err = s.Model.EncodeImages(ctx, pv, encoders.ForwardOptions{}); return err })
		if err != nil {
			return nil, fmt.Errorf("CLIP image tower: %w", err)
		}
		rows, err := splitRows(res.Features, hi-lo)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// normalize32 divides x by its L2 norm as clipscore.py does with numpy
// (x / sqrt(sum(x²))) in float32; the sum is taken in float64 and rounded.
func normalize32(x []float32) []float32 {
	ss := 0.0
	for _, v := range x {
		ss += float64(v) * float64(v)
	}
	n := float32(math.Sqrt(float64(float32(ss))))
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = v / n
	}
	return out
}

// dot32 is the dot product accumulated in float64, rounded to float32.
func dot32(a, b []float32) float32 { return dot(a, b) }

// ImageFiles lists the images of a folder as clipscore.py does: the files
// whose names end in .png, .jpg, .jpeg or .tiff (case-sensitive), with
// the file stem as the image id. The order is by name (clipscore.py uses
// os.listdir's order, which only affects the summation order of means).
// Two files with the same stem are an error.
func ImageFiles(dir string) (ids, paths []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("images folder: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		n := e.Name()
		for _, ext := range []string{".png", ".jpg", ".jpeg", ".tiff"} {
			if strings.HasSuffix(n, ext) {
				names = append(names, n)
				break
			}
		}
	}
	sort.Strings(names)
	seen := map[string]string{}
	for _, n := range names {
		stem := pathStem(n)
		if prev, ok := seen[stem]; ok {
			return nil, nil, fmt.Errorf("images %s and %s have the same id %q", prev, n, stem)
		}
		seen[stem] = n
		ids = append(ids, stem)
		paths = append(paths, filepath.Join(dir, n))
	}
	return ids, paths, nil
}

// pathStem is pathlib.Path(name).stem: the name without its last suffix
// (a leading dot does not start a suffix).
func pathStem(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 {
		return name
	}
	return name[:i]
}
