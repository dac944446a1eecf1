package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/rovist"
)

// cacheLockTimeout is how long a command waits for another storyeval
// process that holds the embedding cache before it runs without it.
const cacheLockTimeout = 10 * time.Second

// cacheFlags are -cache and -no-cache of the commands that encode images
// (rovist, groovist, clipscore, score).
type cacheFlags struct {
	dir *string
	off *bool
}

// addCacheFlags defines -cache and -no-cache on fs.
func addCacheFlags(fs *flag.FlagSet) cacheFlags {
	return cacheFlags{
		dir: fs.String("cache", "", "embedding cache folder: image, crop and CLIP text embeddings are kept there between runs, so a new system over the same images encodes only its new text (default: $"+embcache.EnvDir+", else storyeval/ in the user cache folder, e.g. ~/.cache/storyeval)"),
		off: fs.Bool("no-cache", false, "neither read nor write the embedding cache: encode every image and text"),
	}
}

// cacheDir returns the folder -cache names, or the default one.
func cacheDir(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	return embcache.DefaultDir()
}

// cacheRun is the embedding cache of one command run. Its
// embcache.Lenient is the scorers' embcache.Cache, whose first failure is
// one note on stderr: the cache never fails a run. A nil *cacheRun
// is no cache.
type cacheRun struct {
	*embcache.Lenient
	name   string
	stderr io.Writer
	ok     bool // the run succeeded: close prints the closing line

	rebuiltAtOpen string // Rebuilt at Open, noted then
}

// open opens the store the flags name, or returns nil with -no-cache or
// when the store cannot be opened (held by another process past
// cacheLockTimeout, an unwritable folder), which is a note on stderr.
func (f cacheFlags) open(name string, stderr io.Writer) *cacheRun {
	if *f.off {
		return nil
	}
	dir, err := cacheDir(*f.dir)
	if err != nil {
		fmt.Fprintf(stderr, "storyeval %s: embedding cache off: %v\n", name, err)
		return nil
	}
	st, err := embcache.Open(filepath.Join(dir, embcache.FileName), embcache.Options{LockTimeout: cacheLockTimeout})
	if err != nil {
		fmt.Fprintf(stderr, "storyeval %s: embedding cache off: %v\n", name, err)
		return nil
	}
	if why := st.Rebuilt(); why != "" {
		fmt.Fprintf(stderr, "storyeval %s: embedding cache rebuilt: %s\n", name, why)
	}
	note := func(err error) {
		fmt.Fprintf(stderr, "storyeval %s: embedding cache: %v (going on without it)\n", name, err)
	}
	return &cacheRun{Lenient: &embcache.Lenient{Store: st, OnError: note}, name: name, stderr: stderr, rebuiltAtOpen: st.Rebuilt()}
}

// grounder points g at the cache, with the identity of the checkpoint and
// ViT folder g's model came from.
func (c *cacheRun) grounder(g *rovist.Grounder, checkpoint, vitDir string) error {
	if c == nil {
		return nil
	}
	id, err := rovist.GroundingCacheModel(c.Store, checkpoint, vitDir)
	if err != nil {
		return err
	}
	g.Cache, g.CacheModel = c, id
	return nil
}

// clip returns the cache and the identity of a CLIP model folder for
// groovist's Scorer and CLIPScorer, or a nil cache when c is nil.
func (c *cacheRun) clip(modelDir string) (embcache.Cache, embcache.Digest, error) {
	if c == nil {
		return nil, embcache.Digest{}, nil
	}
	id, err := c.Store.DigestDir(modelDir)
	if err != nil {
		return nil, id, err
	}
	return c, id, nil
}

// succeeded marks the run a success, so that close prints the closing
// line (a failed run's only line on stderr is its error).
func (c *cacheRun) succeeded() {
	if c != nil {
		c.ok = true
	}
}

// close prints, after a successful run, how many image and text
// embeddings came from the cache (the closing line of the run) and, when
// a read found the store damaged and it was rebuilt, why; then it closes
// the store.
func (c *cacheRun) close() {
	if c == nil {
		return
	}
	if why := c.Store.Rebuilt(); why != "" && why != c.rebuiltAtOpen {
		fmt.Fprintf(c.stderr, "storyeval %s: embedding cache rebuilt: %s\n", c.name, why)
	}
	if st, err := c.Store.Stats(); err == nil && c.ok && st.Hits+st.Misses > 0 {
		fmt.Fprintf(c.stderr, "storyeval %s: %s from the cache %s (%d encoded and stored)\n",
			c.name, fromCache(st), c.Store.Path(), st.Puts)
	}
	if err := c.Store.Close(); err != nil {
		fmt.Fprintf(c.stderr, "storyeval %s: embedding cache: %v\n", c.name, err)
	}
}

// fromCache says how many image and text embeddings the run looked up
// and how many of those the cache had: "N of M image embeddings, K of L
// text embeddings" (a kind the run never looked up is left out).
func fromCache(st embcache.Stats) string {
	var parts []string
	if n := st.Image.Hits + st.Image.Misses; n > 0 || st.Text.Hits+st.Text.Misses == 0 {
		parts = append(parts, fmt.Sprintf("%d of %d image embeddings", st.Image.Hits, n))
	}
	if n := st.Text.Hits + st.Text.Misses; n > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d text embeddings", st.Text.Hits, n))
	}
	return strings.Join(parts, ", ")
}
