package groovist

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/internal/npy"
)

type clipScoreFixture struct {
	dir      string
	raw      map[string]json.RawMessage
	perImage map[string]map[string]json.RawMessage
	order    []string
	cands    map[string]string
	refs     map[string][]string
}

func readCLIPScoreFixture(t *testing.T) *clipScoreFixture {
	t.Helper()
	f := &clipScoreFixture{dir: e2efixtures.Metric("clipscore")}
	t.Logf("fixtures: %s", f.dir)
	readPythonJSON(t, filepath.Join(f.dir, "expected.json"), &f.raw)
	if err := json.Unmarshal(f.raw["per_image"], &f.perImage); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(f.raw["image_order"], &f.order); err != nil {
		t.Fatal(err)
	}
	readPythonJSON(t, filepath.Join(f.dir, "candidates.json"), &f.cands)
	readPythonJSON(t, filepath.Join(f.dir, "refs.json"), &f.refs)
	return f
}

// captions lists the fixture's images as clipscore.py's main() does and
// pairs them with their candidates and references.
func (f *clipScoreFixture) captions(t *testing.T) []Caption {
	ids, paths, err := ImageFiles(filepath.Join(f.dir, "images"))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Caption, len(ids))
	for i, id := range ids {
		c, ok := f.cands[id]
		if !ok {
			t.Fatalf("image %s has no candidate", id)
		}
		out[i] = Caption{ID: id, Image: paths[i], Candidate: c, References: f.refs[id]}
	}
	return out
}

func TestGoldenCLIPScore(t *testing.T) {
	f := readCLIPScoreFixture(t)
	m, tok := loadFixtureCLIP(t)
	s, err := NewCLIPScorer(m, tok)
	if err != nil {
		t.Fatal(err)
	}
	c := newCounter(t)
	defer c.report()
	items := f.captions(t)
	res, err := s.Score(context.Background(), items)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]CaptionScore{}
	for _, r := range res {
		byID[r.ID] = r
	}
	itemByID := map[string]Caption{}
	for _, it := range items {
		itemByID[it.ID] = it
	}
	c.ok("expected.json", len(res) == len(f.perImage), "%d images scored, expected.json has %d", len(res), len(f.perImage))
	for id, g := range f.perImage {
		r, ok := byID[id]
		if !ok {
			c.ok("expected.json", false, "image %s not scored", id)
			continue
		}
		it := itemByID[id]
		for key, raw := range g {
			switch key {
			case "candidate":
				var want string
				_ = json.Unmarshal(raw, &want)
				c.ok("expected.json", it.Candidate == want, "%s candidate %q, want %q", id, it.Candidate, want)
			case "references":
				var want []string
				_ = json.Unmarshal(raw, &want)
				c.ok("expected.json", reflect.DeepEqual(it.References, want), "%s references %q, want %q", id, it.References, want)
			case "CLIPScore", "max_ref_cosine", "RefCLIPScore":
				var want *float64
				_ = json.Unmarshal(raw, &want)
				got := map[string]float64{"CLIPScore": r.CLIPScore, "max_ref_cosine": r.MaxRefCosine, "RefCLIPScore": r.RefCLIPScore}[key]
				c.ok("expected.json", close32(got, want), "%s %s = %v, want %v", id, key, got, fmtPtr(want))
			case "image_mode", "image_size_wh":
				src, err := imageproc.DecodeSourceFile(it.Image, imageproc.DecodeOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if key == "image_size_wh" {
					var wh [2]int
					_ = json.Unmarshal(raw, &wh)
					c.ok("expected.json", src.RGB.Width == wh[0] && src.RGB.Height == wh[1], "%s size %dx%d, want %v", id, src.RGB.Width, src.RGB.Height, wh)
				} else {
					var mode string
					_ = json.Unmarshal(raw, &mode)
					got := "RGB or L"
					if src.Alpha != nil {
						got = "RGBA"
					} else if src.NearestOnly {
						got = "P"
					}
					c.ok("expected.json", strings.Contains(got, mode), "%s mode %s, want %s", id, got, mode)
				}
			default:
				t.Errorf("expected.json per_image key %q is not checked", key)
			}
		}
	}
	// per_instance.json: the original output.
	var per map[string]map[string]*float64
	readPythonJSON(t, filepath.Join(f.dir, "per_instance.json"), &per)
	for id, g := range per {
		r := byID[id]
		for key, want := range g {
			got := map[string]float64{"CLIPScore": r.CLIPScore, "RefCLIPScore": r.RefCLIPScore}
			v, ok := got[key]
			c.ok("per_instance.json", ok && close32(v, want), "%s %s = %v, want %v", id, key, v, fmtPtr(want))
		}
	}
	// System means and the lines main() printed.
	var system map[string]float64
	_ = json.Unmarshal(f.raw["system"], &system)
	cm, rm := CorpusMeans(res)
	for key, want := range system {
		got := map[string]float64{"CLIPScore": cm, "RefCLIPScore": rm}[key]
		c.ok("expected.json", close32(got, &want), "system %s = %v, want %v", key, got, want)
	}
	var printed []string
	_ = json.Unmarshal(f.raw["printed_by_main"], &printed)
	for _, line := range printed {
		name, _, _ := strings.Cut(line, ":")
		got := fmt.Sprintf("%s: %.4f", name, map[string]float64{"CLIPScore": cm, "RefCLIPScore": rm}[name])
		c.ok("expected.json", got == line, "printed %q, want %q", got, line)
	}
	c.ok("expected.json", len(f.order) == len(items), "image_order has %d images, the folder %d", len(f.order), len(items))
	for key := range f.raw {
		switch key {
		case "per_image", "image_order", "system", "printed_by_main":
		default:
			t.Errorf("expected.json key %q is not checked", key)
		}
	}
	checkCLIPScoreArrays(t, c, f, s)
}

// checkCLIPScoreArrays compares the per-stage arrays, in image_order.
func checkCLIPScoreArrays(t *testing.T, c *counter, f *clipScoreFixture, s *CLIPScorer) {
	var index struct {
		Arrays map[string]struct {
			File  string `json:"file"`
			Shape []int  `json:"shape"`
		} `json:"arrays"`
	}
	data, err := os.ReadFile(filepath.Join(f.dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &index); err != nil {
		t.Fatal(err)
	}
	paths := make([]string, len(f.order))
	var cands, refs []string
	ext := map[string]string{}
	_, files, err := ImageFiles(filepath.Join(f.dir, "images"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range files {
		ext[pathStem(filepath.Base(p))] = p
	}
	for i, id := range f.order {
		paths[i] = ext[id]
		cands = append(cands, CLIPScorePrefix+f.cands[id])
		for _, r := range f.refs[id] {
			refs = append(refs, CLIPScorePrefix+r)
		}
	}
	ctx := context.Background()
	for name, a := range index.Arrays {
		arr, err := npy.ReadFile(filepath.Join(f.dir, a.File))
		if err != nil {
			t.Fatal(err)
		}
		want := arr.Float64s()
		var got []float64
		exact := false
		switch name {
		case "pixel_values":
			exact = true
			for _, p := range paths {
				src, err := imageproc.DecodeSourceFile(p, imageproc.DecodeOptions{})
				if err != nil {
					t.Fatal(err)
				}
				pv, err := s.Processor.PreprocessSource(src, nil)
				if err != nil {
					t.Fatal(err)
				}
				got = appendF32(got, pv.Data)
			}
		case "image_features":
			feats, err := s.imageFeatures(ctx, paths)
			if err != nil {
				t.Fatal(err)
			}
			got = appendRows(got, feats)
		case "candidate_features", "reference_features":
			texts := map[string][]string{"candidate_features": cands, "reference_features": refs}[name]
			feats, err := s.textFeatures(ctx, texts)
			if err != nil {
				t.Fatal(err)
			}
			got = appendRows(got, feats)
		case "candidate_input_ids", "reference_input_ids":
			exact = true
			texts := map[string][]string{"candidate_input_ids": cands, "reference_input_ids": refs}[name]
			ids, err := s.Text.Tokens(texts)
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range ids {
				for _, v := range row {
					got = append(got, float64(v))
				}
			}
		default:
			t.Errorf("array %s is not checked", name)
			continue
		}
		if len(got) != len(want) {
			c.ok(a.File, false, "%s: %d values, want %d", name, len(got), len(want))
			continue
		}
		bad := 0
		for i := range want {
			w := want[i]
			if exact && got[i] != w || !exact && !close32(got[i], &w) {
				bad++
			}
		}
		c.ok(a.File, bad == 0, "%s: %d of %d values differ", name, bad, len(want))
		c.checked[a.File] += len(want) - 1
	}
}

func appendF32(dst []float64, xs []float32) []float64 {
	for _, x := range xs {
		dst = append(dst, float64(x))
	}
	return dst
}

func appendRows(dst []float64, rows [][]float32) []float64 {
	for _, r := range rows {
		dst = appendF32(dst, r)
	}
	return dst
}
