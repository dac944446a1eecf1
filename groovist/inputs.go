package groovist

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/internal/orderedjson"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/story"
)

// defaultJSONMaxBytes bounds a JSON input (phrases, captions,
// references) read by LoadInputs or LoadCaptions when its
// limits.Limits.MaxBytes is 0.
const defaultJSONMaxBytes = 1 << 30

// loadBounded reads the file at path within lim (default
// defaultJSONMaxBytes); errors name the file.
func loadBounded(path string, lim limits.Limits) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(limits.NewReader(f, path, lim.Bytes(defaultJSONMaxBytes))); err != nil {
		var tl *limits.TooLargeError
		if errors.As(err, &tl) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return buf.Bytes(), nil
}

// Dataset names where a story's image ids come from, as the reference's
// --dataset option and utils.get_image_ids. The zero value, FromStories,
// takes each story's own images and θ of VIST.
type Dataset string

// The datasets of GROOViST's config.ini.
const (
	FromStories Dataset = ""
	VIST        Dataset = "vist"   // ids from vist_sid_2_iids.json, as integers
	AESOP       Dataset = "aesop"  // {story id}_0 … _2
	VWP         Dataset = "vwp"    // {scene id}_0 … _{n-1} from vwp_scene_id_2_nimgs.json
	Custom      Dataset = "custom" // ids from a {story id: [image ids]} table, as written
)

// ParseDataset reads a dataset name in any case.
func ParseDataset(name string) (Dataset, error) {
	switch d := Dataset(strings.ToLower(name)); d {
	case FromStories, VIST, AESOP, VWP, Custom:
		return d, nil
	}
	return "", fmt.Errorf("dataset %q: want vist, aesop, vwp or custom", name)
}

// NeedsTable reports whether the dataset's image ids come from a table
// (ParseImageTable): VIST, VWP and Custom.
func (d Dataset) NeedsTable() bool { return d == VIST || d == VWP || d == Custom }

// Theta returns the dataset's θ preset (config.ini; 0.5 for its [custom]
// section, ThetaVIST for FromStories).
func (d Dataset) Theta() Theta {
	switch d {
	case AESOP:
		return ThetaOf(ThetaAESOP)
	case VWP:
		return ThetaOf(ThetaVWP)
	case Custom:
		return ThetaOf(0.5)
	}
	return ThetaOf(ThetaVIST)
}

// ParseTheta reads θ as a number, a preset name (vist, aesop, vwp) or
// "estimate"; empty means d's preset. estimate reports "estimate": the
// caller scores with any θ, then sets EstimateTheta's value and calls
// Rescore.
func ParseTheta(s string, d Dataset) (theta Theta, estimate bool, err error) {
	switch th := strings.ToLower(s); th {
	case "":
		return d.Theta(), false, nil
	case "vist", "aesop", "vwp":
		return Dataset(th).Theta(), false, nil
	case "estimate":
		return Theta{}, true, nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return Theta{}, false, fmt.Errorf("theta %q: want a number, vist, aesop, vwp or estimate", s)
	}
	return ThetaOf(x), false, nil
}

// ImageTable maps story ids to image ids: vist_sid_2_iids.json for VIST
// and Custom, vwp_scene_id_2_nimgs.json (scene id to image count) for VWP.
type ImageTable struct {
	ids    map[string][]string
	scenes map[string]int
}

// ParseImageTable reads data as d's table. VIST and Custom tables list
// ids as JSON numbers or strings.
func ParseImageTable(data []byte, d Dataset) (*ImageTable, error) {
	t := &ImageTable{}
	switch d {
	case VIST, Custom:
		var raw map[string][]json.Number
		if err := json.Unmarshal(data, &raw); err != nil {
			if err2 := json.Unmarshal(data, &t.ids); err2 != nil {
				return nil, fmt.Errorf("want {story id: [image ids]}: %w", err)
			}
			return t, nil
		}
		t.ids = map[string][]string{}
		for k, v := range raw {
			for _, n := range v {
				t.ids[k] = append(t.ids[k], n.String())
			}
		}
	case VWP:
		if err := json.Unmarshal(data, &t.scenes); err != nil {
			return nil, fmt.Errorf("want {scene id: number of images}: %w", err)
		}
	default:
		return nil, fmt.Errorf("dataset %q takes no image table", string(d))
	}
	return t, nil
}

// AssignImageIDs sets each input's images as utils.get_image_ids does for
// d; t is the dataset's table (nil when d needs none). With FromStories
// every story must already have images.
func AssignImageIDs(inputs []Input, d Dataset, t *ImageTable) error {
	if d.NeedsTable() && t == nil {
		return fmt.Errorf("dataset %s needs an image table", string(d))
	}
	for i := range inputs {
		in := &inputs[i]
		var list []string
		var err error
		switch d {
		case AESOP:
			list = AESOPImageIDs(in.ID)
		case VIST:
			list, err = VISTImageIDs(in.ID, t.ids)
		case Custom:
			var ok bool
			if list, ok = t.ids[in.ID]; !ok {
				err = fmt.Errorf("story %q is not in the image table", in.ID)
			}
		case VWP:
			list, err = VWPImageIDs(in.ID, t.scenes)
		case FromStories:
			if len(in.Images) == 0 {
				return fmt.Errorf("story %q has no images: name a dataset or give stories with \"images\"", in.ID)
			}
			continue
		default:
			return fmt.Errorf("dataset %q: want vist, aesop, vwp or custom", string(d))
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

// LoadInputs reads the inputs of a run in file order: the noun-phrase
// lists of npsPath ({story id: [phrases]}, as the reference's
// nphrases.json), each with its story from storiesPath when that holds
// it; or, without npsPath, the stories of storiesPath, whose phrases
// Scorer.Score extracts. Either path may be empty, not both. lim bounds
// each file (default 1 GiB for the phrases, story.ReadOptions' default
// for the stories).
func LoadInputs(npsPath, storiesPath string, lim limits.Limits) ([]Input, error) {
	var set *story.Set
	if storiesPath != "" {
		var err error
		if set, err = story.LoadJSON(storiesPath, story.ReadOptions{Limits: lim}); err != nil {
			return nil, err
		}
	}
	if npsPath == "" {
		if set == nil {
			return nil, fmt.Errorf("no phrase file and no story file given")
		}
		return InputsOf(set), nil
	}
	data, err := loadBounded(npsPath, lim)
	if err != nil {
		return nil, err
	}
	in, err := ParsePhrases(data, set)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", npsPath, err)
	}
	return in, nil
}

// InputsOf returns one input per story of set, in set order, with no
// phrases (Scorer.Score extracts them).
func InputsOf(set *story.Set) []Input {
	in := make([]Input, 0, set.Len())
	for _, st := range set.All() {
		in = append(in, Input{Story: st})
	}
	return in
}

// ParsePhrases reads a JSON object {story id: [noun phrases]} in member
// order. Each input takes its story from set when set holds the id (set
// may be nil), else only the id.
func ParsePhrases(data []byte, set *story.Set) ([]Input, error) {
	var in []Input
	err := orderedjson.EachMember(data, func(key string, value json.RawMessage) error {
		var nps []string
		if err := json.Unmarshal(value, &nps); err != nil || nps == nil {
			return fmt.Errorf("story %q: the NP list is not a list of strings", key)
		}
		it := Input{Story: story.Story{ID: key}, NPs: nps}
		if set != nil {
			if st, ok := set.Get(key); ok {
				it.Story = st
			}
		}
		in = append(in, it)
		return nil
	})
	return in, err
}

// InputsIDF computes idf weights (Options.IDF, the +idf ablation) over the
// inputs' phrase lists: their NPs, or the phrases of units extracted from
// their text.
func InputsIDF(inputs []Input, units Units) (map[string]float64, error) {
	docs := make([][]string, len(inputs))
	for i, in := range inputs {
		if in.NPs != nil {
			docs[i] = in.NPs
			continue
		}
		nps, err := Phrases(in.Text, units)
		if err != nil {
			return nil, fmt.Errorf("story %q: %w", in.ID, err)
		}
		docs[i] = nps
	}
	return story.ComputeIDF(docs, story.IDFOptions{SplitWords: true}), nil
}
