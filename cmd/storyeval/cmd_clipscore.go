package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/limits"
)

func init() {
	register(command{
		name:    "clipscore",
		summary: "CLIPScore and RefCLIPScore of captions (clipscore.py conventions)",
		run:     runCLIPScore,
	})
}

func runCLIPScore(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("clipscore", stderr)
	candsPath := fs.String("cands", "", "JSON file {image id: candidate caption} (required)")
	imagesDir := fs.String("images", "", "folder of images named {image id}.png/.jpg/.jpeg (required)")
	refsPath := fs.String("refs", "", "JSON file {image id: [references]} (or {image id: reference}) for RefCLIPScore")
	clip := addCLIPModelFlags(fs)
	dev := addDeviceFlag(fs)
	images := addImageFlags(fs)
	format := fs.String("format", "json", "output format: json or csv")
	cacheFlags := addCacheFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval clipscore -cands FILE.json -images DIR [-refs FILE.json] -model DIR [-tokenizer DIR] [-format json|csv] [-device cpu|cuda[:N]]")
		fmt.Fprintln(stderr, "\nPer image: CLIPScore = 2.5·max(cos(image, \"A photo depicts \" + caption), 0); with -refs also RefCLIPScore.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *candsPath == "" || *imagesDir == "" {
		fs.Usage()
		return errors.New("-cands and -images are required")
	}
	if *format != "json" && *format != "csv" {
		return fmt.Errorf("-format %q: want json or csv", *format)
	}
	d, err := dev.open()
	if err != nil {
		return err
	}
	defer d.Close()
	decode, err := images.options()
	if err != nil {
		return err
	}
	ids, paths, err := groovist.ImageFiles(*imagesDir)
	if err != nil {
		return fmt.Errorf("-images: %w", err)
	}
	if len(ids) == 0 {
		return fmt.Errorf("-images %s: no .png, .jpg, .jpeg or .tiff file", *imagesDir)
	}
	items, err := groovist.LoadCaptions(*candsPath, *refsPath, ids, paths, limits.Limits{})
	if err != nil {
		return err
	}
	m, tok, err := clip.loadOn(d.Options)
	if err != nil {
		return err
	}
	defer m.Close()
	sc, err := groovist.NewCLIPScorer(m, tok)
	if err != nil {
		return err
	}
	cache := cacheFlags.open("clipscore", stderr)
	defer cache.close()
	if sc.Cache, sc.CacheModel, err = cache.clip(*clip.model); err != nil {
		return err
	}
	sc.Decode = decode
	defer boundHeap(decode)()
	ctx, stop := interruptContext()
	defer stop()
	prog := newProgress(stderr, 1, "runs")
	res, err := sc.Score(ctx, items)
	prog.Finish()
	if err != nil {
		return imageError(err)
	}
	cache.succeeded()
	cm, rm := groovist.CorpusMeans(res)
	if *format == "csv" {
		cw := csv.NewWriter(stdout)
		_ = cw.Write([]string{"id", "CLIPScore", "RefCLIPScore"})
		for _, r := range res {
			_ = cw.Write([]string{r.ID, formatFloat(r.CLIPScore), formatFloat(r.RefCLIPScore)})
		}
		_ = cw.Write([]string{"(mean)", formatFloat(cm), formatFloat(rm)})
		cw.Flush()
		return cw.Error()
	}
	out := clipScoreOutput{CLIPScore: Float(cm)}
	if *refsPath != "" {
		v := Float(rm)
		out.RefCLIPScore = &v
	}
	for _, r := range res {
		it := clipScoreItem{ID: r.ID, CLIPScore: Float(r.CLIPScore)}
		if r.HasRefs {
			a, b := Float(r.RefCLIPScore), Float(r.MaxRefCosine)
			it.RefCLIPScore, it.MaxRefCosine = &a, &b
		}
		out.Items = append(out.Items, it)
	}
	return writeJSON(stdout, out)
}

type clipScoreItem struct {
	ID           string `json:"id"`
	CLIPScore    Float  `json:"CLIPScore"`
	RefCLIPScore *Float `json:"RefCLIPScore,omitempty"`
	MaxRefCosine *Float `json:"max_ref_cosine,omitempty"`
}

type clipScoreOutput struct {
	CLIPScore    Float           `json:"CLIPScore"`
	RefCLIPScore *Float          `json:"RefCLIPScore,omitempty"`
	Items        []clipScoreItem `json:"items"`
}
