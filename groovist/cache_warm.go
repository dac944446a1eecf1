package groovist

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/regions"
)

// CacheWarming names what WarmCache embeds with one CLIP model, what
// `storyeval cache warm -model` does; an empty field skips its step.
type CacheWarming struct {
	// Regions and Crops: GROOViST's crops of every image of the regions
	// CSV (Scorer.WarmEntities).
	Regions, Crops string
	// NPs and Stories: GROOViST's noun phrases, read by LoadInputs
	// (Scorer.WarmTexts).
	NPs, Stories string
	// Images: CLIPScore's features of the images of the folder
	// (ImageFiles, CLIPScorer.WarmImages).
	Images string
	// Decode bounds image decoding; Limits bounds the phrase and story
	// files.
	Decode imageproc.DecodeOptions
	Limits limits.Limits
}

// Warmed is what one step of WarmCache encoded and stored.
type Warmed struct {
	// Metric is "GROOViST" or "CLIPScore"; Unit is "crops", "noun
	// phrases" or "images".
	Metric, Unit string
	// Encoded of Of were not in the cache yet; Of counts the images of
	// the regions file for crops, the distinct phrases, or the image
	// files. Stories is the number of stories of the phrases.
	Encoded, Of, Stories int
	// Err is the first image whose crops could not be loaded; the other
	// images' crops are stored.
	Err error
}

// String says what was stored, e.g. "GROOViST: 12 crops of 3 images
// encoded and stored" (the lines of storyeval cache warm).
func (w Warmed) String() string {
	switch w.Unit {
	case "crops":
		return fmt.Sprintf("%s: %d crops of %d images encoded and stored", w.Metric, w.Encoded, w.Of)
	case "noun phrases":
		return fmt.Sprintf("%s: %d of %d noun phrases of %d stories encoded and stored", w.Metric, w.Encoded, w.Of, w.Stories)
	}
	return fmt.Sprintf("%s: %d of %d %s encoded and stored", w.Metric, w.Encoded, w.Of, w.Unit)
}

// WarmInputError is an input of CacheWarming that cannot be read: the
// regions CSV or the images folder.
type WarmInputError struct {
	// Input is "regions" or "images", the field in lower case.
	Input string
	Err   error
}

// Error implements error: the input, then the reason.
func (e *WarmInputError) Error() string { return e.Input + ": " + e.Err.Error() }

// Unwrap returns the reason.
func (e *WarmInputError) Unwrap() error { return e.Err }

// WarmCache stores in cache, keyed by model (the identity of the CLIP
// folder, embcache.Store.DigestDir), the embeddings GROOViST and
// CLIPScore would compute for the inputs w names, in the order crops,
// phrases, images, calling done after each step. Each input is read just
// before its step, so a step's failure leaves the earlier steps stored. A
// crops step that stored some crops but not all reports the first failure
// in Warmed.Err rather than failing.
func WarmCache(ctx context.Context, m *encoders.CLIP, tok *tokenize.CLIP, cache embcache.Cache, model embcache.Digest, w CacheWarming, done func(Warmed)) error {
	var sc *Scorer
	if w.Regions != "" || w.NPs != "" || w.Stories != "" {
		var err error
		if sc, err = NewScorer(m, tok); err != nil {
			return err
		}
		sc.Decode, sc.Cache, sc.CacheModel, sc.CropsDir = w.Decode, cache, model, w.Crops
	}
	if w.Regions != "" {
		var err error
		if sc.Entities, err = regions.Load(w.Regions, regions.Options{}); err != nil {
			return &WarmInputError{Input: "regions", Err: err}
		}
		n, imgs, err := sc.WarmEntities(ctx)
		if n == 0 && err != nil {
			return err
		}
		done(Warmed{Metric: "GROOViST", Unit: "crops", Encoded: n, Of: imgs, Err: err})
	}
	if w.NPs != "" || w.Stories != "" {
		inputs, err := LoadInputs(w.NPs, w.Stories, w.Limits)
		if err != nil {
			return err
		}
		n, all, err := sc.WarmTexts(ctx, inputs, Options{})
		if err != nil {
			return err
		}
		done(Warmed{Metric: "GROOViST", Unit: "noun phrases", Encoded: n, Of: all, Stories: len(inputs)})
	}
	if w.Images == "" {
		return nil
	}
	_, paths, err := ImageFiles(w.Images)
	if err != nil {
		return &WarmInputError{Input: "images", Err: err}
	}
	cs, err := NewCLIPScorer(m, tok)
	if err != nil {
		return err
	}
	cs.Decode, cs.Cache, cs.CacheModel = w.Decode, cache, model
	n, err := cs.WarmImages(ctx, paths)
	if err != nil {
		return err
	}
	done(Warmed{Metric: "CLIPScore", Unit: "images", Encoded: n, Of: len(paths)})
	return nil
}
