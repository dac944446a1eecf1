package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/storyeval/storyeval/internal/safetensors"
)

// writeCaptionCorpus writes n JSONL corpus lines {"style", "caption",
// "image"} over nStyles styles (captions of 5–19 words from a 10,000-word
// Zipf vocabulary, a fifth of them style words), the shape of the StyleM
// benchmark corpus, and returns the file's size.
func writeCaptionCorpus(t testing.TB, path string, seed uint64, n, nStyles int) int64 {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(seed, 2))
	zipf := rand.NewZipf(rng, 1.1, 2, 9999)
	for i := 0; i < n; i++ {
		k := rng.IntN(nStyles)
		fmt.Fprintf(w, `{"style": "Style%d", "image": "%016x", "caption": "The`, k, rng.Uint64())
		for j := 4 + rng.IntN(15); j > 0; j-- {
			if rng.IntN(5) == 0 {
				fmt.Fprintf(w, " s%dx%d", k, rng.IntN(60))
			} else {
				fmt.Fprintf(w, " w%d", zipf.Uint64())
			}
		}
		w.WriteString([]string{".\"}\n", "!\"}\n", "?\"}\n"}[rng.IntN(3)])
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	return st.Size()
}

// tempSize returns the size of the temporary file that atomicfile writes
// for target (".NAME.tmp*" beside it), or -1 when there is none.
func tempSize(target string) int64 {
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".tmp*"))
	if len(matches) == 0 {
		return -1
	}
	st, err := os.Stat(matches[0])
	if err != nil {
		return -1
	}
	return st.Size()
}

// killDuringWrite runs "storyeval args..." as a child process points
// times, each time killing it with SIGKILL (which no cleanup survives) once
// the temporary file of watch holds i/points of want bytes (i = 0 …
// points-1: from the first byte towards the end), and checks that watch
// and the other files in keep still hold exactly what they held before.
// Only kills that land while the temporary file is being written count: a
// run that ends on its own before the poll sees the threshold (a loaded
// machine can deschedule the poller for the whole write) must have
// succeeded, and one whose write and rename finished before the signal
// landed leaves no temporary file; either way the files are put back and
// that point is tried again, up to killAttempts times.
func killDuringWrite(t *testing.T, watch string, want int64, points int, keep []string, args ...string) {
	t.Helper()
	killDuringWriteOf(t, watch, want, points, keep, nil, args...)
}

// killDuringWriteOf is killDuringWrite for a command that replaces several
// files (watch and keep) by renaming each into place once all are written:
// complete, when not nil, holds each file's new content (watch's first),
// and a kill that lands between those renames — some files the complete
// new ones, the others untouched, none partial — is tried again like one
// that lands after the last rename. Any other change fails.
func killDuringWriteOf(t *testing.T, watch string, want int64, points int, keep []string, complete [][]byte, args ...string) {
	t.Helper()
	keep = append([]string{watch}, keep...)
	before := make([][]byte, len(keep))
	for i, path := range keep {
		var err error
		if before[i], err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for i, attempt := 0, 0; i < points; attempt++ {
		threshold := want * int64(i) / int64(points)
		cmd := exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), mainEnv+"=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		size := int64(-1)
		killed := false
	poll:
		for {
			select {
			case <-done:
				break poll
			default:
			}
			if size = tempSize(watch); size >= threshold {
				cmd.Process.Signal(syscall.SIGKILL)
				<-done
				killed = true
				break
			}
			time.Sleep(50 * time.Microsecond)
		}
		// SIGKILL lands asynchronously: on a busy machine the child can
		// finish its write and rename between the poll and the signal. No
		// temporary file left means that happened (a killed process cannot
		// remove it), and that run says nothing about a kill mid-write.
		late := killed && (tempSize(watch) < 0 || renaming(keep, before, complete))
		if !killed || late {
			if code := cmd.ProcessState.ExitCode(); !killed && code != 0 {
				t.Fatalf("kill %d: the run ended by itself with exit %d before the kill: %s", i, code, stderr.String())
			}
			if attempt >= killAttempts {
				t.Fatalf("kill %d: in %d runs the files were replaced before the kill at %d bytes of the temporary file landed (a run that ends too soon, or a file replaced before all are written)", i, attempt+1, threshold)
			}
			for k, path := range keep {
				if err := os.WriteFile(path, before[k], 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// A kill between renames leaves the later files' temporaries,
			// which the next attempt's poll must not take for its own.
			removeTemporaries(keep)
			t.Logf("kill %d: the run finished its write before the kill (attempt %d); trying again", i, attempt+1)
			continue
		}
		attempt = -1
		for k, path := range keep {
			after, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(after, before[k]) {
				t.Fatalf("kill %d (temporary file at %d of %d bytes): %s changed (%d bytes, %v); stderr %s",
					i, size, want, path, len(after), err, stderr.String())
			}
		}
		t.Logf("kill %d: temporary file of %s at %d of %d bytes; %d files unchanged", i, filepath.Base(watch), size, want, len(keep))
		removeTemporaries(keep)
		i++
	}
}

// removeTemporaries removes what killed runs left of the files' temporary
// copies.
func removeTemporaries(files []string) {
	for _, path := range files {
		matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp*"))
		for _, m := range matches {
			os.Remove(m)
		}
	}
}

// renaming reports whether the files in keep are each either as before or
// their complete new content, and at least one is new: a kill that landed
// between the renames of a multi-file commit. Without complete it is false.
func renaming(keep []string, before, complete [][]byte) bool {
	if complete == nil {
		return false
	}
	changed := false
	for k, path := range keep {
		now, err := os.ReadFile(path)
		switch {
		case err != nil || !bytes.Equal(now, before[k]) && !bytes.Equal(now, complete[k]):
			return false
		case !bytes.Equal(now, before[k]):
			changed = true
		}
	}
	return changed
}

// killAttempts bounds the runs killDuringWrite makes for one kill point
// when the child finishes before the kill lands.
const killAttempts = 5

// TestStylemBuildKilledMidWriteKeepsPreviousTable kills `stylem build -out`
// at 10 points of the table's write; the previous table must read back
// byte for byte every time (issue 24: os.Create used to leave a stub).
func TestStylemBuildKilledMidWriteKeepsPreviousTable(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds 11 tables in child processes")
	}
	dir := t.TempDir()
	table := filepath.Join(dir, "styles.tbl")
	if r := runProcess(t, nil, "stylem", "build", "-in", "samples/stylem_corpus.jsonl", "-out", table); r.code != 0 {
		t.Fatalf("stylem build: %s", r.stderr)
	}
	// A corpus whose table takes many buffered writes (about 10 MB).
	corpus := filepath.Join(dir, "corpus.jsonl")
	writeCaptionCorpus(t, corpus, 1, 40000, 215)
	full := filepath.Join(dir, "full.tbl")
	r := runProcess(t, nil, "stylem", "build", "-in", corpus, "-out", full)
	if r.code != 0 {
		t.Fatalf("stylem build: %s", r.stderr)
	}
	st, err := os.Stat(full)
	if err != nil {
		t.Fatal(err)
	}
	killDuringWrite(t, table, st.Size(), 10, nil, "stylem", "build", "-in", corpus, "-out", table)
	// What is left still reads as a table.
	r = runProcess(t, nil, "stylem", "score", "-table", table, "-in", "samples/stylem_captions.jsonl")
	if r.code != 0 || !strings.Contains(string(r.stdout), "onlystyle") {
		t.Fatalf("the kept table does not score: %s", r.stderr)
	}
}

// TestScoreKilledMidWriteKeepsPreviousReport kills `score -out` while it
// writes report.html (scores.csv and summary.json are written, still
// under temporary names): the previous scores.csv, summary.json and
// report.html must all be unchanged, and no file may ever be partial.
func TestScoreKilledMidWriteKeepsPreviousReport(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: scores a suite in 4 child processes")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	if r := runProcess(t, nil, "score", "-demo", "-metrics", "nr", "-resamples", "10", "-rounds", "10", "-out", out); r.code != 0 {
		t.Fatalf("score: %s", r.stderr)
	}
	// A suite large enough that its report takes many writes.
	suite := filepath.Join(dir, "suite.json")
	writeLargeSuite(t, suite, 4<<20)
	args := []string{"score", "-in", suite, "-metrics", "nr", "-resamples", "10", "-rounds", "10", "-out"}
	full := filepath.Join(dir, "full")
	if r := runProcess(t, nil, append(args, full)...); r.code != 0 {
		t.Fatalf("score: %s", r.stderr)
	}
	st, err := os.Stat(filepath.Join(full, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	// compare.WriteFiles renames the three files into place one after
	// another once all are written and synced: a kill between those renames
	// may leave the first ones replaced, each complete (its documented
	// window), which the kill loop tells apart from a partial or early write.
	var complete [][]byte
	for _, name := range []string{"report.html", "scores.csv", "summary.json"} {
		data, err := os.ReadFile(filepath.Join(full, name))
		if err != nil {
			t.Fatal(err)
		}
		complete = append(complete, data)
	}
	keep := []string{filepath.Join(out, "scores.csv"), filepath.Join(out, "summary.json")}
	killDuringWriteOf(t, filepath.Join(out, "report.html"), st.Size(), 3, keep, complete, append(args, out)...)
}

// TestModelsConvertKilledMidWriteKeepsPreviousFile kills `models convert`
// at 5 points of a 32 MB safetensors write: the previous file must be
// unchanged.
func TestModelsConvertKilledMidWriteKeepsPreviousFile(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: converts a 32 MB checkpoint in 6 child processes")
	}
	dir := t.TempDir()
	small, big := filepath.Join(dir, "small.safetensors"), filepath.Join(dir, "big.safetensors")
	weights := make([]float32, 8<<20)
	for i := range weights {
		weights[i] = float32(i%1000) / 7
	}
	if err := safetensors.WriteFile(small, []safetensors.Tensor{{Name: "w", Shape: []int{2}, F32: []float32{1, 2}}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := safetensors.WriteFile(big, []safetensors.Tensor{{Name: "w", Shape: []int{len(weights)}, F32: weights}}, nil); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.safetensors")
	if r := runProcess(t, nil, "models", "convert", "-in", small, "-out", out); r.code != 0 {
		t.Fatalf("models convert: %s", r.stderr)
	}
	st, err := os.Stat(big)
	if err != nil {
		t.Fatal(err)
	}
	killDuringWrite(t, out, st.Size(), 5, nil, "models", "convert", "-in", big, "-out", out)
}

// signalWhen runs "storyeval args..." as a child process and sends it sig
// once ready() holds (polled every 50 µs). It returns the exit status and
// standard error, and whether the signal was sent before the process
// ended.
func signalWhen(t *testing.T, sig os.Signal, ready func() bool, args ...string) (code int, stderr string, sent bool) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	var buf bytes.Buffer
	cmd.Stderr = &buf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	for !sent {
		select {
		case <-done:
			return cmd.ProcessState.ExitCode(), buf.String(), false
		default:
		}
		if ready() {
			cmd.Process.Signal(sig)
			sent = true
		}
		time.Sleep(50 * time.Microsecond)
	}
	<-done
	return cmd.ProcessState.ExitCode(), buf.String(), true
}

// TestStylemBuildInterruptedDuringSpillKeepsPreviousTable interrupts
// `stylem build` while it counts n-grams into sorted runs and while it
// merges them (a 1 MiB chunk makes about 50 runs of a 40,000-caption
// corpus), with SIGKILL and with SIGINT. The previous table must stay
// byte for byte; after SIGINT the command must exit 130 leaving neither
// its runs nor its temporary table (SIGKILL, which nothing survives, may
// leave both; they are hidden and never read).
func TestStylemBuildInterruptedDuringSpillKeepsPreviousTable(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds 7 tables in child processes")
	}
	dir := t.TempDir()
	table := filepath.Join(dir, "styles.tbl")
	if r := runProcess(t, nil, "stylem", "build", "-in", "samples/stylem_corpus.jsonl", "-out", table); r.code != 0 {
		t.Fatalf("stylem build: %s", r.stderr)
	}
	before, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	corpus := filepath.Join(t.TempDir(), "corpus.jsonl")
	writeCaptionCorpus(t, corpus, 1, 40000, 215)
	args := []string{"stylem", "build", "-chunk-mb", "1", "-in", corpus, "-out", table}
	r := runProcess(t, nil, append(args[:len(args)-1:len(args)-1], filepath.Join(t.TempDir(), "full.tbl"))...)
	var stats struct{ Runs int }
	if r.code != 0 || json.Unmarshal(r.stdout, &stats) != nil || stats.Runs < 20 {
		t.Fatalf("stylem build: exit %d, %s%s; want 20 runs or more", r.code, r.stdout, r.stderr)
	}
	// runs returns the run files in the build's folders; merging is the
	// first merged run (named after the chunks' runs).
	runs := func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, ".stylem-runs-*", "run*"))
		return m
	}
	merging := func() bool {
		m, _ := filepath.Glob(filepath.Join(dir, ".stylem-runs-*", fmt.Sprintf("run%06d", stats.Runs)))
		return len(m) > 0
	}
	for _, tc := range []struct {
		name  string
		sig   os.Signal
		ready func() bool
	}{
		{"SIGKILL at the first run", syscall.SIGKILL, func() bool { return len(runs()) >= 1 }},
		{"SIGKILL half-way through the runs", syscall.SIGKILL, func() bool { return len(runs()) >= stats.Runs/2 }},
		{"SIGKILL while merging", syscall.SIGKILL, merging},
		{"SIGINT a third of the way through the runs", os.Interrupt, func() bool { return len(runs()) >= stats.Runs/3 }},
		{"SIGINT while merging", os.Interrupt, merging},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stderr, sent := signalWhen(t, tc.sig, tc.ready, args...)
			if !sent {
				t.Fatalf("the build ended (exit %d) before the signal: %s", code, stderr)
			}
			if after, err := os.ReadFile(table); err != nil || !bytes.Equal(after, before) {
				t.Fatalf("the previous table changed (%d bytes, %v); stderr %s", len(after), err, stderr)
			}
			left, _ := filepath.Glob(filepath.Join(dir, ".*"))
			if tc.sig == os.Interrupt {
				if code != 130 || strings.TrimSpace(stderr) != "storyeval stylem: interrupted" {
					t.Errorf("exit %d, stderr %q; want 130 and one line saying interrupted", code, stderr)
				}
				if len(left) != 0 {
					t.Errorf("left behind: %q", left)
				}
			}
			for _, p := range left {
				os.RemoveAll(p)
			}
		})
	}
}
