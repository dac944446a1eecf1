package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// largeInputBytes is the size of the generated inputs of the large-input
// tests: the 200 MB of issue 24.
const largeInputBytes = 200 << 20

// addressSpaceLimit is the address-space limit (ulimit -v, in KiB) the
// large-input runs get: 4 GB, as in issue 24.
const addressSpaceLimit = 4 << 20

// storyWords is the vocabulary of the generated stories.
var storyWords = strings.Fields(`the a we our my family friends kids dog park beach day trip
party cake house car city street tree sky water food game team people time night morning
went saw had took played ate looked walked got made loved enjoyed found came left stayed
big little old new happy great beautiful long fun nice sunny first last together finally
at to in on with of for after before around by from up down out over`)

// storyText returns a story of 4–7 sentences of 6–15 words.
func storyText(rng *rand.Rand, b *strings.Builder) string {
	b.Reset()
	for s := 4 + rng.IntN(4); s > 0; s-- {
		for w := 6 + rng.IntN(10); w > 0; w-- {
			b.WriteString(storyWords[rng.IntN(len(storyWords))])
			b.WriteByte(' ')
		}
		b.WriteString(". ")
	}
	return strings.TrimSpace(b.String())
}

// writeLargeFile writes a generated input of about size bytes at path:
// head, then items from item(i) joined by commas until size is reached,
// then tail. It returns the number of items and the file's size.
func writeLargeFile(t testing.TB, path string, size int64, head, tail string, item func(i int) string) (int, int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	n := int64(len(head) + len(tail))
	w.WriteString(head)
	i := 0
	for ; n < size; i++ {
		s := item(i)
		if i > 0 {
			w.WriteByte(',')
			n++
		}
		w.WriteString(s)
		n += int64(len(s))
	}
	w.WriteString(tail)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return i, n
}

// writeLargeStories writes a {id: story} file of about size bytes.
func writeLargeStories(t testing.TB, path string, size int64) (int, int64) {
	rng := rand.New(rand.NewPCG(7, 24))
	var b strings.Builder
	return writeLargeFile(t, path, size, "{", "}\n", func(i int) string {
		return fmt.Sprintf("\n%q: %q", fmt.Sprintf("s%07d", i), storyText(rng, &b))
	})
}

// writeLargeSuite writes a two-system suite of about size bytes, each
// sequence with one reference.
func writeLargeSuite(t testing.TB, path string, size int64) (int, int64) {
	rng := rand.New(rand.NewPCG(8, 24))
	var b strings.Builder
	return writeLargeFile(t, path, size, `{"systems": ["a", "b"], "sequences": {`, "}}\n", func(i int) string {
		ref := storyText(rng, &b)
		sa := storyText(rng, &b)
		return fmt.Sprintf("\n%q: {\"references\": [%q], \"stories\": {\"a\": %q, \"b\": %q}}", fmt.Sprintf("q%07d", i), ref, sa, storyText(rng, &b))
	})
}

// limitedRun is the outcome of one storyeval process run under the
// address-space limit with its output sent to a file.
type limitedRun struct {
	code    int
	stderr  string
	wall    time.Duration
	peakRSS int64
}

// runLimited runs "storyeval args..." as runLimitedTo does, its standard
// output written to stdoutPath.
func runLimited(t *testing.T, stdoutPath string, args ...string) limitedRun {
	t.Helper()
	out, err := os.Create(stdoutPath)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	r := runLimitedTo(t, out, args...)
	return limitedRun{code: r.code, stderr: string(r.stderr), wall: r.wall, peakRSS: r.peakRSS}
}

// runLimitedTo runs "storyeval args..." as a child process under a 4 GB
// address-space limit (sh's ulimit -v, which exec keeps), its standard
// output written to stdout, measuring its peak RSS as runProcess does.
func runLimitedTo(t *testing.T, stdout io.Writer, args ...string) processRun {
	t.Helper()
	exe := childExecutable(t)
	peakFile := filepath.Join(t.TempDir(), "peak")
	cmd := exec.Command("sh", append([]string{"-c", fmt.Sprintf(`ulimit -v %d && exec "$0" "$@"`, addressSpaceLimit), exe}, args...)...)
	cmd.Env = append(os.Environ(), mainEnv+"=1", peakEnv+"="+peakFile)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	if cmd.ProcessState == nil {
		t.Fatalf("storyeval %q did not run: %v", args, err)
	}
	return processRun{code: cmd.ProcessState.ExitCode(), stderr: stderr.Bytes(), wall: time.Since(start), peakRSS: readPeakRSS(peakFile)}
}

// checkLimitedRun fails unless the run exited 0 without a runtime crash
// and peaked at most 10× the input's size in RSS; it logs the figures.
func checkLimitedRun(t *testing.T, r limitedRun, inputSize int64) {
	t.Helper()
	if strings.Contains(r.stderr, "fatal error") || strings.Contains(r.stderr, "goroutine ") {
		t.Fatalf("crashed after %v: %.2000s", r.wall, r.stderr)
	}
	if r.code != 0 {
		t.Fatalf("exit status %d after %v: %.2000s", r.code, r.wall, r.stderr)
	}
	if r.peakRSS == 0 {
		t.Fatal("no peak RSS measured")
	}
	if r.peakRSS > 10*inputSize {
		t.Errorf("peak RSS %d MB is more than 10× the %d MB input", r.peakRSS>>20, inputSize>>20)
	}
	t.Logf("%.1f s, peak RSS %d MB (%.2f× the %d MB input)", r.wall.Seconds(), r.peakRSS>>20, float64(r.peakRSS)/float64(inputSize), inputSize>>20)
}

// countLines returns the number of lines of a file and its last line.
func countLines(t *testing.T, path string) (int, string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	n, last := 0, ""
	for sc.Scan() {
		n++
		last = sc.Text()
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n, last
}

// largeEnv, set to 1, runs every large-input case on the 200 MB input;
// by default the slower commands (tokens, tokenize, nouns: 1–2.5 minutes
// each at 200 MB on 2 loaded cores) run on a 32 MB input, so that CI stays
// within its time budget.
const largeEnv = "STORYEVAL_LARGE_INPUTS"

// TestLargeStoryFileStreams runs nr, nouns, tokens and tokenize on a
// generated 200 MB story file under a 4 GB address-space limit: each must
// finish with complete output (one row per story, the last story last) in
// at most 10× the input's size of memory (issue 24: nr, nouns, tokenize
// crashed with "fatal error: out of memory"; nr peaked at 15× the input).
func TestLargeStoryFileStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: generates a 200 MB story file")
	}
	dir := t.TempDir()
	type input struct {
		path   string
		n      int
		size   int64
		lastID string
	}
	gen := func(name string, size int64) input {
		in := input{path: filepath.Join(dir, name)}
		in.n, in.size = writeLargeStories(t, in.path, size)
		in.lastID = fmt.Sprintf("s%07d", in.n-1)
		t.Logf("%s: %d stories, %d MB", name, in.n, in.size>>20)
		return in
	}
	large := gen("stories200.json", largeInputBytes)
	small := large
	if os.Getenv(largeEnv) != "1" {
		small = gen("stories32.json", 32<<20)
	}
	for _, tc := range []struct {
		name  string
		in    input
		args  []string
		lines func(n int) int // output lines for n stories; nil: a JSON object
		last  string          // the last line's start, before the last id
	}{
		{"nr csv", large, []string{"nr", "-format", "csv"}, func(n int) int { return n + 1 }, ""},
		{"nr json", small, []string{"nr"}, func(n int) int { return 3*n + 4 }, ""},
		{"rovist nr", large, []string{"rovist", "-metrics", "nr"}, func(n int) int { return n + 2 }, ""},
		{"tokens", small, []string{"tokens"}, func(n int) int { return n }, `{"id":"`},
		{"tokenize bert", small, []string{"tokenize", "-family", "bert", "-model", "../../testdata/e2e/vrank/model"}, func(n int) int { return n }, `{"id":"`},
		{"nouns", small, []string{"nouns"}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "out")
			defer os.Remove(out)
			flag := "-stories"
			if tc.args[0] == "tokenize" {
				flag = "-texts"
			}
			r := runLimited(t, out, append(tc.args, flag, tc.in.path)...)
			checkLimitedRun(t, r, tc.in.size)
			if tc.lines == nil {
				data, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				if got := bytes.Count(data, []byte("\n  \"s")); got != tc.in.n {
					t.Errorf("%d stories in the output, want %d", got, tc.in.n)
				}
				if !bytes.Contains(data[max(0, len(data)-4096):], []byte(tc.in.lastID)) {
					t.Errorf("the output does not end with the last story %s", tc.in.lastID)
				}
				return
			}
			lines, last := countLines(t, out)
			if want := tc.lines(tc.in.n); lines != want {
				t.Errorf("%d output lines, want %d", lines, want)
			}
			if tc.args[0] == "nr" || tc.args[0] == "rovist" {
				return // the last lines close the table or hold the means
			}
			if !strings.HasPrefix(last, tc.last+tc.in.lastID) {
				t.Errorf("last line %.200q is not the last story %s", last, tc.in.lastID)
			}
		})
	}
}

// TestLargeSuiteScores runs score (RoViST-NR, few resamples) on a
// generated 200 MB two-system suite under a 4 GB address-space limit: it
// must write complete outputs in at most 10× the input's size of memory
// (issue 24: a 200 MB suite crashed score).
func TestLargeSuiteScores(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: generates a 200 MB suite")
	}
	dir := t.TempDir()
	suite := filepath.Join(dir, "suite.json")
	n, size := writeLargeSuite(t, suite, largeInputBytes)
	t.Logf("%d sequences, %d MB", n, size>>20)
	outDir := filepath.Join(dir, "report")
	r := runLimited(t, filepath.Join(dir, "stdout"), "score", "-in", suite, "-metrics", "nr", "-resamples", "100", "-rounds", "100", "-out", outDir)
	checkLimitedRun(t, r, size)
	lines, last := countLines(t, filepath.Join(outDir, "scores.csv"))
	if want := 2*n + 1; lines != want {
		t.Errorf("scores.csv has %d lines, want %d", lines, want)
	}
	if want := fmt.Sprintf("q%07d,b,", n-1); !strings.HasPrefix(last, want) {
		t.Errorf("scores.csv ends with %.200q, want the last sequence's system b (%s)", last, want)
	}
	for _, f := range []string{"summary.json", "report.html"} {
		if st, err := os.Stat(filepath.Join(outDir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestLargeCorpusStylemBuild runs stylem build under a 4 GB address-space
// limit on a generated corpus of the StyleM benchmark's shape (issue 24:
// 82 MB of captions took 4.8 GB, a 200 MB corpus crashed, then stopped at
// the -max-ngrams bound) and on a corpus dense in distinct n-grams (each
// word drawn from 200,000; the in-memory build peaked at 14–15× such a
// corpus). Each must write a complete table in at most 10× the input's
// size of memory and leave no run behind, and stylem score must load the
// table under the same limit. By default the first corpus is
// 32 MB (CI time); STORYEVAL_LARGE_INPUTS=1 makes it 200 MB (about 40
// million n-grams).
func TestLargeCorpusStylemBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: generates corpora of 20 to 200 MB")
	}
	dir := t.TempDir()
	size := int64(32 << 20)
	if os.Getenv(largeEnv) == "1" {
		size = largeInputBytes
	}
	for _, tc := range []struct {
		name  string
		lines int
		dense bool
	}{
		{"zipf", int(size / 123), false},
		{"dense", 140_000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			corpus := filepath.Join(dir, tc.name+".jsonl")
			defer os.Remove(corpus)
			var in int64
			if tc.dense {
				in = writeDenseCaptionCorpus(t, corpus, tc.lines)
			} else {
				in = writeCaptionCorpus(t, corpus, 5, tc.lines, 215)
			}
			t.Logf("%d captions, %d MB", tc.lines, in>>20)
			out := filepath.Join(dir, "out")
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(out)
			table := filepath.Join(out, "t.stylem")
			stdout := filepath.Join(dir, "stdout")
			r := runLimited(t, stdout, "stylem", "build", "-in", corpus, "-out", table)
			checkLimitedRun(t, r, in)
			var stats struct{ Records, Styles, Ngrams, Runs int }
			data, err := os.ReadFile(stdout)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &stats); err != nil {
				t.Fatalf("stdout %.500q: %v", data, err)
			}
			if stats.Records != tc.lines || stats.Styles != 215 {
				t.Errorf("stats %+v: want %d records over 215 styles", stats, tc.lines)
			}
			if n := countTableNgrams(t, table); n != stats.Ngrams || n == 0 {
				t.Errorf("the table holds %d n-grams; stylem build said %d", n, stats.Ngrams)
			}
			if left, _ := os.ReadDir(out); len(left) != 1 {
				t.Errorf("%d files in the output folder, want the table alone", len(left))
			}
			st, _ := os.Stat(table)
			t.Logf("%d n-grams from %d runs; table %d MB", stats.Ngrams, stats.Runs, st.Size()>>20)
			// The table loads (every field checked) and scores, under the
			// same limit (issue 24: a table from a 200 MB corpus is
			// 38 million n-grams; it took 2.2 GB).
			scores := filepath.Join(dir, "scores.csv")
			defer os.Remove(scores)
			rs := runLimited(t, scores, "stylem", "score", "-table", table, "-in", "samples/stylem_captions.jsonl", "-format", "csv")
			if rs.code != 0 {
				t.Fatalf("stylem score: exit %d: %.2000s", rs.code, rs.stderr)
			}
			if n, _ := countLines(t, scores); n != 1+3*215 {
				t.Errorf("stylem score wrote %d lines, want a header and 3 captions × 215 styles", n)
			}
			t.Logf("stylem score: %.1f s, peak RSS %d MB", rs.wall.Seconds(), rs.peakRSS>>20)
		})
	}
}

// writeDenseCaptionCorpus writes n JSONL corpus lines of 5–19 words drawn
// uniformly from 200,000, so that nearly every bigram and longer n-gram
// of the corpus is distinct, and returns the file's size.
func writeDenseCaptionCorpus(t testing.TB, path string, n int) int64 {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(11, 24))
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, `{"style": "Style%d", "image": "%016x", "caption": "The`, rng.IntN(215), rng.Uint64())
		for j := 4 + rng.IntN(15); j > 0; j-- {
			fmt.Fprintf(w, " w%d", rng.IntN(200_000))
		}
		w.WriteString(".\"}\n")
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// countTableNgrams reads a StyleM table file as a stream (it may be too
// large to load here) and returns its number of n-grams, failing unless
// the file is complete: the header, a gzip body whose checksum matches,
// every n-gram's fields, and nothing after the last one.
func countTableNgrams(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	var hdr [10]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil || string(hdr[:8]) != "STYLEMTB" {
		t.Fatalf("%s: header %q, %v", path, hdr, err)
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		t.Fatal(err)
	}
	body := bufio.NewReaderSize(zr, 1<<20)
	u := func() uint64 {
		x, err := binary.ReadUvarint(body)
		if err != nil {
			t.Fatalf("%s: truncated body: %v", path, err)
		}
		return x
	}
	skip := func(n uint64) {
		if _, err := body.Discard(int(n)); err != nil {
			t.Fatalf("%s: truncated body: %v", path, err)
		}
	}
	u()
	u()
	skip(u())     // formula, ECDF, tokenization
	for range 2 { // styles, tokens
		for n := u(); n > 0; n-- {
			skip(u())
		}
	}
	ngrams, entries := u(), uint64(0)
	wantEntries := uint64(0)
	if binary.LittleEndian.Uint16(hdr[8:]) >= 2 {
		wantEntries = u()
	}
	for i := uint64(0); i < ngrams; i++ {
		u()
		u()
		for e := u(); e > 0; e-- {
			u()
			u()
			skip(8)
			entries++
		}
	}
	if wantEntries != 0 && entries != wantEntries {
		t.Fatalf("%s: %d entries, the header says %d", path, entries, wantEntries)
	}
	if _, err := body.ReadByte(); err != io.EOF {
		t.Fatalf("%s: data after the last n-gram, or a bad gzip trailer: %v", path, err)
	}
	return int(ngrams)
}
