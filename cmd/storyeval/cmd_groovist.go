package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/internal/orderedjson"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/story"
)

func init() {
	register(command{
		name:    "groovist",
		summary: "GROOViST visual grounding of stories (CLIP, noun phrases, region crops)",
		run:     runGroovist,
	})
}

func runGroovist(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("groovist", stderr)
	npsPath := fs.String("nps", "", "JSON file {id: [noun phrases]} (e.g. spaCy's, as GROOViST's nphrases.json)")
	storiesPath := fs.String("stories", "", "JSON file {id: text} or {id: {\"story\", \"images\"}}: phrases are extracted when -nps is not given")
	clip := addCLIPModelFlags(fs)
	dev := addDeviceFlag(fs)
	entities := fs.String("entities", "", "entities CSV (image_id, bbox, ...) (required)")
	crops := fs.String("crops", "", "folder of region crops {image_id}_{bbox}.jpg (required)")
	dataset := fs.String("dataset", "", "image ids and θ preset: vist, aesop, vwp or custom (default: images of -stories, θ of vist)")
	sid2iids := fs.String("sid2iids", "", "JSON {story id: [image ids]} (vist, custom) or {scene id: n images} (vwp)")
	theta := fs.String("theta", "", "θ: a number, a preset (vist, aesop, vwp) or 'estimate' (mean NP score of this run); default: the dataset's preset")
	ratings := fs.String("ratings", "", "concreteness ratings file Word;Conc.M (default: the embedded Brysbaert ratings)")
	pronouns := fs.String("pronouns", "", "pronoun list, one per line (default: GROOViST's)")
	noConc := fs.Bool("no-concreteness", false, "ablation −C: weight every phrase 1")
	noPen := fs.Bool("no-penalty", false, "ablation −P: no penalty below θ")
	idf := fs.Bool("idf", false, "ablation +idf: idf weights computed over the input stories")
	nouns := fs.Bool("nouns", false, "ablation +Ns: single nouns instead of noun phrases (extracted phrases only)")
	tanh := fs.Bool("tanh", false, "map scores to [-1, 1] with tanh")
	format := fs.String("format", "json", "output format: json or csv")
	details := fs.Bool("details", false, "JSON: per-phrase diagnostics (weight, cosines, best image and region)")
	cacheFlags := addCacheFlags(fs)
	images := addImageFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval groovist (-nps FILE.json | -stories FILE.json) -model DIR -entities FILE.csv -crops DIR [-dataset aesop|vist|vwp|custom] [-theta X|vist|aesop|vwp|estimate] [-device cpu|cuda[:N]] [options]")
		fmt.Fprintln(stderr, "\nScores each story's noun phrases against the region crops of its images (GROOViST, Surikuchi et al. 2023).")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *npsPath == "" && *storiesPath == "" {
		fs.Usage()
		return errors.New("give -nps or -stories")
	}
	if *format != "json" && *format != "csv" {
		return fmt.Errorf("-format %q: want json or csv", *format)
	}
	d, err := dev.open()
	if err != nil {
		return err
	}
	defer d.Close()
	if *entities == "" || *crops == "" {
		return errors.New("-entities and -crops are required (the entities CSV and the folder of region crops)")
	}
	decode, err := images.options()
	if err != nil {
		return err
	}
	inputs, err := groovistInputs(*npsPath, *storiesPath)
	if err != nil {
		return err
	}
	if err := assignImageIDs(inputs, *dataset, *sid2iids); err != nil {
		return err
	}
	opts := groovist.Options{NoPenalty: *noPen, Tanh: *tanh}
	estimate := false
	switch th := strings.ToLower(*theta); th {
	case "":
		opts.Theta = groovist.ThetaOf(presetTheta(*dataset))
	case "vist", "aesop", "vwp":
		opts.Theta = groovist.ThetaOf(presetTheta(th))
	case "estimate":
		estimate = true
	default:
		x, err := strconv.ParseFloat(*theta, 64)
		if err != nil {
			return fmt.Errorf("-theta %q: want a number, vist, aesop, vwp or estimate", *theta)
		}
		opts.Theta = groovist.ThetaOf(x)
	}
	switch {
	case *noConc && *idf:
		return errors.New("-no-concreteness and -idf exclude each other")
	case *noConc:
		opts.Weighting = groovist.Uniform
	case *idf:
		opts.Weighting = groovist.IDF
	}
	if *nouns {
		opts.Units = groovist.Nouns
	}
	m, tok, err := clip.loadOn(d.Options)
	if err != nil {
		return err
	}
	defer m.Close()
	sc, err := groovist.NewScorer(m, tok)
	if err != nil {
		return err
	}
	sc.Decode = decode
	defer boundHeap(decode)()
	if *ratings != "" {
		if sc.Ratings, err = groovist.LoadRatings(*ratings); err != nil {
			return fmt.Errorf("-ratings: %w", err)
		}
	}
	if *pronouns != "" {
		if sc.Pronouns, err = groovist.LoadPronouns(*pronouns); err != nil {
			return fmt.Errorf("-pronouns: %w", err)
		}
	}
	if sc.Entities, err = regions.Load(*entities, regions.Options{}); err != nil {
		return fmt.Errorf("-entities: %w", err)
	}
	sc.CropsDir = *crops
	cache := cacheFlags.open("groovist", stderr)
	defer cache.close()
	if sc.Cache, sc.CacheModel, err = cache.clip(*clip.model); err != nil {
		return err
	}
	if opts.Weighting == groovist.IDF {
		opts.IDF, err = idfOfInputs(inputs, opts.Units)
		if err != nil {
			return err
		}
	}
	ctx, stop := interruptContext()
	defer stop()
	var prog *progress
	last := 0
	opts.Progress = func(done, total int) {
		if prog == nil {
			prog = newProgress(stderr, total, "embeddings")
		}
		prog.Add(done - last)
		last = done
	}
	res, err := sc.Score(ctx, inputs, opts)
	prog.Finish()
	if err != nil {
		return imageError(err)
	}
	cache.succeeded()
	warnSkippedImages(stderr, "groovist", groovist.Skipped(res))
	if estimate {
		x := groovist.EstimateTheta(res)
		opts.Theta = groovist.ThetaOf(x)
		res = groovist.Rescore(res, opts)
	}
	if *format == "csv" {
		return writeGroovistCSV(stdout, res)
	}
	return writeJSON(stdout, groovistReport(res, opts.Theta.Value(), *details))
}

func presetTheta(name string) float64 {
	switch strings.ToLower(name) {
	case "aesop":
		return groovist.ThetaAESOP
	case "vwp":
		return groovist.ThetaVWP
	case "custom":
		return 0.5 // config.ini's [custom] section
	}
	return groovist.ThetaVIST
}

// groovistInputs reads the phrase lists and/or the stories, in file order.
func groovistInputs(npsPath, storiesPath string) ([]groovist.Input, error) {
	var set *story.Set
	if storiesPath != "" {
		var err error
		if set, err = story.LoadJSON(storiesPath, story.ReadOptions{}); err != nil {
			return nil, err
		}
	}
	if npsPath == "" {
		in := make([]groovist.Input, 0, set.Len())
		for _, st := range set.All() {
			in = append(in, groovist.Input{Story: st})
		}
		return in, nil
	}
	data, err := readFile(npsPath)
	if err != nil {
		return nil, err
	}
	var in []groovist.Input
	err = orderedjson.EachMember(data, func(key string, value json.RawMessage) error {
		var nps []string
		if err := json.Unmarshal(value, &nps); err != nil || nps == nil {
			return fmt.Errorf("story %q: the NP list is not a list of strings", key)
		}
		it := groovist.Input{Story: story.Story{ID: key}, NPs: nps}
		if set != nil {
			if st, ok := set.Get(key); ok {
				it.Story = st
			}
		}
		in = append(in, it)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", npsPath, err)
	}
	return in, nil
}

// assignImageIDs sets each story's images as utils.get_image_ids does.
func assignImageIDs(inputs []groovist.Input, dataset, tablePath string) error {
	ds := strings.ToLower(dataset)
	var table []byte
	if ds == "vist" || ds == "vwp" || ds == "custom" {
		if tablePath == "" {
			return fmt.Errorf("-dataset %s needs -sid2iids", ds)
		}
		var err error
		if table, err = readFile(tablePath); err != nil {
			return fmt.Errorf("-sid2iids: %w", err)
		}
	}
	var ids map[string][]string
	var scenes map[string]int
	switch ds {
	case "vist", "custom":
		var raw map[string][]json.Number
		if err := json.Unmarshal(table, &raw); err != nil {
			var strs map[string][]string
			if err2 := json.Unmarshal(table, &strs); err2 != nil {
				return fmt.Errorf("-sid2iids %s: want {story id: [image ids]}: %w", tablePath, err)
			}
			ids = strs
		} else {
			ids = map[string][]string{}
			for k, v := range raw {
				for _, n := range v {
					ids[k] = append(ids[k], n.String())
				}
			}
		}
	case "vwp":
		if err := json.Unmarshal(table, &scenes); err != nil {
			return fmt.Errorf("-sid2iids %s: want {scene id: number of images}: %w", tablePath, err)
		}
	case "", "aesop":
	default:
		return fmt.Errorf("-dataset %q: want vist, aesop, vwp or custom", dataset)
	}
	for i := range inputs {
		in := &inputs[i]
		var list []string
		var err error
		switch ds {
		case "aesop":
			list = groovist.AESOPImageIDs(in.ID)
		case "vist":
			list, err = groovist.VISTImageIDs(in.ID, ids)
		case "custom":
			var ok bool
			if list, ok = ids[in.ID]; !ok {
				err = fmt.Errorf("story %q is not in -sid2iids", in.ID)
			}
		case "vwp":
			list, err = groovist.VWPImageIDs(in.ID, scenes)
		case "":
			if len(in.Images) == 0 {
				return fmt.Errorf("story %q has no images: give -dataset or stories with \"images\"", in.ID)
			}
			continue
		}
		if err != nil {
			return err
		}
		in.Images = make([]story.Image, len(list))
		for k, id := range list {
			in.Images[k] = story.Image{ID: id}
		}
	}
	return nil
}

// idfOfInputs computes idf weights over the stories' phrase lists.
func idfOfInputs(inputs []groovist.Input, units groovist.Units) (map[string]float64, error) {
	docs := make([][]string, len(inputs))
	for i, in := range inputs {
		if in.NPs != nil {
			docs[i] = in.NPs
			continue
		}
		nps, err := groovist.Phrases(in.Text, units)
		if err != nil {
			return nil, fmt.Errorf("story %q: %w", in.ID, err)
		}
		docs[i] = nps
	}
	return story.ComputeIDF(docs, story.IDFOptions{SplitWords: true}), nil
}

type groovistNP struct {
	NP         string  `json:"np"`
	Score      Float   `json:"score"`
	Weight     Float   `json:"weight"`
	MaxCosine  Float   `json:"max_cosine"`
	Scaled     Float   `json:"scaled"`
	Alignment  []Float `json:"alignment"`
	BestImage  int     `json:"best_image"`
	BestRegion int     `json:"best_region"`
}

type groovistImage struct {
	ID      string `json:"id"`
	Regions int    `json:"regions"`
	Used    int    `json:"used"`
	Error   string `json:"error,omitempty"`
}

type groovistStory struct {
	ID                   string          `json:"id"`
	GROOViST             Float           `json:"groovist"`
	Defined              bool            `json:"defined"`
	NPScores             orderedFloats   `json:"np_scores"`
	TemporalMisalignment Float           `json:"temporal_misalignment"`
	NPProportion         Float           `json:"np_proportion"`
	Images               []groovistImage `json:"images"`
	NPs                  []groovistNP    `json:"nps,omitempty"`
}

type groovistOutput struct {
	Theta       Float           `json:"theta"`
	Mean        Float           `json:"mean"`
	MeanDefined Float           `json:"mean_defined"`
	Stories     []groovistStory `json:"stories"`
}

// orderedFloats marshals as a JSON object keeping the phrases' order.
type orderedFloats struct {
	keys []string
	vals []float64
}

// MarshalJSON implements json.Marshaler.
func (o orderedFloats) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kj, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vj, _ := Float(o.vals[i]).MarshalJSON()
		b.Write(kj)
		b.WriteByte(':')
		b.Write(vj)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

func groovistReport(res []groovist.Result, theta float64, details bool) groovistOutput {
	out := groovistOutput{Theta: Float(theta), Mean: Float(groovist.Mean(res)), MeanDefined: Float(groovist.MeanDefined(res))}
	for _, r := range res {
		s := groovistStory{ID: r.ID, GROOViST: Float(r.Score), Defined: r.Defined,
			TemporalMisalignment: Float(r.TemporalMisalignment), NPProportion: Float(r.NPProportion)}
		for _, np := range r.NPs {
			s.NPScores.keys = append(s.NPScores.keys, np.NP)
			s.NPScores.vals = append(s.NPScores.vals, float64(np.Score))
			if details {
				d := groovistNP{NP: np.NP, Score: Float(np.Score), Weight: Float(np.Weight), MaxCosine: Float(np.MaxCosine),
					Scaled: Float(np.Scaled), BestImage: np.BestImage, BestRegion: np.BestRegion}
				for _, a := range np.Alignment {
					d.Alignment = append(d.Alignment, Float(a))
				}
				s.NPs = append(s.NPs, d)
			}
		}
		for _, im := range r.Images {
			gi := groovistImage{ID: im.ID, Regions: im.Regions, Used: im.Used}
			if im.Err != nil {
				gi.Error = im.Err.Error()
			}
			s.Images = append(s.Images, gi)
		}
		out.Stories = append(out.Stories, s)
	}
	return out
}

func writeGroovistCSV(w io.Writer, res []groovist.Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"id", "groovist", "nps", "failed_images", "temporal_misalignment", "np_proportion"})
	for _, r := range res {
		failed := 0
		for _, im := range r.Images {
			if im.Err != nil {
				failed++
			}
		}
		_ = cw.Write([]string{r.ID, formatFloat(r.Score), strconv.Itoa(len(r.NPs)), strconv.Itoa(failed),
			formatFloat(r.TemporalMisalignment), formatFloat(r.NPProportion)})
	}
	_ = cw.Write([]string{"(mean)", formatFloat(groovist.Mean(res)), "", "", "", ""})
	_ = cw.Write([]string{"(mean of defined)", formatFloat(groovist.MeanDefined(res)), "", "", "", ""})
	cw.Flush()
	return cw.Error()
}
