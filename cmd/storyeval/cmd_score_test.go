package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/correlation"
	"github.com/storyeval/storyeval/ngram"
	"github.com/storyeval/storyeval/rovist"
)

// scoreTestSuite writes a story set of 3 systems × 20 stories with two
// references each, drawn from a small vocabulary with a fixed seed, and
// human ratings for every story; it returns the file paths and the data.
func scoreTestSuite(t *testing.T) (suitePath, ratingsPath string, stories map[string]map[string]string, refs map[string][]string, ratings map[[2]string]float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 12))
	words := strings.Fields("the a dog cat park ball ran played sat happy day family beach sun water friends went saw big small tree house car road")
	sentence := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(w, " ") + " ."
	}
	storyText := func(sentences, length int) string {
		s := make([]string, sentences)
		for i := range s {
			s[i] = sentence(length)
		}
		return strings.Join(s, " ")
	}
	systems := []string{"alpha", "beta", "gamma"}
	stories = map[string]map[string]string{}
	refs = map[string][]string{}
	ratings = map[[2]string]float64{}
	type seqJSON struct {
		References []string          `json:"references"`
		Stories    map[string]string `json:"stories"`
	}
	seqs := map[string]seqJSON{}
	for i := range 20 {
		id := fmt.Sprintf("s%02d", i)
		refs[id] = []string{storyText(4, 8), storyText(5, 7)}
		stories[id] = map[string]string{}
		for k, sys := range systems {
			text := storyText(2+k+i%3, 6+k)
			if sys == "gamma" && i%4 == 0 {
				text = "a dog ran ." // one sentence: RoViST-NR undefined
			}
			stories[id][sys] = text
			ratings[[2]string{id, sys}] = float64(1 + (i*7+k*3)%5)
		}
		seqs[id] = seqJSON{References: refs[id], Stories: stories[id]}
	}
	dir := t.TempDir()
	data, err := json.Marshal(map[string]any{"systems": systems, "sequences": seqs})
	if err != nil {
		t.Fatal(err)
	}
	suitePath = filepath.Join(dir, "suite.json")
	if err := os.WriteFile(suitePath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var csvBuf bytes.Buffer
	csvBuf.WriteString("id,system,rating\n")
	for i := range 20 {
		id := fmt.Sprintf("s%02d", i)
		for _, sys := range systems {
			fmt.Fprintf(&csvBuf, "%s,%s,%v\n", id, sys, ratings[[2]string{id, sys}])
		}
	}
	ratingsPath = filepath.Join(dir, "ratings.csv")
	if err := os.WriteFile(ratingsPath, csvBuf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return suitePath, ratingsPath, stories, refs, ratings
}

func parseCSVFloat(t *testing.T, s string) float64 {
	t.Helper()
	if s == "NaN" {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func sameFloat(a, b float64) bool {
	return a == b || (math.IsNaN(a) && math.IsNaN(b))
}

// Every number score writes is checked against the packages' own functions.
func TestScoreCommandMatchesPackages(t *testing.T) {
	suitePath, ratingsPath, stories, refs, ratings := scoreTestSuite(t)
	out := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	args := []string{"score", "-in", suitePath, "-human", ratingsPath, "-out", out, "-resamples", "200", "-rounds", "500", "-seed", "5"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	systems := []string{"alpha", "beta", "gamma"}

	// Per-story scores from the packages.
	want := map[string]map[[2]string]float64{} // metric → (id, system) → score
	meteor, err := ngram.NewMeteor(ngram.MeteorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sys := range systems {
		cands := map[string]string{}
		for id := range stories {
			cands[id] = stories[id][sys]
		}
		raw, err := ngram.NewCorpus(cands, refs)
		if err != nil {
			t.Fatal(err)
		}
		c := raw.Tokenized()
		bleu, rouge, cider := ngram.BLEU(c), ngram.ROUGEL(c), ngram.CIDErD(c)
		tc, tr := map[string]string{}, map[string][]string{}
		for _, id := range c.IDs() {
			tc[id], tr[id] = c.Candidate(id), c.References(id)
		}
		_, met, err := meteor.Corpus(tc, tr)
		if err != nil {
			t.Fatal(err)
		}
		for id := range stories {
			set := func(m string, v float64) {
				if want[m] == nil {
					want[m] = map[[2]string]float64{}
				}
				want[m][[2]string{id, sys}] = v
			}
			set("BLEU-4", bleu.Items[id][3])
			set("METEOR", met[id])
			set("ROUGE-L", rouge.Items[id])
			set("CIDEr-D", cider.Items[id])
			nr, err := rovist.NonRedundancy(stories[id][sys], rovist.NROptions{})
			if err != nil {
				t.Fatal(err)
			}
			set("RoViST-NR", nr.Score)
		}
	}

	// scores.csv: one row per story and system, in suite order.
	f, err := os.ReadFile(filepath.Join(out, "scores.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(f)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header := rows[0]
	if strings.Join(header, ",") != "id,system,BLEU-4,METEOR,ROUGE-L,CIDEr-D,RoViST-NR" {
		t.Fatalf("header %q", header)
	}
	if len(rows) != 1+20*3 {
		t.Fatalf("%d rows, want 61", len(rows))
	}
	checked := 0
	for r, row := range rows[1:] {
		id, sys := row[0], row[1]
		if id != fmt.Sprintf("s%02d", r/3) || sys != systems[r%3] {
			t.Fatalf("row %d is %s/%s: not in suite order", r+1, id, sys)
		}
		for c := 2; c < len(row); c++ {
			got := parseCSVFloat(t, row[c])
			if w := want[header[c]][[2]string{id, sys}]; !sameFloat(got, w) {
				t.Errorf("%s of %s/%s: scores.csv %v, package %v", header[c], id, sys, got, w)
			}
			checked++
		}
	}
	if checked != 60*5 {
		t.Fatalf("checked %d scores", checked)
	}

	// summary.json: means, intervals, pairwise tests, correlations.
	var sum struct {
		Metrics   []string `json:"metrics"`
		PerSystem map[string]map[string]struct {
			Mean      *float64 `json:"mean"`
			CILow     *float64 `json:"ci_low"`
			CIHigh    *float64 `json:"ci_high"`
			N         int      `json:"n"`
			Undefined int      `json:"undefined"`
		} `json:"per_system"`
		Pairs []struct {
			Metric string   `json:"metric"`
			A      string   `json:"system_a"`
			B      string   `json:"system_b"`
			N      int      `json:"n"`
			Diff   *float64 `json:"mean_difference"`
			P      *float64 `json:"p"`
		} `json:"pairs"`
		Human struct {
			Metrics []struct {
				Metric       string `json:"metric"`
				N            int    `json:"n"`
				Correlations []struct {
					Coefficient string   `json:"coefficient"`
					Value       *float64 `json:"value"`
					P           *float64 `json:"p"`
					Low         *float64 `json:"ci_low"`
					High        *float64 `json:"ci_high"`
				} `json:"correlations"`
			} `json:"metrics"`
			Williams []struct {
				A string   `json:"metric_a"`
				B string   `json:"metric_b"`
				T *float64 `json:"t"`
				P *float64 `json:"p_one_sided"`
			} `json:"williams"`
		} `json:"human"`
	}
	data, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatal(err)
	}
	vec := func(metric, sys string) (all []float64) {
		for i := range 20 {
			all = append(all, want[metric][[2]string{fmt.Sprintf("s%02d", i), sys}])
		}
		return all
	}
	opts := correlation.BootstrapOptions{Resamples: 200, Confidence: 0.95, Seed: 5}
	nSummary := 0
	for _, m := range sum.Metrics {
		for _, sys := range systems {
			x, _ := definedPairs(vec(m, sys), vec(m, sys))
			iv, err := correlation.MeanInterval(x, opts)
			if err != nil {
				t.Fatal(err)
			}
			st := sum.PerSystem[sys][m]
			if st.Mean == nil || *st.Mean != iv.Estimate || *st.CILow != iv.Low || *st.CIHigh != iv.High || st.N != len(x) || st.Undefined != 20-len(x) {
				t.Errorf("%s/%s: summary %+v, package %+v (n %d)", m, sys, st, iv, len(x))
			}
			nSummary++
		}
	}
	for _, p := range sum.Pairs {
		a, b := definedPairs(vec(p.Metric, p.A), vec(p.Metric, p.B))
		r, err := correlation.PairedRandomization(a, b, correlation.RandomizationOptions{Rounds: 500, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		if *p.Diff != r.MeanDifference || *p.P != r.P || p.N != len(a) {
			t.Errorf("pair %s %s/%s: summary diff %v p %v, package %+v", p.Metric, p.A, p.B, *p.Diff, *p.P, r)
		}
		nSummary++
	}
	if len(sum.Pairs) != 3*len(sum.Metrics) {
		t.Fatalf("%d pair tests, want %d", len(sum.Pairs), 3*len(sum.Metrics))
	}
	var human []float64
	for _, sys := range systems {
		for i := range 20 {
			human = append(human, ratings[[2]string{fmt.Sprintf("s%02d", i), sys}])
		}
	}
	coefs := map[string]correlation.Coefficient{"pearson": correlation.Pearson, "spearman": correlation.Spearman, "kendall_tau_b": correlation.KendallTauB}
	for _, hm := range sum.Human.Metrics {
		var all []float64
		for _, sys := range systems {
			all = append(all, vec(hm.Metric, sys)...)
		}
		x, y := definedPairs(all, human)
		for _, c := range hm.Correlations {
			r, err := coefs[c.Coefficient](x, y)
			if err != nil {
				t.Fatal(err)
			}
			iv, err := correlation.Bootstrap(x, y, coefs[c.Coefficient], opts)
			if err != nil {
				t.Fatal(err)
			}
			if *c.Value != r.Statistic || *c.P != r.P || *c.Low != iv.Low || *c.High != iv.High || hm.N != len(x) {
				t.Errorf("%s %s: summary %v [%v, %v] p %v, package %v [%v, %v] p %v", hm.Metric, c.Coefficient, *c.Value, *c.Low, *c.High, *c.P, r.Statistic, iv.Low, iv.High, r.P)
			}
			nSummary++
		}
	}
	for _, w := range sum.Human.Williams {
		var hs, as, bs []float64
		var av, bv []float64
		for _, sys := range systems {
			av = append(av, vec(w.A, sys)...)
			bv = append(bv, vec(w.B, sys)...)
		}
		for k := range human {
			if !math.IsNaN(av[k]) && !math.IsNaN(bv[k]) {
				hs, as, bs = append(hs, human[k]), append(as, av[k]), append(bs, bv[k])
			}
		}
		r, err := correlation.Williams(hs, as, bs, correlation.Pearson)
		if err != nil {
			t.Fatal(err)
		}
		if *w.T != r.T || *w.P != r.P {
			t.Errorf("Williams %s vs %s: summary t %v p %v, package %+v", w.A, w.B, *w.T, *w.P, r)
		}
		nSummary++
	}
	if len(sum.Human.Metrics) != 5 || len(sum.Human.Williams) != 20 {
		t.Fatalf("%d human metrics, %d Williams tests", len(sum.Human.Metrics), len(sum.Human.Williams))
	}
	t.Logf("checked %d per-story scores and %d summary entries", checked, nSummary)
	if !strings.Contains(stdout.String(), filepath.Join(out, "report.html")) {
		t.Errorf("stdout does not say where the report is: %q", stdout.String())
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "Agreement with human ratings", "RoViST-NR", "Lowest-scoring stories", "repeat most"} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("report.html lacks %q", want)
		}
	}
}

func TestScoreBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"sequences": {"x": {"references": ["a dog ran ."], "stories": {"s": "a dog ran fast ."}}}}`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-in", write("dup.json", `{"sequences": {"x": {"stories": {"s": "a"}}, "x": {"stories": {"s": "b"}}}}`)}, `"x" appears twice`},
		{[]string{"-in", write("blank.json", `{"sequences": {"x": {"stories": {"s": " "}}}}`)}, `story "x": story of system "s" is empty`},
		{[]string{"-in", good, "-human", write("r.csv", "id,system\nx,s\n")}, `no "rating" column`},
		{[]string{"-in", good, "-human", write("r2.csv", "id,system,rating\nx,zz,3\n")}, `system "zz" is not in the story set`},
		{[]string{"-in", good, "-metrics", "bleu,foo"}, `unknown metric "foo"`},
		{[]string{"-in", good, "-confidence", "0"}, "not in (0, 1)"},
		{[]string{"-in", good, "-stylem-table", "t.tbl"}, "go together"},
		{[]string{"-in", good, "-correction", "bonferroni"}, `-correction "bonferroni": want holm or bh`},
	} {
		out := filepath.Join(dir, "out")
		var stdout, stderr bytes.Buffer
		code := runMain(append(append([]string{"score"}, tc.args...), "-out", out), &stdout, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("score %q: exit %d, stderr %q; want failure saying %q", tc.args, code, stderr.String(), tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("score %q: output folder written despite the error", tc.args)
		}
	}
}

// A cancelled run (Ctrl-C cancels the context) stops with the context's
// error before any output is written: the files are written only after
// compare.Compare succeeds.
func TestScoreCancelled(t *testing.T) {
	suitePath, _, _, _, _ := scoreTestSuite(t)
	src, err := compare.SourcesOptions{Stories: suitePath}.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := src.Suite
	names, err := compare.ParseMetricNames("bleu,nr")
	if err != nil {
		t.Fatal(err)
	}
	metrics, err := src.Metrics(names, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = compare.Compare(ctx, s, metrics, compare.Options{Resamples: 10, Rounds: 10})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v, want context.Canceled", err)
	}
}

// definedPairs returns the values of a and b at the indices where both are
// defined (not NaN), as score pairs them.
func definedPairs(a, b []float64) (x, y []float64) {
	for i := range a {
		if !math.IsNaN(a[i]) && !math.IsNaN(b[i]) {
			x, y = append(x, a[i]), append(y, b[i])
		}
	}
	return x, y
}
