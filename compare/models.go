package compare

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
	"github.com/storyeval/storyeval/vrank"
)

// learned lists the learned metrics: short name, layout name, columns.
var learned = []struct {
	name, layout string
	columns      []string
}{
	{"c", "RoViST-C", []string{"RoViST-C"}},
	{"vg", "RoViST-VG", []string{"RoViST-VG"}},
	{"groovist", "GROOViST", []string{"GROOViST"}},
	{"clipscore", "CLIPScore", []string{"CLIPScore", "RefCLIPScore"}},
	{"vrank", "Vrank", []string{"Vrank win rate"}},
}

// LearnedMetricNames are the short names of the metrics a models folder
// enables, in report order.
func LearnedMetricNames() []string {
	out := make([]string, len(learned))
	for i, l := range learned {
		out[i] = l.name
	}
	return out
}

// ModelsOptions configure OpenModels. The zero value loads every metric
// whose files are found, runs on the CPU and uses no embedding cache.
type ModelsOptions struct {
	// Metrics are the short names of the metrics to load (see
	// LearnedMetricNames); nil loads every one the folder enables.
	Metrics []string
	// Regions is the regions CSV (image_id,bbox) of the suite's images
	// and Crops the folder of their crops named {image_id}_{bbox}.jpg:
	// RoViST-VG and GROOViST need both.
	Regions, Crops string
	// Decode bounds the images and crops RoViST-VG, GROOViST and
	// CLIPScore decode (one budget for the run).
	Decode imageproc.DecodeOptions
	// VG are RoViST-VG's options (the weight of a noun missing from the
	// idf table); the zero value is the reference's.
	VG rovist.VGOptions
	// Backend runs every learned model (RoViST-C's ALBERT, RoViST-VG's
	// ViT, GROOViST's and CLIPScore's CLIP, Vrank's BERT); nil is the CPU.
	Backend compute.Backend
	// Cache keeps image and crop embeddings between runs; nil encodes
	// every image. CacheFiles digests the model files for the cache keys
	// (an *embcache.Store remembers the digests); nil reads them.
	Cache      embcache.Cache
	CacheFiles embcache.FileDigester
	// NoFolderNeeds and RegionsNeeds are what an unavailable metric says
	// it needs when there is no models folder, or no Regions and Crops:
	// by default "a models folder" and "the image regions of the story
	// set (a regions CSV and a crops folder)"; a command names its flags.
	NoFolderNeeds, RegionsNeeds string
	// Demonstration, when not "", labels every column of the loaded
	// metrics (Column.Demonstration, Summary.Demonstration, a note in the
	// report): for a folder of demonstration models whose random weights
	// show the pipeline, not quality, such as the storyeval command's
	// score -demo models.
	Demonstration string
}

// Models are the learned models of a models folder, loaded for one suite.
type Models struct {
	// Dir is the folder; Status its check (nil without a folder).
	Dir    string
	Status []ModelStatus
	// loaded are the metrics loaded, by short name; missing says, by
	// layout name, what an absent one needs.
	loaded  map[string]Metric
	missing map[string]string
	counter *CacheCounter
	clip    *encoders.CLIP
	clipTok *tokenize.CLIP
	// The models that encode images, and their files (the models'
	// identities in the embedding cache).
	grounder      *rovist.Grounder
	grounderFiles [2]string
	groovist      *groovist.Scorer
	clipScorer    *groovist.CLIPScorer
	clipDir       string
}

// OpenModels checks the models folder dir (CheckModels) and loads the
// wanted metrics whose files are there and whose other inputs (regions and
// crops, the suite's image files) are given, for scoring suite. A metric
// whose files are missing is not an error: Metric returns it as Absent,
// saying what it needs. A file that is present but does not load is an
// error. GROOViST and CLIPScore share one CLIP model; RoViST-VG's nouns
// are extracted once, here, for its GloVe vectors and its scores. An
// empty dir loads nothing.
func OpenModels(dir string, suite *story.Suite, opts ModelsOptions) (*Models, error) {
	m := &Models{Dir: dir, loaded: map[string]Metric{}, missing: map[string]string{}, counter: &CacheCounter{}}
	noFolder := cmpOr(opts.NoFolderNeeds, "a models folder")
	status := map[string]ModelStatus{}
	if dir == "" {
		for _, l := range learned {
			m.missing[l.layout] = noFolder
		}
		return m, nil
	}
	st, err := CheckModels(dir)
	if err != nil {
		return nil, fmt.Errorf("models folder: %w", err)
	}
	m.Status = st
	for _, s := range st {
		status[s.Metric] = s
		switch {
		case len(s.Missing) > 0:
			m.missing[s.Metric] = "the file " + filepath.Join(dir, filepath.FromSlash(s.Missing[0].Path)) + " (" + s.Missing[0].Source + ")"
		case len(s.Invalid) > 0:
			m.missing[s.Metric] = "a valid " + filepath.Join(dir, filepath.FromSlash(s.Invalid[0].Path)) + " (" + s.Invalid[0].Error + ")"
		}
	}
	for _, metric := range []string{"RoViST-VG", "GROOViST"} {
		if m.missing[metric] == "" && (opts.Regions == "" || opts.Crops == "") {
			m.missing[metric] = cmpOr(opts.RegionsNeeds, "the image regions of the story set (a regions CSV and a crops folder)")
		}
	}
	if m.missing["CLIPScore"] == "" {
		m.missing["CLIPScore"] = suiteImagePathsMissing(suite)
	}
	want := func(name, layout string) bool {
		return (opts.Metrics == nil || slices.Contains(opts.Metrics, name)) && m.missing[layout] == ""
	}
	path := func(metric string, i int) string {
		return filepath.Join(dir, filepath.FromSlash(status[metric].Found[i]))
	}
	if err := m.load(suite, opts, want, path); err != nil {
		return nil, err
	}
	if opts.Demonstration != "" {
		for name, mt := range m.loaded {
			m.loaded[name] = demonstration(mt, opts.Demonstration)
		}
	}
	if opts.Cache != nil {
		if err := m.UseCache(opts.Cache, opts.CacheFiles); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// UseCache points the loaded models that encode images (RoViST-VG,
// GROOViST, CLIPScore) at an embedding cache; files digests their model
// files for the cache keys (nil reads them; an *embcache.Store remembers
// the digests). Compare reports the cache's hits per run.
func (m *Models) UseCache(cache embcache.Cache, files embcache.FileDigester) error {
	if files == nil {
		files = embcache.ReadFiles{}
	}
	if m.grounder != nil {
		id, err := rovist.GroundingCacheModel(files, m.grounderFiles[0], m.grounderFiles[1])
		if err != nil {
			return err
		}
		m.grounder.Cache, m.grounder.CacheModel = m.counter.Wrap(cache), id
	}
	if m.groovist != nil || m.clipScorer != nil {
		id, err := files.DigestDir(m.clipDir)
		if err != nil {
			return err
		}
		c := m.counter.Wrap(cache)
		if m.groovist != nil {
			m.groovist.Cache, m.groovist.CacheModel = c, id
		}
		if m.clipScorer != nil {
			m.clipScorer.Cache, m.clipScorer.CacheModel = c, id
		}
	}
	return nil
}

// load loads the wanted metrics' models.
func (m *Models) load(suite *story.Suite, opts ModelsOptions, want func(name, layout string) bool, path func(string, int) string) error {
	if want("c", "RoViST-C") {
		model, err := rovist.LoadCoherenceModel(path("RoViST-C", 0), filepath.Dir(path("RoViST-C", 1)), encoders.Options{Backend: opts.Backend})
		if err != nil {
			return err
		}
		m.loaded["c"] = Coherence(model)
	}
	// The regions CSV is parsed once, with GROOViST's string ids; RoViST-VG
	// takes its integer-id reading of the same parse (regions.View).
	var ent *regions.Entities
	if want("vg", "RoViST-VG") || want("groovist", "GROOViST") {
		var err error
		if ent, err = regions.Load(opts.Regions, regions.Options{}); err != nil {
			return err
		}
	}
	if want("vg", "RoViST-VG") {
		g, nouns, err := loadGrounder(path, suite, opts, ent)
		if err != nil {
			return err
		}
		m.grounder, m.grounderFiles = g, [2]string{path("RoViST-VG", 0), filepath.Dir(path("RoViST-VG", 1))}
		m.loaded["vg"] = counted{grounding{spec: spec{name: "vg", columns: []string{"RoViST-VG"}}, g: g, opts: opts.VG, suite: suite, nouns: nouns}, m.counter}
	}
	// GROOViST and CLIPScore share the layout's clip/ folder: CLIP is
	// loaded once for both.
	for _, l := range [][2]string{{"groovist", "GROOViST"}, {"clipscore", "CLIPScore"}} {
		if want(l[0], l[1]) && m.clip == nil {
			if err := m.loadCLIP(filepath.Dir(path(l[1], 0)), opts.Backend); err != nil {
				return err
			}
		}
	}
	if want("groovist", "GROOViST") {
		s, err := groovist.NewScorer(m.clip, m.clipTok)
		if err != nil {
			return err
		}
		s.Entities, s.CropsDir, s.Decode = ent, opts.Crops, opts.Decode
		m.groovist = s
		m.loaded["groovist"] = counted{GROOViST(s), m.counter}
	}
	if want("clipscore", "CLIPScore") {
		c, err := groovist.NewCLIPScorer(m.clip, m.clipTok)
		if err != nil {
			return err
		}
		c.Decode = opts.Decode
		m.clipScorer = c
		m.loaded["clipscore"] = counted{CLIPScore(c), m.counter}
	}
	if want("vrank", "Vrank") {
		model, err := vrank.Load(filepath.Dir(path("Vrank", 0)), encoders.Options{Backend: opts.Backend})
		if err != nil {
			return err
		}
		m.loaded["vrank"] = VrankWinRate(model)
	}
	return nil
}

// loadCLIP loads the CLIP model and tokenizer of dir once: GROOViST and
// CLIPScore share them.
func (m *Models) loadCLIP(dir string, be compute.Backend) error {
	model, err := encoders.LoadCLIP(dir, encoders.Options{Backend: be})
	if err != nil {
		return err
	}
	tok, err := tokenize.LoadCLIP(dir, tokenize.CLIPOptions{})
	if err != nil {
		return err
	}
	m.clip, m.clipTok, m.clipDir = model, tok, dir
	return nil
}

// loadGrounder loads RoViST-VG's model, the idf table, the region crops
// (of ent, the regions already read) and the GloVe vectors of every noun
// of the suite's stories, and returns those nouns (every system's stories,
// system by system in suite order), so that scoring does not extract them
// again.
func loadGrounder(path func(string, int) string, suite *story.Suite, opts ModelsOptions, ent *regions.Entities) (*rovist.Grounder, [][]string, error) {
	stories, err := systemStories(suite, suite.Systems())
	if err != nil {
		return nil, nil, err
	}
	nouns, err := rovist.StoryNouns(stories, opts.VG.Nouns)
	if err != nil {
		return nil, nil, err
	}
	var words []string
	for _, n := range nouns {
		words = append(words, n...)
	}
	g, err := rovist.LoadGrounder(path("RoViST-VG", 0), rovist.GrounderFiles{
		ViT: filepath.Dir(path("RoViST-VG", 1)), GloVe: path("RoViST-VG", 3), IDF: path("RoViST-VG", 4),
		Regions: opts.Regions, Entities: ent, Crops: opts.Crops, Decode: opts.Decode, Encoder: encoders.Options{Backend: opts.Backend},
	}, words)
	if err != nil {
		return nil, nil, err
	}
	return g, nouns, nil
}

// Metric returns the learned metric name (see LearnedMetricNames): the
// loaded adapter, or Absent saying what it needs when its files or inputs
// are missing or it was not wanted. It returns nil for an unknown name.
func (m *Models) Metric(name string) Metric {
	for _, l := range learned {
		if l.name != name {
			continue
		}
		if mt, ok := m.loaded[name]; ok {
			return mt
		}
		needs := m.missing[l.layout]
		if needs == "" {
			needs = l.layout + " loaded (it was not among ModelsOptions.Metrics)"
		}
		a := absent{spec: spec{name: name, columns: l.columns}, needs: needs}
		if name == "clipscore" {
			a.refColumns = []string{"RefCLIPScore"}
		}
		return a
	}
	return nil
}

// Loaded reports whether the metric name was loaded.
func (m *Models) Loaded(name string) bool { _, ok := m.loaded[name]; return ok }

// EncodesImages reports whether a loaded metric encodes images or crops
// (RoViST-VG, GROOViST, CLIPScore): a run that decodes images.
func (m *Models) EncodesImages() bool {
	return m.Loaded("vg") || m.Loaded("groovist") || m.Loaded("clipscore")
}

// cmpOr returns s, or def when s is empty.
func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
