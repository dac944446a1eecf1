package groovist

import (
	"context"
	"errors"
	"fmt"

	"github.com/storyeval/storyeval/embcache"
)

// cachedImageFeatures is imageFeatures through s.Cache: the images found
// there are not decoded or encoded; the others are, and are stored. An
// image file that cannot be read goes the uncached path, which reports it.
func (s *CLIPScorer) cachedImageFeatures(ctx context.Context, paths []string) ([][]float32, error) {
	if s.Cache == nil {
		return s.countedImageFeatures(ctx, paths)
	}
	if s.CacheModel == (embcache.Digest{}) {
		return nil, errNoCacheModel
	}
	prep := fmt.Sprintf("clipscore encode_image, %#v", s.Processor.Config())
	region := embcache.DecodeRegion(s.Decode, nil)
	keys := make([]embcache.Key, len(paths))
	keyed := make([]bool, len(paths))
	var ks []embcache.Key
	var at []int
	for i, p := range paths {
		d, err := embcache.DigestFile(p)
		if err != nil {
			continue
		}
		keys[i], keyed[i] = embcache.ImageKey(embcache.ImageInput{Model: s.CacheModel, Preprocess: prep, Source: d, Region: region}), true
		ks, at = append(ks, keys[i]), append(at, i)
	}
	found, _, err := embcache.Lookup(s.Cache, ks)
	if err != nil {
		return nil, err
	}
	out := make([][]float32, len(paths))
	for j, v := range found {
		out[at[j]] = v
	}
	var todo []string
	var todoAt []int
	for i, v := range out {
		if v == nil {
			todo, todoAt = append(todo, paths[i]), append(todoAt, i)
		}
	}
	if len(todo) == 0 {
		return out, nil
	}
	feats, err := s.countedImageFeatures(ctx, todo)
	if err != nil {
		return nil, err
	}
	ks = ks[:0]
	var vs [][]float32
	for j, i := range todoAt {
		out[i] = feats[j]
		if keyed[i] {
			ks, vs = append(ks, keys[i]), append(vs, feats[j])
		}
	}
	if err := s.Cache.PutMany(ks, vs); err != nil {
		return nil, err
	}
	return out, nil
}

var errNoCacheModel = errors.New("CLIPScorer.Cache set without CacheModel, the identity of the model's weights")

// countedImageFeatures is imageFeatures, telling imagesEncoded (tests)
// how many images it encodes.
func (s *CLIPScorer) countedImageFeatures(ctx context.Context, paths []string) ([][]float32, error) {
	if s.imagesEncoded != nil {
		s.imagesEncoded(len(paths))
	}
	return s.imageFeatures(ctx, paths)
}

// WarmImages encodes the image files that are not in s.Cache yet and
// stores them, as Score would; it returns how many it encoded.
func (s *CLIPScorer) WarmImages(ctx context.Context, paths []string) (int, error) {
	if s.Model == nil || s.Processor == nil || s.Cache == nil {
		return 0, fmt.Errorf("WarmImages needs Model, Processor and Cache")
	}
	encoded := 0
	count := s.imagesEncoded
	w := *s
	w.imagesEncoded = func(n int) {
		encoded += n
		if count != nil {
			count(n)
		}
	}
	_, err := w.cachedImageFeatures(ctx, paths)
	return encoded, err
}
