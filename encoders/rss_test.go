package encoders

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/nn"
)

// bertTensorShapes lists every parameter of a BertModel with the pooler,
// from BERT's walk.
func bertTensorShapes(c BERTConfig) map[string][]int {
	out := map[string][]int{}
	for _, p := range nn.BERTLayout(c.Shape(), true, "") {
		out[p.Name] = p.Shape
	}
	return out
}

// writeRandomSafetensors streams random float32 tensors to path in the
// safetensors layout, holding one tensor at a time.
func writeRandomSafetensors(path string, shapes map[string][]int, seed int64) (int64, error) {
	names := make([]string, 0, len(shapes))
	for n := range shapes {
		names = append(names, n)
	}
	sort.Strings(names)
	header := map[string]any{}
	off := 0
	for _, n := range names {
		size := 4
		for _, d := range shapes[n] {
			size *= d
		}
		header[n] = map[string]any{"dtype": "F32", "shape": shapes[n], "data_offsets": []int{off, off + size}}
		off += size
	}
	hj, err := json.Marshal(header)
	if err != nil {
		return 0, err
	}
	for len(hj)%8 != 0 {
		hj = append(hj, ' ')
	}
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	binary.Write(w, binary.LittleEndian, uint64(len(hj)))
	w.Write(hj)
	rng := rand.New(rand.NewSource(seed))
	var buf [4]byte
	for _, n := range names {
		count := 1
		for _, d := range shapes[n] {
			count *= d
		}
		for i := 0; i < count; i++ {
			binary.LittleEndian.PutUint32(buf[:], math.Float32bits(float32(rng.NormFloat64()*0.02)))
			w.Write(buf[:])
		}
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	return int64(8 + len(hj) + off), nil
}

// procStatusKB reads a "VmXXX:" line of /proc/self/status in kB.
func procStatusKB(key string) (int64, error) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, key+":") {
			f := strings.Fields(line)
			return strconv.ParseInt(f[1], 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s in /proc/self/status", key)
}

// BenchmarkLoadBERTBaseRSS loads a random-weight BERT-base from
// model.safetensors and reports the peak resident memory the load added,
// as a multiple of the weight file (target ≤ 1.3):
//
//	go test -run='^$' -bench=LoadBERTBaseRSS -benchtime=1x ./encoders/
func BenchmarkLoadBERTBaseRSS(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads /proc/self/status and clear_refs, which only Linux has")
	}
	cfg := BERTConfig{VocabSize: 30522, HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072,
		HiddenAct: "gelu", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}
	dir := b.TempDir()
	size, err := writeRandomSafetensors(filepath.Join(dir, "model.safetensors"), bertTensorShapes(cfg), 1)
	if err != nil {
		b.Fatal(err)
	}
	cj, _ := json.Marshal(map[string]any{"model_type": "bert", "vocab_size": cfg.VocabSize, "hidden_size": 768, "num_hidden_layers": 12,
		"num_attention_heads": 12, "intermediate_size": 3072, "hidden_act": "gelu", "max_position_embeddings": 512, "type_vocab_size": 2, "layer_norm_eps": 1e-12})
	if err := os.WriteFile(filepath.Join(dir, "config.json"), cj, 0o644); err != nil {
		b.Fatal(err)
	}
	var m *BERT
	for b.Loop() {
		m = nil
		runtime.GC()
		debug.FreeOSMemory()
		base, err := procStatusKB("VmRSS")
		if err != nil {
			b.Fatal(err)
		}
		// Writing 5 to clear_refs resets VmHWM to the current RSS.
		if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
			b.Fatal(err)
		}
		m, err = LoadBERT(dir)
		if err != nil {
			b.Fatal(err)
		}
		peak, _ := procStatusKB("VmHWM")
		b.ReportMetric(float64(peak-base)/1024, "peakMB")
		b.ReportMetric(float64(peak-base)*1024/float64(size), "peak/file")
		b.ReportMetric(float64(size)/(1<<20), "fileMB")
	}
	runtime.KeepAlive(m)
}
