package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

func runRoViST(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "train" {
		return runRoViSTTrain(args[1:], stdout, stderr)
	}
	fs := newFlagSet("rovist", stderr)
	storiesPath := fs.String("stories", "", "JSON file {id: text} or RoViST's {id: {\"story\": text, \"images\": [ids]}} (required)")
	ids := fs.String("ids", "", "comma-separated story ids to score, in this order (default: all, in file order)")
	metrics := fs.String("metrics", "vg,c,nr", "metrics to compute: any of vg, c, nr")
	format := fs.String("format", "csv", "output format: csv or json (json adds the per-pair and per-noun diagnostics)")
	cohModel := fs.String("coherence-model", "", "RoViST-C checkpoint sop_model_epoch4.pth.tar, or a folder holding one .pth.tar (enables C)")
	albertDir := fs.String("albert", "", "ALBERT folder with config.json and spiece.model (default: albert-large-v1 next to the coherence checkpoint)")
	fs.String("grounding-model", "", "RoViST-VG checkpoint r2p_model_epoch2.pth.tar, or a folder holding one .pth.tar (enables VG)")
	vitDir := fs.String("vit", "", "ViT folder with config.json and preprocessor_config.json (default: vit-base-patch16-224-in21k next to the grounding checkpoint)")
	fs.String("glove", "", "GloVe text file, plain or .gz (glove.6B.300d.txt; needed by VG)")
	fs.String("idf", "", "idf_dict.pkl (needed by VG unless -no-idf)")
	fs.String("regions", "", "regions CSV with columns image_id,bbox (vist_entities.csv; needed by VG)")
	fs.String("crops", "", "folder of region crops {image_id}_{bbox}.jpg (vist-entities/; needed by VG)")
	nounsPath := fs.String("nouns", "", "nouns JSON {id: [nouns]} as extract_nouns.py writes it (default: extract them from the stories)")
	dhm := fs.Bool("dhm", false, "C: score each sentence against the growing prefix of the story (the dHM variant)")
	truncate := fs.Bool("truncate", false, "C: truncate a sentence pair longer than 512 pieces (longest first) instead of failing")
	noIDF := fs.Bool("no-idf", false, "VG: weight every noun 1 (the reference's --use_idf '')")
	defaultIDF := fs.String("default-idf", "", "VG: idf weight of a noun missing from -idf (default: such a noun is an error)")
	scaledVG := fs.Bool("scaled-vg", false, "add the paper's scaled VG, 2/(1+exp(-VG/2))-1, in the overall score instead of the raw VG")
	batch := fs.Int("batch", 0, "sentence pairs (C) or crops (VG) per forward pass (default: the library's)")
	cache, images, device := addCacheFlags(fs), addImageFlags(fs), addDeviceFlag(fs)
	setUsage(fs, "usage: storyeval rovist -stories FILE.json [-coherence-model PATH] [-grounding-model PATH -glove FILE -idf FILE -regions CSV -crops DIR] [-metrics vg,c,nr] [-dhm] [-format csv|json] [-device cpu|cuda[:N]]",
		"       storyeval rovist train vg|c ...   (train RoViST-VG or RoViST-C; 'storyeval rovist train' lists their flags)",
		"\nPrints one row per story in input order, then the system means (CSV id "+rovist.SystemID+").",
		"A metric whose files are not given is skipped with a note on stderr. Undefined",
		"scores (fewer than two sentences, no nouns) are NaN in CSV and null in JSON.")
	if err := parseRequired(fs, args, nil, "stories"); err != nil {
		return err
	}
	want, err := rovist.ParseMetrics(*metrics)
	if err := cmp.Or(oneOf("format", *format, "csv", "json"), flagError("metrics", err)); err != nil {
		return err
	}
	dev, err := device.open()
	if err != nil {
		return err
	}
	defer dev.Close()
	var idList []string
	if *ids != "" {
		idList = strings.Split(*ids, ",")
	}
	stories, err := story.LoadSelection(*storiesPath, idList, storyRead)
	if err != nil {
		return flagOf[*story.UnknownIDError](err, "-ids: ")
	}
	ctx, stop := interruptContext()
	defer stop()
	flagValue := func(name string) string { return fs.Lookup(name).Value.String() }
	var vg []rovist.VGResult
	var coh []rovist.CoherenceResult
	var nr []rovist.NRResult
	if want.VG {
		var missing []string
		for _, name := range []string{"grounding-model", "glove", "idf", "regions", "crops"} {
			if flagValue(name) == "" && (name != "idf" || !*noIDF) {
				missing = append(missing, "-"+name)
			}
		}
		if missing != nil {
			fmt.Fprintf(stderr, "storyeval rovist: skipping VG: give %s\n", strings.Join(missing, ", "))
		} else {
			opts := rovist.VGOptions{NoIDF: *noIDF, BatchSize: *batch}
			if err := opts.ParseDefaultIDF(*defaultIDF); err != nil {
				return fmt.Errorf("-default-idf %w", err)
			}
			if *nounsPath != "" {
				if opts.Nouns, err = rovist.LoadNouns(*nounsPath, limits.Limits{MaxBytes: maxInputBytes}); err != nil {
					return flagFileError("-nouns", err)
				}
			}
			files := rovist.GrounderFiles{ViT: *vitDir, GloVe: flagValue("glove"), Regions: flagValue("regions"), Crops: flagValue("crops"), Encoder: dev.Options}
			if !*noIDF {
				files.IDF = flagValue("idf")
			}
			if files.Decode, err = images.options(); err != nil {
				return err
			}
			var c *cacheRun
			restore := func() {}
			p, progress := newBar(stderr, "crops")
			opts.Progress = progress
			vg, err = rovist.ScoreGroundingFiles(ctx, flagValue("grounding-model"), files, stories, opts, func(g *rovist.Grounder, ckpt, vit string) error {
				restore, c = boundHeap(files.Decode), cache.open("rovist", stderr)
				return c.grounder(g, ckpt, vit)
			})
			err = scored(p, c, err)
			c.close()
			restore()
			if err != nil {
				return flagOf[*rovist.CheckpointError](err, "-grounding-model: ")
			}
		}
	}
	if want.C && *cohModel == "" {
		fmt.Fprintln(stderr, "storyeval rovist: skipping C: give -coherence-model")
	} else if want.C {
		p, progress := newBar(stderr, "sentence pairs")
		coh, err = rovist.ScoreCoherenceFiles(ctx, *cohModel, *albertDir, dev.Options, stories, rovist.CoherenceOptions{GrowingPrefix: *dhm, Truncate: *truncate, BatchSize: *batch, Progress: progress})
		if p.Finish(); err != nil {
			return flagOf[*rovist.CheckpointError](err, "-coherence-model: ")
		}
	}
	if want.NR {
		if nr, err = rovist.NonRedundancyOfStories(stories, rovist.NROptions{}); err != nil {
			return fmt.Errorf("NR: %w", err)
		}
	}
	if vg == nil && coh == nil && nr == nil {
		return fmt.Errorf("no metric to compute")
	}
	rows, err := rovist.Combine(stories, vg, coh, nr, rovist.CombineOptions{ScaledVG: *scaledVG})
	if err != nil {
		return err
	}
	// Both writers fail only when stdout does: JSON is encoded whole
	// before it is written, CSV has no value that cannot be written.
	if *format == "json" {
		return rovist.WriteJSON(stdout, rows, *scaledVG)
	}
	return rovist.WriteCSV(stdout, rows, rovist.Computed{VG: vg != nil, C: coh != nil, NR: nr != nil})
}

// runRoViSTTrain dispatches `rovist train vg|c`: the training recipes of
// RoViST-VG (region–phrase contrastive training) and RoViST-C
// (sentence-order fine-tuning).
func runRoViSTTrain(args []string, stdout, stderr io.Writer) error {
	return runAction(args, stdout, stderr, []string{
		rovistTrainUsage,
		"       storyeval rovist train c -stories FILE (-albert DIR [-checkpoint FILE] | -resume DIR) -out DIR [flags]",
	}, action{"vg", runRovistTrain}, action{"c", runRovistTrainC})
}
