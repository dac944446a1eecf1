package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

func init() {
	register(command{
		name:    "rovist",
		summary: "RoViST (VG, C, NR and their sum) of each story from the original RoViST checkpoints, with system means; rovist train vg|c trains VG or C",
		run:     runRoViST,
	})
}

// rovistSystemID labels the row of system means in CSV output.
const rovistSystemID = rovist.SystemID

// rovistFlags are the parsed flags of the rovist subcommand.
type rovistFlags struct {
	stories, ids, metrics, format               string
	coherenceModel, albertDir                   string
	groundingModel, vitDir, glove, idf, regions string
	crops, nouns                                string
	dhm, truncate, noIDF, scaledVG              bool
	defaultIDF                                  string
	batch                                       int
	cache                                       cacheFlags
	images                                      *imageFlags
	device                                      deviceFlag
	// dev is the opened -device the models load onto.
	dev *openDevice
}

func runRoViST(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "train" {
		return runRoViSTTrain(args[1:], stdout, stderr)
	}
	fs := newFlagSet("rovist", stderr)
	var f rovistFlags
	fs.StringVar(&f.stories, "stories", "", "JSON file {id: text} or RoViST's {id: {\"story\": text, \"images\": [ids]}} (required)")
	fs.StringVar(&f.ids, "ids", "", "comma-separated story ids to score, in this order (default: all, in file order)")
	fs.StringVar(&f.metrics, "metrics", "vg,c,nr", "metrics to compute: any of vg, c, nr")
	fs.StringVar(&f.format, "format", "csv", "output format: csv or json (json adds the per-pair and per-noun diagnostics)")
	fs.StringVar(&f.coherenceModel, "coherence-model", "", "RoViST-C checkpoint sop_model_epoch4.pth.tar, or a folder holding one .pth.tar (enables C)")
	fs.StringVar(&f.albertDir, "albert", "", "ALBERT folder with config.json and spiece.model (default: albert-large-v1 next to the coherence checkpoint)")
	fs.StringVar(&f.groundingModel, "grounding-model", "", "RoViST-VG checkpoint r2p_model_epoch2.pth.tar, or a folder holding one .pth.tar (enables VG)")
	fs.StringVar(&f.vitDir, "vit", "", "ViT folder with config.json and preprocessor_config.json (default: vit-base-patch16-224-in21k next to the grounding checkpoint)")
	fs.StringVar(&f.glove, "glove", "", "GloVe text file, plain or .gz (glove.6B.300d.txt; needed by VG)")
	fs.StringVar(&f.idf, "idf", "", "idf_dict.pkl (needed by VG unless -no-idf)")
	fs.StringVar(&f.regions, "regions", "", "regions CSV with columns image_id,bbox (vist_entities.csv; needed by VG)")
	fs.StringVar(&f.crops, "crops", "", "folder of region crops {image_id}_{bbox}.jpg (vist-entities/; needed by VG)")
	fs.StringVar(&f.nouns, "nouns", "", "nouns JSON {id: [nouns]} as extract_nouns.py writes it (default: extract them from the stories)")
	fs.BoolVar(&f.dhm, "dhm", false, "C: score each sentence against the growing prefix of the story (the dHM variant)")
	fs.BoolVar(&f.truncate, "truncate", false, "C: truncate a sentence pair longer than 512 pieces (longest first) instead of failing")
	fs.BoolVar(&f.noIDF, "no-idf", false, "VG: weight every noun 1 (the reference's --use_idf '')")
	fs.StringVar(&f.defaultIDF, "default-idf", "", "VG: idf weight of a noun missing from -idf (default: such a noun is an error)")
	fs.BoolVar(&f.scaledVG, "scaled-vg", false, "add the paper's scaled VG, 2/(1+exp(-VG/2))-1, in the overall score instead of the raw VG")
	fs.IntVar(&f.batch, "batch", 0, "sentence pairs (C) or crops (VG) per forward pass (default: the library's)")
	f.cache = addCacheFlags(fs)
	f.images = addImageFlags(fs)
	f.device = addDeviceFlag(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval rovist -stories FILE.json [-coherence-model PATH] [-grounding-model PATH -glove FILE -idf FILE -regions CSV -crops DIR] [-metrics vg,c,nr] [-dhm] [-format csv|json] [-device cpu|cuda[:N]]")
		fmt.Fprintln(stderr, "       storyeval rovist train vg|c ...   (train RoViST-VG or RoViST-C; 'storyeval rovist train' lists their flags)")
		fmt.Fprintln(stderr, "\nPrints one row per story in input order, then the system means (CSV id "+rovistSystemID+").")
		fmt.Fprintln(stderr, "A metric whose files are not given is skipped with a note on stderr. Undefined")
		fmt.Fprintln(stderr, "scores (fewer than two sentences, no nouns) are NaN in CSV and null in JSON.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if f.stories == "" {
		fs.Usage()
		return fmt.Errorf("-stories is required")
	}
	if f.format != "csv" && f.format != "json" {
		return fmt.Errorf("-format %q: want csv or json", f.format)
	}
	want := map[string]bool{}
	for _, m := range strings.Split(f.metrics, ",") {
		m = strings.ToLower(strings.TrimSpace(m))
		switch m {
		case "vg", "c", "nr":
			want[m] = true
		default:
			return fmt.Errorf("-metrics: unknown metric %q (want vg, c, nr)", m)
		}
	}
	var err error
	if f.dev, err = f.device.open(); err != nil {
		return err
	}
	defer f.dev.Close()
	stories, err := rovistStories(f)
	if err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()

	var vg []rovist.VGResult
	var coh []rovist.CoherenceResult
	var nr []rovist.NRResult
	if want["vg"] {
		if missing := missingFlags(map[string]string{"-grounding-model": f.groundingModel, "-glove": f.glove, "-regions": f.regions, "-crops": f.crops, "-idf": map[bool]string{true: "-", false: f.idf}[f.noIDF]}); missing != "" {
			fmt.Fprintf(stderr, "storyeval rovist: skipping VG: give %s\n", missing)
		} else if vg, err = rovistGrounding(ctx, f, stories, stderr); err != nil {
			return err
		}
	}
	if want["c"] {
		if f.coherenceModel == "" {
			fmt.Fprintln(stderr, "storyeval rovist: skipping C: give -coherence-model")
		} else if coh, err = rovistCoherence(ctx, f, stories, stderr); err != nil {
			return err
		}
	}
	if want["nr"] {
		texts := make([]string, len(stories))
		for i, st := range stories {
			texts[i] = st.Text
		}
		var errs []error
		// Scores only: the per-pair results of every story would take
		// 15× the input (issue 24), and the output shows none of them.
		nr, errs = rovist.NonRedundancyScores(texts, rovist.NROptions{})
		for i, e := range errs {
			if e != nil {
				return fmt.Errorf("NR: story %q: %w", stories[i].ID, e)
			}
		}
	}
	if vg == nil && coh == nil && nr == nil {
		return fmt.Errorf("no metric to compute")
	}
	rows, err := rovist.Combine(stories, vg, coh, nr, rovist.CombineOptions{ScaledVG: f.scaledVG})
	if err != nil {
		return err
	}
	var buf bytes.Buffer // nothing is written unless everything succeeded
	if f.format == "json" {
		err = rovist.WriteJSON(&buf, rows, f.scaledVG)
	} else {
		err = rovist.WriteCSV(&buf, rows, rovist.Computed{VG: vg != nil, C: coh != nil, NR: nr != nil})
	}
	if err != nil {
		return err
	}
	_, err = stdout.Write(buf.Bytes())
	return err
}

// missingFlags lists, in a fixed order, the flags left empty.
func missingFlags(flags map[string]string) string {
	var out []string
	for _, name := range []string{"-grounding-model", "-glove", "-idf", "-regions", "-crops"} {
		if v, ok := flags[name]; ok && v == "" {
			out = append(out, name)
		}
	}
	return strings.Join(out, ", ")
}

// rovistStories reads the stories and applies -ids.
func rovistStories(f rovistFlags) ([]story.Story, error) {
	set, err := story.LoadJSON(f.stories, story.ReadOptions{Limits: limits.Limits{MaxBytes: maxInputBytes}})
	if err != nil {
		return nil, err
	}
	if f.ids == "" {
		if set.Len() == 0 {
			return nil, fmt.Errorf("%s: no stories", f.stories)
		}
		return set.Stories(), nil
	}
	var out []story.Story
	for _, id := range strings.Split(f.ids, ",") {
		st, ok := set.Get(id)
		if !ok {
			return nil, fmt.Errorf("-ids: story %q is not in %s", id, f.stories)
		}
		out = append(out, st)
	}
	return out, nil
}

func rovistCoherence(ctx context.Context, f rovistFlags, stories []story.Story, stderr io.Writer) ([]rovist.CoherenceResult, error) {
	ckpt, albert, err := rovist.CoherenceFiles(f.coherenceModel, f.albertDir)
	if err != nil {
		return nil, fmt.Errorf("-coherence-model: %w", err)
	}
	m, err := rovist.LoadCoherenceModel(ckpt, albert, f.dev.Options)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	p := newProgress(stderr, 0, "sentence pairs")
	defer p.Finish()
	opts := rovist.CoherenceOptions{GrowingPrefix: f.dhm, Truncate: f.truncate, BatchSize: f.batch}
	last := 0
	opts.Progress = func(done, total int) {
		p.total = total
		p.Add(done - last)
		last = done
	}
	res, err := m.Score(ctx, stories, opts)
	if err != nil {
		return nil, fmt.Errorf("C: %w", err)
	}
	return res, nil
}

func rovistGrounding(ctx context.Context, f rovistFlags, stories []story.Story, stderr io.Writer) ([]rovist.VGResult, error) {
	opts := rovist.VGOptions{NoIDF: f.noIDF, BatchSize: f.batch}
	if f.defaultIDF != "" {
		v, err := strconv.ParseFloat(f.defaultIDF, 64)
		if err != nil {
			return nil, fmt.Errorf("-default-idf %q: %w", f.defaultIDF, err)
		}
		opts.UseDefaultIDF, opts.DefaultIDF = true, v
	}
	if f.nouns != "" {
		data, err := readFile(f.nouns)
		if err != nil {
			return nil, fmt.Errorf("-nouns: %w", err)
		}
		if err := json.Unmarshal(data, &opts.Nouns); err != nil {
			return nil, fmt.Errorf("-nouns %s: want {id: [nouns]}: %w", f.nouns, err)
		}
	}
	nouns, err := rovist.StoryNouns(stories, opts.Nouns)
	if err != nil {
		return nil, err
	}
	var words []string
	for _, n := range nouns {
		words = append(words, n...)
	}
	decode, err := f.images.options()
	if err != nil {
		return nil, err
	}
	ckpt, vit, err := rovist.GroundingFiles(f.groundingModel, f.vitDir)
	if err != nil {
		return nil, fmt.Errorf("-grounding-model: %w", err)
	}
	files := rovist.GrounderFiles{ViT: vit, GloVe: f.glove, Regions: f.regions, Crops: f.crops, Decode: decode, Encoder: f.dev.Options}
	if !f.noIDF {
		files.IDF = f.idf
	}
	g, err := rovist.LoadGrounder(ckpt, files, words)
	if err != nil {
		return nil, err
	}
	defer g.Model.Close()
	defer boundHeap(decode)()
	cache := f.cache.open("rovist", stderr)
	defer cache.close()
	if err := cache.grounder(g, ckpt, vit); err != nil {
		return nil, err
	}
	p := newProgress(stderr, 0, "crops")
	defer p.Finish()
	last := 0
	opts.Progress = func(done, total int) {
		p.total = total
		p.Add(done - last)
		last = done
	}
	res, err := g.Score(ctx, stories, opts)
	if err != nil {
		return nil, fmt.Errorf("VG: %w", imageError(err))
	}
	cache.succeeded()
	return res, nil
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
