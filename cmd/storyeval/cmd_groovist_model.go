package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/groovist"
)

// clipModelFlags are -model and -tokenizer of the commands that score
// with CLIP (clipscore, groovist, cache warm).
type clipModelFlags struct{ model, tokenizer *string }

func addCLIPModelFlags(fs *flag.FlagSet) clipModelFlags {
	return clipModelFlags{
		model:     fs.String("model", "", "HuggingFace CLIP folder (config.json + weights) (required)"),
		tokenizer: fs.String("tokenizer", "", "folder with CLIP's vocab.json and merges.txt (default: -model)"),
	}
}

func (f clipModelFlags) load() (*encoders.CLIP, *tokenize.CLIP, error) {
	return f.loadOn(encoders.Options{})
}

// loadOn is groovist.LoadCLIP of the folders the flags name, onto o's
// backend; an error names the flag of the folder at fault.
func (f clipModelFlags) loadOn(o encoders.Options) (*encoders.CLIP, *tokenize.CLIP, error) {
	if *f.model == "" {
		return nil, nil, fmt.Errorf("-model is required: a HuggingFace CLIP folder (config.json and model.safetensors or pytorch_model.bin)")
	}
	m, tok, err := groovist.LoadCLIP(*f.model, *f.tokenizer, o)
	var fe *groovist.CLIPFolderError
	if !errors.As(err, &fe) {
		return m, tok, err
	}
	flag := map[bool]string{false: "-model", true: "-tokenizer"}[fe.Tokenizer]
	if errors.Is(err, groovist.ErrNoVocabulary) {
		return nil, nil, fmt.Errorf("%s %s: %v (CLIP's BPE vocabulary; pass the folder that has them with -tokenizer)", flag, fe.Dir, fe.Err)
	}
	return nil, nil, fmt.Errorf("%s %w", flag, err)
}

// clipRun is the set-up clipscore and groovist share. Its flags are
// -model and -tokenizer, -device, the image-decoding bounds and the cache;
// start opens the device (first, so that a wrong one is the first error)
// and checks the bounds; load, once the inputs are read, loads the model,
// bounds the heap, opens the cache (Cache nil with -no-cache) and the
// interrupt context. close releases them in the reverse order.
type clipRun struct {
	clip       clipModelFlags
	device     deviceFlag
	images     *imageFlags
	caching    cacheFlags
	dev        *openDevice
	decode     imageproc.DecodeOptions
	model      *encoders.CLIP
	tok        *tokenize.CLIP
	cache      *cacheRun
	Cache      embcache.Cache
	CacheModel embcache.Digest
	ctx        context.Context
	undo       []func()
}

func addCLIPRun(fs *flag.FlagSet) *clipRun {
	return &clipRun{clip: addCLIPModelFlags(fs), device: addDeviceFlag(fs), images: addImageFlags(fs), caching: addCacheFlags(fs)}
}

func (r *clipRun) start() (err error) {
	if r.dev, err = r.device.open(); err != nil {
		return err
	}
	r.undo = append(r.undo, func() { r.dev.Close() })
	r.decode, err = r.images.options()
	return err
}

func (r *clipRun) load(name string, stderr io.Writer) (err error) {
	if r.model, r.tok, err = r.clip.loadOn(r.dev.Options); err != nil {
		return err
	}
	r.cache = r.caching.open(name, stderr)
	r.undo = append(r.undo, func() { r.model.Close() }, boundHeap(r.decode), r.cache.close)
	r.Cache, r.CacheModel, err = r.cache.clip(*r.clip.model)
	var stop func()
	r.ctx, stop = interruptContext()
	r.undo = append(r.undo, stop)
	return err
}

func (r *clipRun) close() {
	for i := len(r.undo) - 1; i >= 0; i-- {
		r.undo[i]()
	}
}

// newBar returns a progress bar of what and the library Progress callback
// (a running done of total) that moves it.
func newBar(stderr io.Writer, what string) (*progress, func(done, total int)) {
	p := newProgress(stderr, 0, what)
	return p, func(done, total int) {
		p.total = total
		p.Set(done)
	}
}

// scored ends a scoring run: the bar, then err with the pixel-limit hint,
// or the cache's closing line on success.
func scored(p *progress, c *cacheRun, err error) error {
	p.Finish()
	if err != nil {
		return imageError(err)
	}
	c.succeeded()
	return nil
}
