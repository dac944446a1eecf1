package rovist

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/story"
)

// cropIdentity is a RegionCrop's Identity: the digest of the bytes the
// pixels come from, and how they are taken (box, decoding options).
type cropIdentity = func() (embcache.Digest, string, error)

// fileDigest digests the file at path once, however many crops it
// gives.
func fileDigest(path string) func() (embcache.Digest, error) {
	return sync.OnceValues(func() (embcache.Digest, error) { return embcache.DigestFile(path) })
}

// pixelsDigest digests an already decoded image once: its size and
// pixels.
func pixelsDigest(img *imageproc.RGB) func() (embcache.Digest, error) {
	return sync.OnceValues(func() (embcache.Digest, error) {
		var hdr [16]byte
		binary.LittleEndian.PutUint64(hdr[:8], uint64(img.Width))
		binary.LittleEndian.PutUint64(hdr[8:], uint64(img.Height))
		return embcache.Join(embcache.DigestBytes(hdr[:]), embcache.DigestBytes(img.Pix)), nil
	})
}

// identityOf is the Identity of a crop taken as region says from the
// source that digest digests.
func identityOf(digest func() (embcache.Digest, error), region string) cropIdentity {
	return func() (embcache.Digest, string, error) {
		d, err := digest()
		return d, region, err
	}
}

// cachedCrops looks the kept crops up in g.Cache and returns the keys to
// store the others under (a zero key for a crop without an identity) and
// those left to encode. A crop whose identity fails (a missing file) is
// left to encode, which reports its error as the reference would.
func (g *Grounder) cachedCrops(crops []*vgCrop, kept []int) ([]int, map[int]embcache.Key, error) {
	if g.Cache == nil {
		return kept, nil, nil
	}
	if g.CacheModel == (embcache.Digest{}) {
		return nil, nil, fmt.Errorf("grounding: Cache set without CacheModel, the identity of the model's weights")
	}
	prep := fmt.Sprintf("rovist-vg joint image embedding, %#v", g.Model.proc.Config())
	keys := map[int]embcache.Key{}
	var keyed []embcache.Key
	var at []int
	for _, i := range kept {
		id := crops[i].crop.Identity
		if id == nil {
			continue
		}
		src, region, err := id()
		if err != nil {
			continue
		}
		k := embcache.ImageKey(embcache.ImageInput{Model: g.CacheModel, Preprocess: prep, Source: src, Region: region})
		keys[i] = k
		keyed, at = append(keyed, k), append(at, i)
	}
	found, _, err := embcache.Lookup(g.Cache, keyed)
	if err != nil {
		return nil, nil, fmt.Errorf("grounding: %w", err)
	}
	hit := map[int]bool{}
	for j, v := range found {
		if v != nil && len(v) == g.Model.EmbeddingDim() {
			crops[at[j]].emb = v
			hit[at[j]] = true
		}
	}
	var todo []int
	for _, i := range kept {
		if !hit[i] {
			todo = append(todo, i)
		}
	}
	return todo, keys, nil
}

// storeCrops puts the embeddings of the crops idx that have a key.
func (g *Grounder) storeCrops(crops []*vgCrop, idx []int, keys map[int]embcache.Key) error {
	var ks []embcache.Key
	var vs [][]float32
	for _, i := range idx {
		if k, ok := keys[i]; ok {
			ks, vs = append(ks, k), append(vs, crops[i].emb)
		}
	}
	if len(ks) == 0 {
		return nil
	}
	if err := g.Cache.PutMany(ks, vs); err != nil {
		return fmt.Errorf("grounding: %w", err)
	}
	return nil
}

// GroundingCacheModel returns the identity of a RoViST-VG model for
// Grounder.CacheModel: the digest of the checkpoint file joined with that
// of the ViT folder's files (config.json, preprocessor_config.json), the
// arguments of LoadGroundingModel. files digests them: the *embcache.Store
// the Grounder uses remembers the digests of unchanged files; nil reads
// them.
func GroundingCacheModel(files embcache.FileDigester, checkpointPath, vitDir string) (embcache.Digest, error) {
	if files == nil {
		files = embcache.ReadFiles{}
	}
	ck, err := files.DigestFile(checkpointPath)
	if err != nil {
		return embcache.Digest{}, fmt.Errorf("grounding model identity: %w", err)
	}
	dir, err := files.DigestDir(vitDir)
	if err != nil {
		return embcache.Digest{}, fmt.Errorf("grounding model identity: %w", err)
	}
	return embcache.Join(ck, dir), nil
}

// Warm encodes the crops Score would encode for these images (the first
// MaxRegions of each) and stores them in g.Cache; crops already there are
// skipped. It returns the number of crops encoded. Every region is loaded,
// as in Score, so a broken crop fails here too.
func (g *Grounder) Warm(ctx context.Context, images []story.Image, opts VGOptions) (int, error) {
	if g.Model == nil || g.Regions == nil || g.Cache == nil {
		return 0, fmt.Errorf("grounding: Warm needs a model, a regions source and a Cache")
	}
	maxRegions := opts.MaxRegions
	if maxRegions <= 0 {
		maxRegions = DefaultMaxRegions
	}
	var crops []*vgCrop
	seen := map[string]int{}
	for _, img := range images {
		list, err := g.Regions.RegionCrops(img)
		if err != nil {
			return 0, fmt.Errorf("grounding: image %q: %w", img.ID, err)
		}
		for r, c := range list {
			k, ok := seen[c.Key]
			if !ok {
				k = len(crops)
				seen[c.Key] = k
				crops = append(crops, &vgCrop{crop: c})
			}
			crops[k].keep = crops[k].keep || r < maxRegions
		}
	}
	encoded := 0
	count := g.forwards
	w := *g
	w.forwards = func(n int) {
		encoded += n
		if count != nil {
			count(n)
		}
	}
	if err := w.embedCrops(ctx, crops, opts); err != nil {
		return encoded, err
	}
	return encoded, nil
}
