package main

import (
	"io"

	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/limits"
)

func runCLIPScore(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("clipscore", stderr)
	candsPath := fs.String("cands", "", "JSON file {image id: candidate caption} (required)")
	imagesDir := fs.String("images", "", "folder of images named {image id}.png/.jpg/.jpeg (required)")
	refsPath := fs.String("refs", "", "JSON file {image id: [references]} (or {image id: reference}) for RefCLIPScore")
	format := fs.String("format", "json", "output format: json or csv")
	r := addCLIPRun(fs)
	setUsage(fs, "usage: storyeval clipscore -cands FILE.json -images DIR [-refs FILE.json] -model DIR [-tokenizer DIR] [-format json|csv] [-device cpu|cuda[:N]]",
		"\nPer image: CLIPScore = 2.5·max(cos(image, \"A photo depicts \" + caption), 0); with -refs also RefCLIPScore.")
	if err := parseRequired(fs, args, nil, "cands", "images"); err != nil {
		return err
	}
	if err := oneOf("format", *format, "json", "csv"); err != nil {
		return err
	}
	defer r.close()
	if err := r.start(); err != nil {
		return err
	}
	items, err := groovist.LoadCaptionsDir(*candsPath, *refsPath, *imagesDir, limits.Limits{})
	if err != nil {
		return groovistFlagError(err)
	}
	if err := r.load("clipscore", stderr); err != nil {
		return err
	}
	sc, err := groovist.NewCLIPScorer(r.model, r.tok)
	if err != nil {
		return err
	}
	sc.Cache, sc.CacheModel, sc.Decode = r.Cache, r.CacheModel, r.decode
	res, err := sc.Score(r.ctx, items)
	if err := scored(newProgress(stderr, 1, "runs"), r.cache, err); err != nil {
		return err
	}
	if *format == "csv" {
		return groovist.WriteCLIPScoreCSV(stdout, res)
	}
	return groovist.WriteCLIPScoreJSON(stdout, res, *refsPath != "")
}
