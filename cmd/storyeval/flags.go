// The flags and flag checks that several subcommands share.

package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
	"github.com/storyeval/storyeval/encoders/compute/device"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/rovist"
)

// flagError prefixes a flag value's error with the flag's name; nil stays
// nil. With cmp.Or, a command checks its flags in order, the first error
// winning.
func flagError(name string, err error) error {
	if err != nil {
		return fmt.Errorf("-%s: %w", name, err)
	}
	return nil
}

// oneOf is nil when v is one of want, else "-flag "v": want a or b".
func oneOf(flag, v string, want ...string) error {
	return errIf(!slices.Contains(want, v), "-%s %q: want %s", flag, v, joinWords(want, "or"))
}

// flagOf prefixes err with prefix, which names the flag, when err is an E:
// a library error about the input the flag gave. Other errors pass as they are.
func flagOf[E error](err error, prefix string) error {
	if errors.As(err, new(E)) {
		return fmt.Errorf("%s%w", prefix, err)
	}
	return err
}

// errIf is the error of format and args when bad is true, else nil.
func errIf(bad bool, format string, args ...any) error {
	if bad {
		return fmt.Errorf(format, args...)
	}
	return nil
}

// quoteShort quotes a user-given value for a message, cut after 80
// characters.
func quoteShort(s string) string {
	if r := []rune(s); len(r) > 80 {
		return fmt.Sprintf("%q…", string(r[:80]))
	}
	return fmt.Sprintf("%q", s)
}

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

// deviceFlag is the -device flag of the commands that run encoders.
type deviceFlag struct{ name *string }

// envDevice sets -device's default (cpu when unset), so that a GPU
// machine's scripts run every command on CUDA without changing arguments.
const envDevice = "STORYEVAL_DEVICE"

// addDeviceFlag defines -device on fs.
func addDeviceFlag(fs *flag.FlagSet) deviceFlag {
	return deviceFlag{name: fs.String("device", cmp.Or(os.Getenv(envDevice), "cpu"), "where the models run: cpu, cuda (GPU 0) or cuda:N (default $"+envDevice+", else cpu); the CUDA libraries are looked for in $"+
		cudalib.EnvLibPath+", CUDA_HOME and the system folders ('storyeval devices' lists what it finds)")}
}

// openDevice is an opened device: the options its models load with (the
// zero value, the reference default, for the CPU) and Close, which
// releases it (a GPU's memory) when the command ends.
type openDevice struct {
	encoders.Options
	io.Closer
}

// open opens the device -device names; an unknown name or an unusable GPU
// is a one-line error naming the flag.
func (f deviceFlag) open() (*openDevice, error) {
	opts, c, err := device.EncoderOptions(*f.name, cuda.Options{})
	if err != nil {
		return nil, fmt.Errorf("-device %w", err)
	}
	return &openDevice{opts, c}, nil
}

// imageFlags are the image-decoding bounds of the commands that read image
// files (clipscore, groovist, rovist, imageproc).
type imageFlags struct {
	maxPixels int64 // -max-image-pixels
	memoryMiB int64 // -image-memory
}

// addImageFlags defines -max-image-pixels and -image-memory on fs.
func addImageFlags(fs *flag.FlagSet) *imageFlags {
	f := &imageFlags{}
	fs.Int64Var(&f.maxPixels, "max-image-pixels", imageproc.DefaultMaxPixels,
		"refuse an image of more pixels (default: the size above which Pillow raises DecompressionBombError)")
	fs.Int64Var(&f.memoryMiB, "image-memory", imageproc.DefaultDecodeBudget>>20,
		"MiB of decoded images held at once by the whole run (an image costs its file plus 4 bytes a pixel, 12 for a JPEG; images wait for room, one larger than this runs alone)")
	return f
}

// options returns the decode options of the flags, with one budget for
// the whole process.
func (f *imageFlags) options() (imageproc.DecodeOptions, error) {
	if f.maxPixels <= 0 {
		return imageproc.DecodeOptions{}, fmt.Errorf("-max-image-pixels %d: want a positive number", f.maxPixels)
	}
	if f.memoryMiB <= 0 || f.memoryMiB > 1<<40 {
		return imageproc.DecodeOptions{}, fmt.Errorf("-image-memory %d: want a positive number of MiB", f.memoryMiB)
	}
	return imageproc.DecodeOptions{MaxPixels: f.maxPixels, Budget: imageproc.NewDecodeBudget(f.memoryMiB << 20)}, nil
}

// imageError adds the flag that raises the pixel limit to an error caused
// by it.
func imageError(err error) error {
	if errors.Is(err, imageproc.ErrTooManyPixels) {
		return fmt.Errorf("%w (raise the limit with -max-image-pixels)", err)
	}
	return err
}

// boundHeap bounds the heap to the models plus the decode budget while
// images are decoded (see imageproc.BoundHeap).
func boundHeap(opts imageproc.DecodeOptions) (restore func()) {
	return imageproc.BoundHeap(opts.Budget)
}
