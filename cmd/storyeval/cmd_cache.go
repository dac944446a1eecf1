package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/groovist"
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

// withCacheStore parses -cache, opens the store (checking every page and
// value when verify is set; another process holding it is waited for, as
// the maintenance actions are short) and runs f on it.
func withCacheStore(fs *flag.FlagSet, args []string, verify *bool, f func(*embcache.Store) error) error {
	dir := fs.String("cache", "", "embedding cache folder (default: $"+embcache.EnvDir+", else storyeval/ in the user cache folder)")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	st, err := embcache.OpenDir(*dir, embcache.Options{Verify: verify != nil && *verify})
	if err != nil {
		return err
	}
	defer st.Close()
	return f(st)
}

func runCacheStats(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("cache stats", stderr)
	verify := fs.Bool("verify", false, "check every page and every value's checksum (a read of the whole file); a damaged store is moved aside and rebuilt")
	return withCacheStore(fs, args, verify, func(st *embcache.Store) error {
		s, err := st.Summary()
		if err != nil {
			return err
		}
		return writeJSON(stdout, s)
	})
}

func runCacheClear(args []string, stdout, stderr io.Writer) error {
	return withCacheStore(newFlagSet("cache clear", stderr), args, nil, func(st *embcache.Store) error {
		s, err := st.Stats()
		if err == nil {
			err = st.Clear()
		}
		if err == nil {
			fmt.Fprintf(stdout, "cleared %d entries from %s\n", s.Entries, st.Path())
		}
		return err
	})
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
	texts := *storiesPath != "" || *npsPath != ""
	switch {
	case err != nil:
		return err
	case *cache.off:
		return errors.New("-no-cache: nothing to warm")
	case *grounding == "" && *clip.model == "":
		return errors.New("give -grounding-model (RoViST-VG crops) and/or -model (a CLIP folder: GROOViST crops and phrases, CLIPScore images)")
	case (*regionsCSV == "") != (*crops == "") || (*regionsCSV == "" && *images == "" && !texts) || (*grounding != "" && *regionsCSV == ""):
		return errors.New("give -regions CSV and -crops DIR (RoViST-VG, GROOViST), -images DIR (CLIPScore) and/or -stories or -nps JSON (GROOViST's phrases)")
	case texts && *clip.model == "":
		return errors.New("-stories and -nps warm CLIP text embeddings: give -model")
	}
	st, err := embcache.OpenDir(*cache.dir, embcache.Options{})
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
	w := groovist.CacheWarming{Regions: *regionsCSV, Crops: *crops, NPs: *npsPath, Stories: *storiesPath, Images: *images, Decode: decode}
	err = groovist.WarmCache(ctx, m, tok, st, id, w, func(r groovist.Warmed) {
		if r.Err != nil {
			fmt.Fprintf(stderr, "storyeval cache warm: GROOViST: %v (the other images' crops are stored)\n", r.Err)
		}
		fmt.Fprintln(stdout, r)
	})
	if ie := (*groovist.WarmInputError)(nil); errors.As(err, &ie) {
		return fmt.Errorf("-%w", err) // -regions, -images
	}
	return err
}
