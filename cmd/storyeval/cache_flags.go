package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/rovist"
)

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

// cacheRun is the embedding cache of one command run; a nil *cacheRun is
// no cache.
type cacheRun struct {
	*embcache.Session
	ok bool // the run succeeded: close prints the closing line
}

// open opens the store the flags name, or returns nil with -no-cache or
// when it cannot be opened (held by another process for 10 s, an
// unwritable folder), which is a note on stderr.
func (f cacheFlags) open(name string, stderr io.Writer) *cacheRun {
	if *f.off {
		return nil
	}
	note := func(msg string) { fmt.Fprintf(stderr, "storyeval %s: %s\n", name, msg) }
	s, err := embcache.OpenSession(*f.dir, embcache.Options{LockTimeout: 10 * time.Second}, note)
	if err != nil {
		note("embedding cache off: " + err.Error())
		return nil
	}
	return &cacheRun{Session: s}
}

// grounder points g at the cache, keyed by the checkpoint and ViT folder
// g's model came from.
func (c *cacheRun) grounder(g *rovist.Grounder, checkpoint, vitDir string) (err error) {
	if c != nil {
		g.Cache = c
		g.CacheModel, err = rovist.GroundingCacheModel(c.Store, checkpoint, vitDir)
	}
	return err
}

// clip returns the cache and the identity of a CLIP model folder for
// groovist's Scorer and CLIPScorer, or a nil cache when c is nil.
func (c *cacheRun) clip(modelDir string) (embcache.Cache, embcache.Digest, error) {
	if c == nil {
		return nil, embcache.Digest{}, nil
	}
	id, err := c.Store.DigestDir(modelDir)
	return c, id, err
}

// succeeded marks the run a success: a failed run's only line on stderr
// is its error.
func (c *cacheRun) succeeded() {
	if c != nil {
		c.ok = true
	}
}

// close ends the session (see embcache.Session.End).
func (c *cacheRun) close() {
	if c != nil {
		c.End(c.ok)
	}
}
