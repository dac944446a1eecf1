package checkpoint

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"gorgonia.org/tensor"
)

// benchTensors × benchShape float32 ≈ 340 MB, the size of a ViT-B/16.
const benchTensors = 85

var benchShape = [2]int{1024, 976}

// writeBenchSafetensors streams a 340 MB float32 safetensors file to dir.
func writeBenchSafetensors(b *testing.B, dir string) (string, int64) {
	b.Helper()
	path := filepath.Join(dir, "model.safetensors")
	per := benchShape[0] * benchShape[1] * 4
	header := map[string]any{}
	for i := 0; i < benchTensors; i++ {
		header[fmt.Sprintf("layer.%02d.weight", i)] = map[string]any{"dtype": "F32", "shape": benchShape, "data_offsets": []int{i * per, (i + 1) * per}}
	}
	h, _ := json.Marshal(header)
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(h)))
	w.Write(n[:])
	w.Write(h)
	chunk := float32LE(make([]float32, 1<<16)...)
	for i := range chunk {
		chunk[i] = byte(i * 7)
	}
	total := int64(benchTensors * per)
	for written := int64(0); written < total; written += int64(len(chunk)) {
		w.Write(chunk[:min(int64(len(chunk)), total-written)])
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path, total
}

// peakRSSMB is the process's peak resident set (VmHWM) in MiB.
func peakRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
				return kb / 1024
			}
		}
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Maxrss) / 1024
}

// BenchmarkLoadSafetensors340MB opens a generated 340 MB float32 safetensors
// file and reads every tensor into float32 tensors, keeping them all as a
// model load does, memory-mapped (mmap) and read into memory (read). It
// reports the process's peak RSS (VmHWM), which only grows: run each
// sub-benchmark in its own process, e.g.
//
//	go test -run='^$' -bench='LoadSafetensors340MB/mmap' -benchtime=3x ./encoders/checkpoint/
func BenchmarkLoadSafetensors340MB(b *testing.B) {
	for _, c := range []struct {
		name string
		opts Options
	}{{"mmap", Options{}}, {"read", Options{NoMmap: true}}} {
		b.Run(c.name, func(b *testing.B) {
			path, total := writeBenchSafetensors(b, b.TempDir())
			b.SetBytes(total)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				st, err := c.opts.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				kept := make([]*tensor.Dense, 0, st.Len())
				for _, name := range st.Names() {
					x, err := st.Float32(name)
					if err != nil {
						b.Fatal(err)
					}
					kept = append(kept, x)
				}
				st.Close()
				if len(kept) != benchTensors {
					b.Fatal(len(kept))
				}
			}
			b.ReportMetric(peakRSSMB(), "peakRSS-MiB")
		})
	}
}

// BenchmarkOpenSafetensors340MB measures Open alone: header parse and mmap.
func BenchmarkOpenSafetensors340MB(b *testing.B) {
	path, _ := writeBenchSafetensors(b, b.TempDir())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		st.Close()
	}
	b.ReportMetric(peakRSSMB(), "peakRSS-MiB")
}
