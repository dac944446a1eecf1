package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runUnderASLimit runs "storyeval args..." as runLimitedTo does, its
// standard output kept in memory.
func runUnderASLimit(t *testing.T, args ...string) processRun {
	t.Helper()
	var stdout bytes.Buffer
	r := runLimitedTo(t, &stdout, args...)
	r.stdout = stdout.Bytes()
	return r
}

// writeLargeVHED writes a VHED CSV of at least size bytes and returns the
// number of rows. Each ranking task has a human story and two machine
// stories of wordsPerStory random words, compared in three pairs (human,
// model0), (model0, model1), (model1, human), with labels consistent with
// the ranks.
func writeLargeVHED(t *testing.T, path string, size int64, wordsPerStory int, rng *rand.Rand) int {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	words := strings.Fields("the a dog cat ran to park beach and played we went had fun day night sun sea happy family friends cake")
	story := func() string {
		var b strings.Builder
		for i := range wordsPerStory {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.Intn(len(words))])
		}
		return b.String() + " ."
	}
	written, _ := w.WriteString("sent1,sent2,label,story_id,model_base,model_comp,agreement,img_seq,avg_rank_base,avg_rank_comp,order,rank_norm\n")
	models := [3]string{"human", "model0", "model1"}
	var texts [3]string
	n := 0
	for ; int64(written) < size; n++ {
		task, m := n/3, n%3
		if m == 0 {
			texts = [3]string{story(), story(), story()}
		}
		a, b := m, (m+1)%3
		k, _ := fmt.Fprintf(w, "%s,%s,-1.2,%d,%s,%s,%d,\"[%d1, %d2, %d3, %d4, %d5]\",1.0,2.2,5,-0.24\n",
			texts[a], texts[b], task, models[a], models[b], 3+m, task, task, task, task, task)
		written += k
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkLargeRun checks issue 24's bar for a large valid input: exit 0 with
// complete output (checked by complete) or exit 1 with a one-line error,
// never a Go runtime crash, and a peak RSS at most 10× the input.
func checkLargeRun(t *testing.T, r processRun, input int64, complete func([]byte) error) {
	t.Helper()
	msg := string(r.stderr)
	if strings.Contains(msg, "fatal error") || strings.Contains(msg, "goroutine ") || strings.Contains(msg, "panic") {
		t.Fatalf("crashed (exit %d):\n%.2000s", r.code, msg)
	}
	switch r.code {
	case 0:
		if err := complete(r.stdout); err != nil {
			t.Errorf("exit 0 with incomplete output: %v", err)
		}
	case 1:
		if strings.Count(strings.TrimSpace(msg), "\n") != 0 {
			t.Errorf("exit 1 without a one-line error:\n%.2000s", msg)
		}
	default:
		t.Errorf("exit %d:\n%.2000s", r.code, msg)
	}
	if r.peakRSS > 10*input {
		t.Errorf("peak RSS %d MB, more than 10× the %d MB input", r.peakRSS>>20, input>>20)
	}
	t.Logf("exit %d in %.1f s, peak RSS %d MB (%.2f× the %d MB input)", r.code, r.wall.Seconds(),
		r.peakRSS>>20, float64(r.peakRSS)/float64(input), input>>20)
}

// TestVHEDLargeInputs runs vhed assess and vrank predict as child
// processes on generated 200 MB VHED CSVs under a 4 GB address-space
// limit (issue 24): one of 200k pairs of 100-word stories for vhed assess
// (with a column of predicted gaps, and with BLEU-4 and the Reference
// Absent algorithm against the file's human stories),
// one of about 1000 pairs of 20,000-word stories for vrank predict, whose
// model truncates each pair to 512 tokens, so that the run is about
// reading, tokenizing and chunking rather than the encoder's speed. The
// files are written in a temporary folder, not committed.
func TestVHEDLargeInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: writes two 200 MB files and runs for minutes")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for ulimit")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(24))

	t.Run("vhed assess", func(t *testing.T) {
		csvPath, gapsPath := filepath.Join(dir, "rows.csv"), filepath.Join(dir, "gaps.csv")
		rows := writeLargeVHED(t, csvPath, largeInputBytes, 100, rng)
		var gaps bytes.Buffer
		gaps.WriteString("pred\n")
		for range rows {
			fmt.Fprintf(&gaps, "%g\n", rng.Float64()*2-1)
		}
		if err := os.WriteFile(gapsPath, gaps.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(csvPath)
		for _, scorer := range [][]string{{"-scores", gapsPath}, {"-metrics", "bleu"}} {
			t.Logf("vhed assess %s", strings.Join(scorer, " "))
			args := append([]string{"vhed", "assess", "-csv", csvPath, "-bootstrap", "0"}, scorer...)
			r := runUnderASLimit(t, args...)
			checkLargeRun(t, r, st.Size(), func(out []byte) error {
				var v vhedTestJSON
				if err := json.Unmarshal(out, &v); err != nil {
					return err
				}
				if v.Rows != rows || len(v.Scorers) != 1 || v.Scorers[0].Accuracy.Total != rows {
					return fmt.Errorf("%d rows, scorers %d; want %d rows assessed", v.Rows, len(v.Scorers), rows)
				}
				return nil
			})
		}
	})

	t.Run("vrank predict", func(t *testing.T) {
		csvPath := filepath.Join(dir, "long.csv")
		rows := writeLargeVHED(t, csvPath, largeInputBytes, 20000, rng)
		st, _ := os.Stat(csvPath)
		r := runUnderASLimit(t, "vrank", "predict", "-model", vrankTestModel, "-csv", csvPath)
		checkLargeRun(t, r, st.Size(), func(out []byte) error {
			var preds []struct {
				Pair int      `json:"pair"`
				Gap  *float64 `json:"gap"`
			}
			if err := json.Unmarshal(out, &preds); err != nil {
				return err
			}
			if len(preds) != rows {
				return fmt.Errorf("%d predictions for %d pairs", len(preds), rows)
			}
			for i, p := range preds {
				if p.Pair != i || p.Gap == nil {
					return fmt.Errorf("prediction %d: %+v", i, p)
				}
			}
			return nil
		})
	})
}
