package rovist

import (
	"context"
	"fmt"
	"math"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/parallel"
	"github.com/storyeval/storyeval/story"
)

// DefaultMaxRegions is the number of regions per image RoViST-VG compares
// nouns with (the reference scorer's num_bbox).
const DefaultMaxRegions = 10

// DefaultGroundingBatch is the number of crops per ViT forward pass when
// VGOptions.BatchSize is zero.
const DefaultGroundingBatch = 32

// Grounder computes RoViST-VG: the model, the word vectors, the idf
// weights and where the image regions come from. It is safe for concurrent
// use when its parts are.
type Grounder struct {
	Model   *GroundingModel
	GloVe   *GloVe
	IDF     IDF // unused with VGOptions.NoIDF
	Regions RegionSource

	// Cache, when set, keeps the crops' joint embeddings between runs:
	// each kept crop with an Identity is looked up before the ViT runs and
	// stored after, keyed by CacheModel, the preprocessing and the crop's
	// identity. Scores are bit-identical with and without it. Off (nil) by
	// default, as the reference keeps nothing.
	Cache embcache.Cache
	// CacheModel identifies the model's weights for Cache, e.g.
	// embcache.Join of embcache.DigestFile(checkpoint) and
	// embcache.DigestDir(vitDir); required with Cache.
	CacheModel embcache.Digest

	// forwards, when set (tests), is told the number of crops of each ViT
	// forward pass.
	forwards func(n int)
}

// VGOptions configures RoViST-VG. The zero value gives the reference
// scorer's behaviour (usydnlp/rovist scripts/visual_grounding_scorer.py
// with its default --use_idf 1).
type VGOptions struct {
	// NoIDF weights every noun 1 instead of its idf. Matches the reference
	// implementation, which does so only for --use_idf '' (it tests the
	// option string's truth, so --use_idf 0 still weights by idf).
	NoIDF bool

	// UseDefaultIDF gives a noun missing from the idf table the weight
	// DefaultIDF. By default a missing noun is an error naming it: the
	// reference raises KeyError and its run stops.
	UseDefaultIDF bool
	DefaultIDF    float64

	// MaxRegions is the number of regions per image kept, first in the
	// regions file's order; 0 means DefaultMaxRegions.
	MaxRegions int

	// BatchSize is the number of crops per ViT forward pass; 0 means
	// DefaultGroundingBatch. Scores do not depend on it.
	BatchSize int

	// Nouns, when it has a story's id, gives that story's nouns in the
	// order they are summed (the reference scorer's input nouns.json, made
	// by extract_nouns.py); other stories' nouns are extracted with Nouns,
	// sorted within each sentence. The order only changes the float32
	// summation of the score, in its last bits.
	Nouns map[string][]string

	// StoryNouns, when not nil, are the nouns of each story of the call in
	// input order, as StoryNouns returns them: a caller that has
	// extracted them already (to load their GloVe vectors) passes them
	// so that they are not extracted twice. Nouns is then unused.
	StoryNouns [][]string

	// Budget bounds the memory of the crops decoded at once by crops with
	// RegionCrop.LoadPixels (CropFolder's) whose decode options have no
	// budget; nil means a budget of imageproc.DefaultDecodeBudget for the
	// call.
	Budget *imageproc.DecodeBudget

	// Progress, when set, is called as crops are encoded with the number
	// done so far and their total, never concurrently with itself.
	Progress func(done, total int)
}

// VGResult is the RoViST-VG score of one story with its per-noun
// diagnostics.
type VGResult struct {
	// Score is log(Σ_nouns exp(recall · idf)), computed in float32 as the
	// reference does (widened to float64); NaN when Defined is false.
	Score float64
	// Scaled is the paper's scaled score 2/(1 + exp(−0.5·Score)) − 1
	// (Wang et al. 2022, §3.2), which the released code does not compute.
	Scaled float64
	// Defined is false for a story without nouns (the reference raises
	// RuntimeError on torch.stack([])).
	Defined bool
	// Nouns holds one entry per noun, in summation order; duplicates
	// across sentences are kept, as in the reference.
	Nouns []NounGrounding
	// Images are the story's images in order, with how many regions the
	// regions source listed and how many (the first ≤ MaxRegions) were
	// compared.
	Images []ImageRegions
	// Similarities[i][n] is the best cosine of noun n over image i's
	// regions (the reference's final_sims).
	Similarities [][]float32
}

// ImageRegions describes the regions of one story image.
type ImageRegions struct {
	ID           string
	Listed, Used int
	RegionLabels []string // labels of the regions used
}

// NounGrounding explains one noun's contribution.
type NounGrounding struct {
	Noun string
	// InGloVe is false when the noun fell back to the vector of "unk".
	InGloVe bool
	// IDF is the weight as stored (a Python float); Weight the float32
	// value the score uses (1 with NoIDF).
	IDF    float64
	Weight float32
	// Recall is the best cosine over every region of every image;
	// BestImage the image it came from (first on ties) and BestRegion the
	// region within that image. BestRegionPerImage[i] is the best region of
	// image i.
	Recall             float32
	BestImage          int
	BestRegion         int
	BestRegionPerImage []int
}

// StoryNouns returns the nouns RoViST-VG scores for each story: given[id]
// when present, else the nouns of Nouns(story.Text) flattened in sentence
// order.
func StoryNouns(stories []story.Story, given map[string][]string) ([][]string, error) {
	out := make([][]string, len(stories))
	for i, st := range stories {
		if n, ok := given[st.ID]; ok {
			out[i] = n
			continue
		}
		per, err := Nouns(st.Text)
		if err != nil {
			return nil, fmt.Errorf("story %q: %w", st.ID, err)
		}
		flat := []string{}
		for _, s := range per {
			flat = append(flat, s...)
		}
		out[i] = flat
	}
	return out, nil
}

// vgCrop is one distinct region crop of a run.
type vgCrop struct {
	crop RegionCrop
	keep bool      // among the first MaxRegions of some image
	emb  []float32 // unit-length joint embedding, when keep
}

// ScoreSet scores every story of a set (see Score).
func (g *Grounder) ScoreSet(ctx context.Context, set *story.Set, opts VGOptions) ([]VGResult, error) {
	return g.Score(ctx, set.Stories(), opts)
}

// Score returns the RoViST-VG score of each story, in input order: each
// noun's GloVe vector is embedded and compared (cosine) with the embeddings
// of the first MaxRegions regions of each story image; a noun's recall is
// its best cosine over all of them, and the story's score is
// log(Σ exp(recall · idf(noun))).
//
// Matches the reference implementation (usydnlp/rovist
// scripts/visual_grounding_scorer.py): the score is a plain log-sum-exp in
// float32 (no max subtraction, no division by the number of nouns), the
// idf weights are rounded to float32 (torch.tensor), a noun GloVe lacks
// (GloVe is lower-case, so every capitalised noun) uses the vector of
// "unk", and the reference loads and encodes every region of an image
// before keeping the first ten. Here every region is loaded and
// preprocessed (so a broken crop fails as there) but only those kept are
// encoded, which gives the same numbers. Each distinct crop is encoded once
// per call however many stories show its image.
//
// Errors name the story (and noun, image or crop file): a noun missing from
// the idf table (see UseDefaultIDF), a story without images, an image
// without regions, a crop that does not decode, an empty list of stories. No partial results are
// returned with an error.
func (g *Grounder) Score(ctx context.Context, stories []story.Story, opts VGOptions) ([]VGResult, error) {
	if g.Model == nil || g.GloVe == nil || g.Regions == nil {
		return nil, fmt.Errorf("grounding: the Grounder needs a model, GloVe vectors and a regions source")
	}
	if !opts.NoIDF && g.IDF == nil {
		return nil, fmt.Errorf("grounding: no idf table (set NoIDF to weight every noun 1)")
	}
	if g.GloVe.Dim() != g.Model.WordDim() {
		return nil, fmt.Errorf("grounding: GloVe vectors are %d-d, the model takes %d", g.GloVe.Dim(), g.Model.WordDim())
	}
	if len(stories) == 0 {
		return nil, fmt.Errorf("grounding: no stories to score")
	}
	maxRegions := opts.MaxRegions
	if maxRegions <= 0 {
		maxRegions = DefaultMaxRegions
	}
	nouns := opts.StoryNouns
	if nouns == nil {
		var err error
		if nouns, err = StoryNouns(stories, opts.Nouns); err != nil {
			return nil, fmt.Errorf("grounding: %w", err)
		}
	} else if len(nouns) != len(stories) {
		return nil, fmt.Errorf("grounding: %d StoryNouns for %d stories", len(nouns), len(stories))
	}
	results := make([]VGResult, len(stories))
	// Per story: weights first (the reference's KeyError comes first).
	for si, st := range stories {
		res := VGResult{Nouns: make([]NounGrounding, len(nouns[si]))}
		for n, w := range nouns[si] {
			ng := NounGrounding{Noun: w, Weight: 1, IDF: 1}
			if !opts.NoIDF {
				v, ok := g.IDF[w]
				if !ok {
					if !opts.UseDefaultIDF {
						return nil, fmt.Errorf("grounding: %w", &MissingIDFError{Story: st.ID, Noun: w})
					}
					v = opts.DefaultIDF
				}
				ng.IDF, ng.Weight = v, float32(v)
			}
			res.Nouns[n] = ng
		}
		results[si] = res
	}

	// Region crops, each distinct one once.
	var crops []*vgCrop
	cropIndex := map[string]int{}
	imageCrops := map[string][]int{} // image key → crop indices in order
	storyImages := make([][][]int, len(stories))
	for si, st := range stories {
		if len(nouns[si]) == 0 {
			continue // undefined; the reference fails before the images
		}
		if len(st.Images) == 0 {
			return nil, fmt.Errorf("grounding: story %q has no images", st.ID)
		}
		storyImages[si] = make([][]int, len(st.Images))
		for ii, img := range st.Images {
			ikey := img.ID + "\x00" + img.Path
			idx, ok := imageCrops[ikey]
			if !ok {
				list, err := g.Regions.RegionCrops(img)
				if err != nil {
					return nil, fmt.Errorf("grounding: story %q image %q: %w", st.ID, img.ID, err)
				}
				for _, c := range list {
					k, seen := cropIndex[c.Key]
					if !seen {
						k = len(crops)
						cropIndex[c.Key] = k
						crops = append(crops, &vgCrop{crop: c})
					}
					idx = append(idx, k)
				}
				imageCrops[ikey] = idx
			}
			if len(idx) == 0 {
				return nil, fmt.Errorf("grounding: story %q image %q has no regions", st.ID, img.ID)
			}
			for _, k := range idx[:min(len(idx), maxRegions)] {
				crops[k].keep = true
			}
			storyImages[si][ii] = idx
		}
	}
	if err := g.embedCrops(ctx, crops, opts); err != nil {
		return nil, err
	}

	// Nouns, each distinct one once.
	words := map[string][]float32{}
	found := map[string]bool{}
	for si := range stories {
		for _, w := range nouns[si] {
			if _, ok := words[w]; ok {
				continue
			}
			vec, ok, err := g.GloVe.lookup(w)
			if err != nil {
				return nil, fmt.Errorf("grounding: story %q: %w", stories[si].ID, err)
			}
			emb, err := g.Model.EmbedWord(vec)
			if err != nil {
				return nil, err
			}
			words[w], found[w] = emb, ok
		}
	}

	for si, st := range stories {
		res := &results[si]
		if len(nouns[si]) == 0 {
			res.Score, res.Scaled = math.NaN(), math.NaN()
			continue
		}
		nImg := len(st.Images)
		res.Images = make([]ImageRegions, nImg)
		res.Similarities = make([][]float32, nImg)
		best := make([][]int, nImg)
		for ii, img := range st.Images {
			idx := storyImages[si][ii]
			used := idx[:min(len(idx), maxRegions)]
			ir := ImageRegions{ID: img.ID, Listed: len(idx), Used: len(used)}
			for _, k := range used {
				ir.RegionLabels = append(ir.RegionLabels, crops[k].crop.Label)
			}
			res.Images[ii] = ir
			sims := make([]float32, len(nouns[si]))
			arg := make([]int, len(nouns[si]))
			for n, w := range nouns[si] {
				t := words[w]
				for r, k := range used {
					c := dot32(t, crops[k].emb)
					if r == 0 || c > sims[n] {
						sims[n], arg[n] = c, r
					}
				}
			}
			res.Similarities[ii], best[ii] = sims, arg
		}
		var sum float64
		for n, w := range nouns[si] {
			ng := &res.Nouns[n]
			ng.InGloVe = found[w]
			ng.BestRegionPerImage = make([]int, nImg)
			for ii := range nImg {
				ng.BestRegionPerImage[ii] = best[ii][n]
				if ii == 0 || res.Similarities[ii][n] > ng.Recall {
					ng.Recall, ng.BestImage = res.Similarities[ii][n], ii
				}
			}
			ng.BestRegion = best[ng.BestImage][n]
			x := ng.Recall * ng.Weight
			sum += float64(float32(math.Exp(float64(x))))
		}
		s := float32(math.Log(float64(float32(sum))))
		res.Score, res.Defined = float64(s), true
		res.Scaled = ScaleVG(res.Score)
	}
	return results, nil
}

// ScaleVG is the paper's scaled grounding score 2/(1 + exp(−0.5·s)) − 1,
// which maps the raw log-sum-exp into (−1, 1) (Wang et al. 2022, §3.2).
func ScaleVG(s float64) float64 { return 2/(1+math.Exp(-0.5*s)) - 1 }

// dot32 is the float32 dot product of two embeddings, accumulated in
// float64 (within an ulp of PyTorch's float32 matmul).
func dot32(a, b []float32) float32 {
	var s float64
	for i, v := range a {
		s += float64(v) * float64(b[i])
	}
	return float32(s)
}

// embedCrops loads and preprocesses every crop (so that a broken one fails
// as in the reference) and encodes those kept, batch by batch.
func (g *Grounder) embedCrops(ctx context.Context, crops []*vgCrop, opts VGOptions) error {
	var kept, other []int
	for i, c := range crops {
		if c.keep {
			kept = append(kept, i)
		} else {
			other = append(other, i)
		}
	}
	budget := opts.Budget
	if budget == nil {
		budget = imageproc.NewDecodeBudget(0)
	}
	load := func(i int) (imageproc.PixelValues, error) {
		if lp := crops[i].crop.LoadPixels; lp != nil {
			px, err := lp(ctx, g.Model.proc, budget)
			if err != nil {
				return imageproc.PixelValues{}, fmt.Errorf("grounding: region %q: %w", crops[i].crop.Label, err)
			}
			return px, nil
		}
		img, err := crops[i].crop.Load()
		if err != nil {
			return imageproc.PixelValues{}, fmt.Errorf("grounding: region %q: %w", crops[i].crop.Label, err)
		}
		px, err := g.Model.Preprocess(img)
		if err != nil {
			return imageproc.PixelValues{}, fmt.Errorf("grounding: region %q: %w", crops[i].crop.Label, err)
		}
		return px, nil
	}
	if err := parallel.Each(len(other), 4, func(j int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		_, err := load(other[j])
		return err
	}); err != nil {
		return err
	}
	kept, keys, err := g.cachedCrops(crops, kept)
	if err != nil {
		return err
	}
	size := opts.BatchSize
	if size <= 0 {
		size = DefaultGroundingBatch
	}
	// One batch at a time: the ViT's matrix products use every core
	// already, and a second concurrent batch would double the activation
	// memory. Decoding and resizing within a batch run in parallel.
	var prog progressCounter
	prog.total, prog.report = len(kept), opts.Progress
	for lo := 0; lo < len(kept); lo += size {
		if err := ctx.Err(); err != nil {
			return err
		}
		idx := kept[lo:min(lo+size, len(kept))]
		pxs := make([]imageproc.PixelValues, len(idx))
		if err := parallel.Each(len(idx), 4, func(k int) error {
			px, err := load(idx[k])
			pxs[k] = px
			return err
		}); err != nil {
			return err
		}
		if g.forwards != nil {
			g.forwards(len(pxs))
		}
		embs, err := g.Model.EmbedImages(ctx, pxs)
		if err != nil {
			return err
		}
		for k, i := range idx {
			crops[i].emb = embs[k]
		}
		if err := g.storeCrops(crops, idx, keys); err != nil {
			return err
		}
		prog.add(len(idx))
	}
	return nil
}
