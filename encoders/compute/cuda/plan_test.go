package cuda

import (
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
	"github.com/storyeval/storyeval/encoders/compute/cuda/kernels"
)

func TestBatchPlan(t *testing.T) {
	const gib = 1 << 30
	// 10 GiB free, 10 % headroom: 9 GiB usable; 1 GiB fixed; 100 MiB an item.
	p := BatchPlan{Free: 10 * gib, Fixed: gib, PerItem: 100 << 20}
	if n, err := p.Size(0); err != nil || n != 81 { // floor(8 GiB / 100 MiB) = 81
		t.Errorf("Size(0) = %d, %v; want 81", n, err)
	}
	if n, err := p.Size(64); err != nil || n != 64 {
		t.Errorf("Size(64) = %d, %v; want the limit 64", n, err)
	}
	p.Headroom = 0.5 // 5 GiB usable: floor(4 GiB / 100 MiB) = 40
	if n, err := p.Size(0); err != nil || n != 40 {
		t.Errorf("headroom 0.5: Size = %d, %v; want 40", n, err)
	}
	p.PerItem = 5 * gib
	if _, err := p.Size(0); err == nil || !strings.Contains(err.Error(), "one item needs 5120.0 MiB beside 1024.0 MiB fixed") {
		t.Errorf("an item larger than the memory: error %v", err)
	}
}

func TestEncoderForwardBytes(t *testing.T) {
	// BERT-base, 128 tokens: 128·(7·768 + 3072 + 12·128) = 1,277,952 values.
	if got := EncoderForwardBytes(128, 768, 3072, 12); got != 4*1277952 {
		t.Errorf("BERT-base 128 tokens: %d bytes, want %d", got, 4*1277952)
	}
}

func kernelNamed(t *testing.T, name string) kernels.Kernel {
	for _, k := range kernels.Kernels {
		if k.Name == name {
			return k
		}
	}
	t.Fatalf("no kernel %s in the table", name)
	return kernels.Kernel{}
}

func TestLaunchGrid(t *testing.T) {
	rowK, strideK, colK := kernelNamed(t, "layernorm_fwd_f32"), kernelNamed(t, "bias_act_f32"), kernelNamed(t, "column_sums_f32")
	for _, c := range []struct {
		k       kernels.Kernel
		s       Shape
		want    uint32
		wantErr string
	}{
		{rowK, Shape{Rows: 4096}, 4096, ""},
		{strideK, Shape{Elems: 1000}, 4, ""},                   // ceil(1000/256)
		{strideK, Shape{Elems: 100 << 20}, 132 * 32, ""},       // capped: a grid-stride loop
		{colK, Shape{Elems: 300000}, (300000 + 255) / 256, ""}, // a thread per column: never capped
		{rowK, Shape{}, 0, ""},                                 // nothing to do
		{rowK, Shape{Elems: 10}, 0, "launch it with Shape{Rows: n}"},
		{strideK, Shape{Rows: 10}, 0, "launch it with Shape{Elems: n}"},
	} {
		got, err := grid(c.k, c.s, 132)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s %+v: error %v, want %q", c.k.Name, c.s, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s %+v: %d blocks, %v; want %d", c.k.Name, c.s, got, err, c.want)
		}
	}
}

func TestCheckArgs(t *testing.T) {
	k := kernelNamed(t, "bias_act_f32") // (float*, const float*, int, int, int)
	var a cudalib.Args
	a.Ptr(1).Ptr(2).Int(3).Int(4).Int(kernels.ActGELU)
	if err := checkArgs(k, &a); err != nil {
		t.Errorf("matching arguments: %v", err)
	}
	a.Reset()
	a.Ptr(1).Ptr(2).Int(3).Int64(4).Int(kernels.ActGELU)
	if err := checkArgs(k, &a); err == nil || !strings.Contains(err.Error(), `takes parameters "ppiii"`) || !strings.Contains(err.Error(), `given "ppili"`) {
		t.Errorf("a long long for an int: error %v", err)
	}
}
