package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/rovist"
)

func runCache(args []string, stdout, stderr io.Writer) error {
	return runAction(args, stdout, stderr, []string{
		"usage: storyeval cache stats [-cache DIR] [-verify] (entries and bytes by kind, size per 10,000 entries, as JSON)",
		"       storyeval cache clear [-cache DIR]          (delete every entry)",
		"       storyeval cache warm [-cache DIR] [-grounding-model PATH [-vit DIR]] [-model CLIP_DIR [-tokenizer DIR]] (-regions CSV -crops DIR | -images DIR | -stories JSON | -nps JSON)",
		"",
		"The cache keeps image and crop embeddings keyed by the model's files, the preprocessing",
		"and each image's bytes, and CLIP text embeddings keyed by the model's files, the text and",
		"its token ids, so that scoring another system over the same images encodes only its new",
		"text. Default folder: $" + embcache.EnvDir + ", else storyeval/ in the user cache folder.",
	}, action{"stats", runCacheStats}, action{"clear", runCacheClear}, action{"warm", runCacheWarm})
}

// openCacheStore parses -cache and opens the store, checking every page
// and value when verify is set; other processes wait (the maintenance
// actions are short) rather than skip.
func openCacheStore(fs *flag.FlagSet, args []string, verify *bool) (*embcache.Store, error) {
	dir := fs.String("cache", "", "embedding cache folder (default: $"+embcache.EnvDir+", else storyeval/ in the user cache folder)")
	if err := parseFlags(fs, args, 0); err != nil {
		return nil, err
	}
	d, err := cacheDir(*dir)
	if err != nil {
		return nil, err
	}
	return embcache.Open(filepath.Join(d, embcache.FileName), embcache.Options{Verify: verify != nil && *verify})
}

// cacheStats is what cache stats prints.
type cacheStats struct {
	Path      string `json:"path"`
	Entries   int    `json:"entries"`
	Bytes     int64  `json:"bytes"`
	FileBytes int64  `json:"file_bytes"`
	// FileBytesPer10000 is the file's size per 10,000 entries (bbolt
	// pages, free ones included).
	FileBytesPer10000 int64          `json:"file_bytes_per_10000_entries,omitempty"`
	Image             cacheKindStats `json:"image"`
	Text              cacheKindStats `json:"text"`
	// Verified is set when -verify checked every page and value and found
	// the store sound.
	Verified bool   `json:"verified,omitempty"`
	Rebuilt  string `json:"rebuilt,omitempty"`
}

// cacheKindStats are the entries of one kind (image or text embeddings):
// their count, the bytes of their keys and values, and those bytes per
// 10,000 entries.
type cacheKindStats struct {
	Entries       int   `json:"entries"`
	Bytes         int64 `json:"bytes"`
	BytesPer10000 int64 `json:"bytes_per_10000_entries,omitempty"`
}

func per10000(bytes int64, entries int) int64 {
	if entries == 0 {
		return 0
	}
	return bytes * 10000 / int64(entries)
}

func kindStats(k embcache.KindStats) cacheKindStats {
	return cacheKindStats{Entries: k.Entries, Bytes: k.Bytes, BytesPer10000: per10000(k.Bytes, k.Entries)}
}

func runCacheStats(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("cache stats", stderr)
	verify := fs.Bool("verify", false, "check every page and every value's checksum (a read of the whole file); a damaged store is moved aside and rebuilt")
	st, err := openCacheStore(fs, args, verify)
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := st.Stats()
	if err != nil {
		return err
	}
	return writeJSON(stdout, cacheStats{Path: st.Path(), Entries: s.Entries, Bytes: s.Bytes, FileBytes: s.FileBytes,
		FileBytesPer10000: per10000(s.FileBytes, s.Entries), Image: kindStats(s.Image), Text: kindStats(s.Text),
		Verified: *verify && st.Rebuilt() == "", Rebuilt: st.Rebuilt()})
}

func runCacheClear(args []string, stdout, stderr io.Writer) error {
	st, err := openCacheStore(newFlagSet("cache clear", stderr), args, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := st.Stats()
	if err != nil {
		return err
	}
	if err := st.Clear(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "cleared %d entries from %s\n", s.Entries, st.Path())
	return nil
}

func runCacheWarm(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("cache warm", stderr)
	grounding := fs.String("grounding-model", "", "RoViST-VG checkpoint (or a folder holding one .pth.tar): warm its crops of -regions/-crops")
	vitDir := fs.String("vit", "", "ViT folder of the grounding model (default: vit-base-patch16-224-in21k next to the checkpoint)")
	clip := addCLIPModelFlags(fs)
	regionsCSV := fs.String("regions", "", "regions CSV (image_id,bbox): every image's crops are warmed")
	crops := fs.String("crops", "", "folder of region crops {image_id}_{bbox}.jpg")
	images := fs.String("images", "", "folder of images (as clipscore -images): warm CLIPScore's image features with -model")
	storiesPath := fs.String("stories", "", "stories JSON (as groovist -stories): warm GROOViST's noun-phrase text embeddings with -model (phrases extracted unless -nps)")
	npsPath := fs.String("nps", "", "noun phrases JSON {id: [phrases]} (as groovist -nps): warm their text embeddings with -model")
	cache := addCacheFlags(fs)
	imageOpts := addImageFlags(fs)
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	decode, err := imageOpts.options()
	if err != nil {
		return err
	}
	if *cache.off {
		return errors.New("-no-cache: nothing to warm")
	}
	texts := *storiesPath != "" || *npsPath != ""
	if *grounding == "" && *clip.model == "" {
		return errors.New("give -grounding-model (RoViST-VG crops) and/or -model (a CLIP folder: GROOViST crops and phrases, CLIPScore images)")
	}
	if (*regionsCSV == "") != (*crops == "") || (*regionsCSV == "" && *images == "" && !texts) || (*grounding != "" && *regionsCSV == "") {
		return errors.New("give -regions CSV and -crops DIR (RoViST-VG, GROOViST), -images DIR (CLIPScore) and/or -stories or -nps JSON (GROOViST's phrases)")
	}
	if texts && *clip.model == "" {
		return errors.New("-stories and -nps warm CLIP text embeddings: give -model")
	}
	dir, err := cacheDir(*cache.dir)
	if err != nil {
		return err
	}
	st, err := embcache.Open(filepath.Join(dir, embcache.FileName), embcache.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	if why := st.Rebuilt(); why != "" {
		fmt.Fprintf(stderr, "storyeval cache warm: rebuilt: %s\n", why)
	}
	ctx, stop := interruptContext()
	defer stop()
	if *grounding != "" {
		ckpt, vit, err := rovist.GroundingFiles(*grounding, *vitDir)
		if err != nil {
			return fmt.Errorf("-grounding-model: %w", err)
		}
		n, images, err := rovist.WarmGroundingCache(ctx, st, ckpt, rovist.GrounderFiles{ViT: vit, Regions: *regionsCSV, Crops: *crops, Decode: decode}, rovist.VGOptions{})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "RoViST-VG: %d crops of %d images encoded and stored\n", n, images)
	}
	if *clip.model == "" {
		return nil
	}
	m, tok, err := clip.load()
	if err != nil {
		return err
	}
	id, err := st.DigestDir(*clip.model)
	if err != nil {
		return err
	}
	if *regionsCSV != "" {
		sc, err := groovist.NewScorer(m, tok)
		if err != nil {
			return err
		}
		if sc.Entities, err = regions.Load(*regionsCSV, regions.Options{}); err != nil {
			return fmt.Errorf("-regions: %w", err)
		}
		sc.CropsDir, sc.Decode, sc.Cache, sc.CacheModel = *crops, decode, st, id
		n, imgs, err := sc.WarmEntities(ctx)
		if n == 0 && err != nil {
			return err
		}
		if err != nil {
			fmt.Fprintf(stderr, "storyeval cache warm: GROOViST: %v (the other images' crops are stored)\n", err)
		}
		fmt.Fprintf(stdout, "GROOViST: %d crops of %d images encoded and stored\n", n, imgs)
	}
	if texts {
		if err := warmPhrases(ctx, stdout, m, tok, id, st, *npsPath, *storiesPath); err != nil {
			return err
		}
	}
	if *images != "" {
		_, paths, err := groovist.ImageFiles(*images)
		if err != nil {
			return fmt.Errorf("-images: %w", err)
		}
		cs, err := groovist.NewCLIPScorer(m, tok)
		if err != nil {
			return err
		}
		cs.Decode, cs.Cache, cs.CacheModel = decode, st, id
		n, err := cs.WarmImages(ctx, paths)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "CLIPScore: %d of %d images encoded and stored\n", n, len(paths))
	}
	return nil
}

// warmPhrases stores the CLIP text embeddings of GROOViST's noun phrases
// of the stories (given as -nps or extracted from -stories).
func warmPhrases(ctx context.Context, stdout io.Writer, m *encoders.CLIP, tok *tokenize.CLIP, id embcache.Digest, st *embcache.Store, npsPath, storiesPath string) error {
	inputs, err := groovistInputs(npsPath, storiesPath)
	if err != nil {
		return err
	}
	sc, err := groovist.NewScorer(m, tok)
	if err != nil {
		return err
	}
	sc.Cache, sc.CacheModel = st, id
	n, all, err := sc.WarmTexts(ctx, inputs, groovist.Options{})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "GROOViST: %d of %d noun phrases of %d stories encoded and stored\n", n, all, len(inputs))
	return nil
}
