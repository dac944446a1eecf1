package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
	rovisttrain "github.com/storyeval/storyeval/rovist/train"
	"github.com/storyeval/storyeval/story"
)

// BenchmarkScoreCoherenceVsCommand compares the time per story of RoViST-C
// inside `score` with `storyeval rovist -metrics c` on the same 8 demo
// stories, with a full-size (albert-large) random-weight model:
//
//	go test -run='^$' -bench=ScoreCoherenceVsCommand -benchtime=1x ./cmd/storyeval/
func BenchmarkScoreCoherenceVsCommand(b *testing.B) {
	albertDir := filepath.Join("..", "..", "testdata", "e2e", "rovist_c", "albert-large-v1")
	spiece, err := os.ReadFile(filepath.Join(albertDir, "spiece.model"))
	if err != nil {
		b.Fatal(err)
	}
	cfg := encoders.ALBERTConfig{VocabSize: 30000, EmbeddingSize: 128, HiddenSize: 1024, NumHiddenLayers: 24, NumHiddenGroups: 1, InnerGroupNum: 1,
		NumAttentionHeads: 16, IntermediateSize: 4096, HiddenAct: "gelu", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}
	cfgJSON, err := json.Marshal(map[string]any{"model_type": "albert", "vocab_size": cfg.VocabSize, "embedding_size": cfg.EmbeddingSize,
		"hidden_size": cfg.HiddenSize, "num_hidden_layers": cfg.NumHiddenLayers, "num_hidden_groups": 1, "inner_group_num": 1,
		"num_attention_heads": cfg.NumAttentionHeads, "intermediate_size": cfg.IntermediateSize, "hidden_act": cfg.HiddenAct,
		"max_position_embeddings": cfg.MaxPositionEmbeddings, "type_vocab_size": cfg.TypeVocabSize, "layer_norm_eps": cfg.LayerNormEps})
	if err != nil {
		b.Fatal(err)
	}
	tok, err := tokenize.LoadALBERT(albertDir)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := rovisttrain.NewRandomCoherenceTrainer(cfg, tok, map[string][]byte{"config.json": cfgJSON, "spiece.model": spiece}, rovisttrain.CoherenceTrainOptions{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	modelDir := filepath.Join(dir, "model")
	if err := tr.SaveModel(modelDir); err != nil {
		b.Fatal(err)
	}
	models := filepath.Join(dir, "models")
	if err := os.MkdirAll(filepath.Join(models, "rovist"), 0o755); err != nil {
		b.Fatal(err)
	}
	for link, target := range map[string]string{
		"rovist/sop_model_epoch4.safetensors": filepath.Join(modelDir, rovisttrain.CoherenceWeightsFile),
		"rovist/albert-large-v1":              modelDir,
	} {
		if err := os.Symlink(target, filepath.Join(models, filepath.FromSlash(link))); err != nil {
			b.Fatal(err)
		}
	}
	demo, err := story.ParseSuite(demoStories, "demo", story.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	const n = 8
	texts := map[string]string{}
	seqs := map[string]any{}
	for i := range n {
		seq := demo.At(i)
		texts[seq.ID] = seq.Stories["llava"]
		seqs[seq.ID] = map[string]any{"stories": map[string]string{"llava": seq.Stories["llava"]}}
	}
	write := func(name string, v any) string {
		data, err := json.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		return p
	}
	storiesPath := write("stories.json", texts)
	suitePath := write("suite.json", map[string]any{"sequences": seqs})
	compareWithCommand(b, n, 0,
		[][]string{{"rovist", "-stories", storiesPath, "-coherence-model", filepath.Join(modelDir, rovisttrain.CoherenceWeightsFile), "-albert", modelDir, "-metrics", "c"}},
		[]string{"score", "-in", suitePath, "-models", models, "-metrics", "c", "-out", filepath.Join(dir, "out"), "-resamples", "100", "-rounds", "100"})
}

// compareWithCommand times a metric's own command lines (command, run one
// after the other: e.g. once per system) against one `score` run doing the
// same work, interleaved command–score–score–command in every iteration so
// that a machine whose speed drifts (a shared VM, a warming process) biases
// neither side. It reports each side's wall time per story
// (command-s/story, score-s/story), their CPU times per story (user +
// system of the process, which a busy machine disturbs less), the ratios
// score/command of both, and with pairs > 0 the wall times per predicted
// pair. A ratio at or below 1.10 is "within 10 %".
func compareWithCommand(b *testing.B, stories, pairs int, command [][]string, score []string) {
	b.Helper()
	var wall, cpu [2]float64 // [command, score]
	runSide := func(side int) {
		start, c0 := time.Now(), processCPUSeconds(b)
		lines := command
		if side == 1 {
			lines = [][]string{score}
		}
		for _, args := range lines {
			var stderr bytes.Buffer
			if code := runMain(args, io.Discard, &stderr); code != 0 {
				b.Fatalf("%q: exit %d: %s", args, code, stderr.String())
			}
		}
		wall[side] += time.Since(start).Seconds()
		cpu[side] += processCPUSeconds(b) - c0
	}
	for range b.N {
		for _, side := range []int{0, 1, 1, 0} {
			runSide(side)
		}
	}
	runs := float64(2 * b.N * stories)
	b.ReportMetric(wall[0]/runs, "command-s/story")
	b.ReportMetric(wall[1]/runs, "score-s/story")
	b.ReportMetric(cpu[0]/runs, "command-cpu-s/story")
	b.ReportMetric(cpu[1]/runs, "score-cpu-s/story")
	b.ReportMetric(wall[1]/wall[0], "score/command")
	b.ReportMetric(cpu[1]/cpu[0], "score/command-cpu")
	if pairs > 0 {
		perPair := float64(2 * b.N * pairs)
		b.ReportMetric(wall[0]/perPair, "command-s/pair")
		b.ReportMetric(wall[1]/perPair, "score-s/pair")
	}
}

// processCPUSeconds is the user + system CPU time of the process so far.
func processCPUSeconds(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// neuralBenchSuite is a story set for the score-vs-command benchmarks: the first
// sequences of the embedded demo set with the stories of the given systems,
// each sequence with images synthetic image ids of its own.
type neuralBenchSuite struct {
	// suite is the story-set JSON score reads.
	suite string
	// commandStories are, per system, RoViST's stories JSON {id: {"story",
	// "images"}} that the rovist and groovist commands read.
	commandStories map[string]string
	// imageIDs are the images of every sequence, without repeats.
	imageIDs []string
	// stories are the stories of every system (system by system).
	stories []story.Story
	// seqs are the sequences, in order.
	seqs []story.Sequence
}

// writeBenchSuite writes the files of a neuralBenchSuite of n sequences into dir.
func writeBenchSuite(b *testing.B, dir string, n, images int, systems ...string) neuralBenchSuite {
	b.Helper()
	demo, err := story.ParseSuite(demoStories, "demo", story.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	bs := neuralBenchSuite{commandStories: map[string]string{}}
	type rovistStory struct {
		Story  string   `json:"story"`
		Images []string `json:"images"`
	}
	perSystem := map[string]map[string]rovistStory{}
	seqs := map[string]any{}
	for i := range n {
		// Beyond the demo's sequences its stories repeat under new ids and
		// new images (the image side is what the large benchmarks measure).
		seq := demo.At(i % demo.Len())
		if i >= demo.Len() {
			seq.ID = fmt.Sprintf("%s%d", seq.ID, i/demo.Len())
		}
		var ids []string
		for k := range images {
			ids = append(ids, fmt.Sprintf("%s%02d", seq.ID, k))
		}
		bs.imageIDs = append(bs.imageIDs, ids...)
		texts := map[string]string{}
		for _, sys := range systems {
			texts[sys] = seq.Stories[sys]
			if perSystem[sys] == nil {
				perSystem[sys] = map[string]rovistStory{}
			}
			perSystem[sys][seq.ID] = rovistStory{Story: seq.Stories[sys], Images: ids}
		}
		seqs[seq.ID] = map[string]any{"images": ids, "stories": texts}
	}
	bs.suite = writeJSONFile(b, filepath.Join(dir, "suite.json"), map[string]any{"systems": systems, "sequences": seqs})
	for _, sys := range systems {
		bs.commandStories[sys] = writeJSONFile(b, filepath.Join(dir, "stories-"+sys+".json"), perSystem[sys])
	}
	suite, err := story.LoadSuite(bs.suite, story.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for _, sys := range systems {
		set, err := suite.System(sys)
		if err != nil {
			b.Fatal(err)
		}
		bs.stories = append(bs.stories, set.Stories()...)
	}
	for _, seq := range suite.All() {
		bs.seqs = append(bs.seqs, seq)
	}
	return bs
}

// scoreArgs is a score command line for one metric with few resamples (the
// summary's bootstrap is not what is measured).
func scoreArgs(dir string, bs neuralBenchSuite, models, metric string, extra ...string) []string {
	return append([]string{"score", "-in", bs.suite, "-models", models, "-metrics", metric, "-out", filepath.Join(dir, "out-"+metric),
		"-resamples", "100", "-rounds", "100"}, extra...)
}
