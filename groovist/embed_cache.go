package groovist

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/story"
)

// fromCache fills the embeddings of the units whose every crop is in
// s.Cache, marking them cached, and returns the keys of the other units'
// crops (nil for a unit that cannot be keyed: a crop file that cannot be
// read, which the uncached path then reports). A unit is taken whole from
// the cache or encoded whole, so that a crop that fails to decode still
// fails its image as in the reference. It returns nil without s.Cache.
func (c *cropSet) fromCache(s *Scorer) (map[int][]embcache.Key, error) {
	if s.Cache == nil {
		return nil, nil
	}
	if s.CacheModel == (embcache.Digest{}) {
		return nil, fmt.Errorf("Cache set without CacheModel, the identity of the image encoder's weights")
	}
	prep := fmt.Sprintf("groovist crop, %#v", s.Processor.Config())
	keys := map[int][]embcache.Key{}
	for ui := range c.units {
		u := &c.units[ui]
		if u.err != nil {
			continue
		}
		ks, ok := s.cropKeys(u.plan, prep)
		if !ok {
			continue
		}
		found, missing, err := embcache.Lookup(s.Cache, ks)
		if err != nil {
			return nil, err
		}
		if len(missing) > 0 {
			keys[ui] = ks
			continue
		}
		u.embs, u.cached = found, true
	}
	return keys, nil
}

// cropKeys returns the keys of an image's crops, or false when a source
// file cannot be read.
func (s *Scorer) cropKeys(ip imagePlan, prep string) ([]embcache.Key, bool) {
	ks := make([]embcache.Key, len(ip.crops))
	var whole embcache.Digest
	if ip.path != "" {
		d, err := embcache.DigestFile(ip.path)
		if err != nil {
			return nil, false
		}
		whole = d
	}
	for i, c := range ip.crops {
		in := embcache.ImageInput{Model: s.CacheModel, Preprocess: prep, Source: whole}
		if ip.path != "" {
			in.Region = embcache.DecodeRegion(s.Decode, &c.box)
		} else {
			d, err := embcache.DigestFile(c.file)
			if err != nil {
				return nil, false
			}
			in.Source, in.Region = d, embcache.DecodeRegion(s.Decode, nil)
		}
		ks[i] = embcache.ImageKey(in)
	}
	return ks, true
}

// embedMissing embeds the units not taken from the cache (see embed) and
// stores the crops of those with keys.
func (c *cropSet) embedMissing(ctx context.Context, s *Scorer, keys map[int][]embcache.Key, done int, progress func(int)) error {
	if s.Cache == nil {
		return c.embed(ctx, s, done, progress)
	}
	sub := &cropSet{}
	var at []int
	for ui, u := range c.units {
		if !u.cached {
			sub.units, at = append(sub.units, u), append(at, ui)
		}
	}
	if err := sub.embed(ctx, s, done, progress); err != nil {
		return err
	}
	var ks []embcache.Key
	var vs [][]float32
	for j, ui := range at {
		c.units[ui] = sub.units[j]
		if u := sub.units[j]; u.err == nil && keys[ui] != nil {
			ks, vs = append(ks, keys[ui]...), append(vs, u.embs...)
		}
	}
	if len(ks) == 0 {
		return nil
	}
	if err := s.Cache.PutMany(ks, vs); err != nil {
		return err
	}
	return nil
}

// Warm embeds the crops Score would embed for these images (the first
// RegionsPerImage regions of each) and stores them in s.Cache; images
// whose crops are all there already are skipped. It returns the number of
// crops encoded; an image whose crops cannot be loaded is an error naming
// it (Score would report it in its result), returned after the other
// images' crops are stored.
func (s *Scorer) Warm(ctx context.Context, images []story.Image) (int, error) {
	if s.Images == nil || s.Processor == nil || s.Cache == nil {
		return 0, fmt.Errorf("Warm needs Images, Processor and Cache")
	}
	crops := newCropSet()
	for _, img := range images {
		ip, err := s.imagePlan(img)
		if err != nil {
			return 0, err
		}
		crops.add(ip)
	}
	keys, err := crops.fromCache(s)
	if err != nil {
		return 0, err
	}
	if err := crops.embedMissing(ctx, s, keys, 0, func(int) {}); err != nil {
		return 0, err
	}
	n := 0
	var failed error
	for _, u := range crops.units {
		switch {
		case u.err != nil && failed == nil:
			failed = fmt.Errorf("image %q: %w", u.plan.id, u.err)
		case u.err == nil && !u.cached:
			n += len(u.keys)
		}
	}
	return n, failed
}

// WarmEntities is Warm over every image of s.Entities, what `storyeval
// cache warm -regions` does for GROOViST; it returns the crops encoded and
// the number of images, with Warm's error.
func (s *Scorer) WarmEntities(ctx context.Context) (crops, images int, err error) {
	if s.Entities == nil {
		return 0, 0, fmt.Errorf("WarmEntities needs Entities")
	}
	var imgs []story.Image
	for _, id := range s.Entities.ImageIDs() {
		imgs = append(imgs, story.Image{ID: id})
	}
	n, err := s.Warm(ctx, imgs)
	return n, len(imgs), err
}
