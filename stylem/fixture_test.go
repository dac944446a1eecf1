package stylem

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"math"
	"os"
	"strings"
	"testing"
)

// toyFixture is testdata/toy_cng_onlystyle_stylecider.json.gz: the original
// preStyleM code run on a toy 3-style corpus (PTB step stubbed by Simple).
type toyFixture struct {
	Corpus  orderedMap[[]string]                     `json:"corpus"`
	Tokens  []string                                 `json:"ptb_stub_tokens_plus_eos"`
	DocFreq map[string]map[string]map[string]float64 `json:"docfreq_per_style"`
	CNG     map[string]map[string]map[string]float64 `json:"CNG"`
	Tests   orderedMap[struct {
		Hyp  string
		Refs []string
	}] `json:"tests"`
	StyleCIDEr map[string][]float64 `json:"StyleCIDEr_per_style_per_test"`
	OnlyStyle  map[string][]float64 `json:"OnlyStyle_per_style_per_test"`
	Exist      map[string][]float64 `json:"OnlyStyleExist_per_style_per_test"`
}

// orderedMap decodes a JSON object keeping its members in file order.
type orderedMap[V any] struct {
	Keys   []string
	Values []V
}

func (m *orderedMap[V]) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var v V
		if err := dec.Decode(&v); err != nil {
			return err
		}
		m.Keys = append(m.Keys, tok.(string))
		m.Values = append(m.Values, v)
	}
	return nil
}

func readGzip(t testing.TB, name string) []byte {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func loadToy(t testing.TB) *toyFixture {
	t.Helper()
	var fx toyFixture
	if err := json.Unmarshal(readGzip(t, "toy_cng_onlystyle_stylecider.json.gz"), &fx); err != nil {
		t.Fatal(err)
	}
	return &fx
}

// toyRecords turns the fixture corpus into one record per caption, each
// with its own image, as the fixture's generator did.
func toyRecords(fx *toyFixture) []Record {
	var recs []Record
	for i, style := range fx.Corpus.Keys {
		for j, c := range fx.Corpus.Values[i] {
			recs = append(recs, Record{Image: style + string(rune('a'+j)), Style: style, Captions: []string{c}})
		}
	}
	return recs
}

func buildToy(t testing.TB, fx *toyFixture, ecdf ECDFKind) *Table {
	t.Helper()
	tab, err := Build(toyRecords(fx), BuildOptions{Step: Simple, StepName: "simple", ECDF: ecdf})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestToyTokenization(t *testing.T) {
	fx := loadToy(t)
	i := 0
	for _, caps := range fx.Corpus.Values {
		for _, c := range caps {
			if got := strings.Join(Tokenize(c, Simple), " "); got != fx.Tokens[i] {
				t.Errorf("Tokenize(%q) = %q, want %q", c, got, fx.Tokens[i])
			}
			i++
		}
	}
	if i != len(fx.Tokens) || i != 12 {
		t.Fatalf("compared %d captions, fixture has %d", i, len(fx.Tokens))
	}
}

// The fixture's ECDF arithmetic is count/m, so the default ECDFCountRatio
// must reproduce it bit for bit.
func TestToyDocFreqAndCNG(t *testing.T) {
	fx := loadToy(t)
	for _, kind := range []ECDFKind{ECDFCountRatio} {
		tab := buildToy(t, fx, kind)
		if got, want := tab.Styles(), fx.Corpus.Keys; strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("styles %v, want %v", got, want)
		}
		nDF, nCNG := 0, 0
		for style, orders := range fx.DocFreq {
			for n, grams := range orders {
				if got := tab.Count(style, int(n[0]-'0')); got != len(grams) {
					t.Errorf("%v: %s has %d %s-grams, want %d", kind, style, got, n, len(grams))
				}
				for g, want := range grams {
					if got := tab.DocFreq(style, g); float64(got) != want {
						t.Errorf("%v: df[%s][%q] = %d, want %v", kind, style, g, got, want)
					}
					nDF++
				}
			}
		}
		for style, orders := range fx.CNG {
			for n, grams := range orders {
				if got := tab.Count(style, int(n[0]-'0')); got != len(grams) {
					t.Errorf("%v: %s has %d %s-gram CNGs, want %d", kind, style, got, n, len(grams))
				}
				for g, want := range grams {
					got, ok := tab.CNG(style, g)
					if !ok || got != want {
						t.Errorf("%v: CNG[%s][%q] = %v (%v), want %v", kind, style, g, got, ok, want)
					}
					nCNG++
				}
			}
		}
		if nDF != 253 || nCNG != 253 {
			t.Errorf("compared %d df and %d CNG values, want 253 each", nDF, nCNG)
		}
	}
}

func TestToyScores(t *testing.T) {
	fx := loadToy(t)
	for _, kind := range []ECDFKind{ECDFCountRatio} {
		tab := buildToy(t, fx, kind)
		n := 0
		for ti, tc := range fx.Tests.Values {
			hyp := strings.Fields(tc.Hyp)
			var refs [][]string
			for _, r := range tc.Refs {
				refs = append(refs, strings.Fields(r))
			}
			sc, err := tab.Score(hyp, refs, nil)
			if err != nil {
				t.Fatal(err)
			}
			for s, style := range tab.Styles() {
				for _, c := range []struct {
					name      string
					got, want float64
				}{
					{"OnlyStyle", sc.OnlyStyle[s], fx.OnlyStyle[style][ti]},
					{"OnlyStyleExist", sc.OnlyStyleExist[s], fx.Exist[style][ti]},
					{"StyleCIDEr", sc.StyleCIDEr[s], fx.StyleCIDEr[style][ti]},
				} {
					if c.got != c.want {
						t.Errorf("%v: %s %s(%s) = %v, want %v", kind, fx.Tests.Keys[ti], c.name, style, c.got, c.want)
					}
					n++
				}
			}
		}
		if n != 27 {
			t.Errorf("compared %d scores, want 27", n)
		}
	}
}

// With statsmodels' linspace ECDF (the option) the toy values differ from
// the fixture's count/m values only by rounding: the ECDF values differ in
// the last bit and CNG subtracts them.
func TestToyStatsmodelsECDFDiffersOnlyByRounding(t *testing.T) {
	fx := loadToy(t)
	tab := buildToy(t, fx, ECDFStatsmodels)
	differ := 0
	for style, orders := range fx.CNG {
		for _, grams := range orders {
			for g, want := range grams {
				got, _ := tab.CNG(style, g)
				if math.Abs(got-want) > 1e-15 {
					t.Errorf("CNG[%s][%q] = %v, want %v within 1e-15", style, g, got, want)
				}
				if got != want {
					differ++
				}
			}
		}
	}
	// 55 of the 253 values change in the last bits; none changes more.
	if differ != 55 {
		t.Errorf("%d CNG values differ from the count/m fixture, want 55", differ)
	}
}
