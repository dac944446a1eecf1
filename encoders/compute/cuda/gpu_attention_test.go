package cuda

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// attentionRef is the CPU backend's attention (encoders' selfAttention):
// per (sequence, head) scores q·kᵀ·scale, hidden keys weight 0 (uniform
// when none is visible), softmax in double, times v.
func attentionRef(q, k, v []float32, s AttentionShape, keyValid []bool, causal bool) []float32 {
	B, S, nh, dh := s.Batch, s.Seq, s.Heads, s.HeadDim
	H := nh * dh
	out := make([]float32, B*S*H)
	for b := 0; b < B; b++ {
		for h := 0; h < nh; h++ {
			for i := 0; i < S; i++ {
				row := make([]float32, S)
				for j := 0; j < S; j++ {
					var dot float64
					for e := 0; e < dh; e++ {
						dot += float64(q[(b*S+i)*H+h*dh+e]) * float64(k[(b*S+j)*H+h*dh+e])
					}
					row[j] = float32(dot) * s.Scale
				}
				p := softmaxRef(row, func(j int) bool { return (keyValid == nil || keyValid[b*S+j]) && !(causal && j > i) })
				for e := 0; e < dh; e++ {
					var acc float64
					for j := 0; j < S; j++ {
						acc += float64(p[j]) * float64(v[(b*S+j)*H+h*dh+e])
					}
					out[(b*S+i)*H+h*dh+e] = float32(acc)
				}
			}
		}
	}
	return out
}

func TestGPUAttention(t *testing.T) {
	d := openGPU(t)
	r := rand.New(rand.NewPCG(23, 24))
	s := AttentionShape{Batch: 3, Seq: 37, Heads: 4, HeadDim: 16}
	s.Scale = float32(1 / math.Sqrt(float64(s.HeadDim)))
	n := s.Batch * s.Seq * s.Heads * s.HeadDim
	q, k, v := randomValues(r, n, 2), randomValues(r, n, 2), randomValues(r, n, 1)
	keyValid := make([]bool, s.Batch*s.Seq)
	for j := range keyValid {
		keyValid[j] = j < s.Seq || (j >= s.Seq && j < s.Seq+20) // sequence 2: all padding
	}
	qb, kb, vb := upload(t, d.Queue, q), upload(t, d.Queue, k), upload(t, d.Queue, v)
	dst := upload(t, d.Queue, make([]float32, n))
	for _, c := range []struct {
		mask   []bool
		causal bool
	}{{nil, false}, {keyValid, false}, {keyValid, true}, {nil, true}} {
		if err := d.Attention(dst, qb, kb, vb, s, c.mask, c.causal); err != nil {
			t.Fatal(err)
		}
		closeTo(t, "attention", download(t, d.Queue, dst), attentionRef(q, k, v, s, c.mask, c.causal), 1e-5)
	}
}

func TestGPUEmbedGatherAndHeads(t *testing.T) {
	d := openGPU(t)
	r := rand.New(rand.NewPCG(25, 26))
	const rows, w, vocab, period = 12, 40, 9, 5
	word, pos := randomValues(r, vocab*w, 1), randomValues(r, period*w, 1)
	ids := []int32{3, 3, 0, 8, 1, 2, 7, 6, 5, 4, 3, 2}
	wb, pb, ib := upload(t, d.Queue, word), upload(t, d.Queue, pos), uploadInts(t, d.Queue, ids)
	dst := upload(t, d.Queue, randomValues(r, rows*w, 1))
	// word[ids] + pos[r mod 5], then + dst itself (period 0, in place).
	launch(t, d.Queue, "embed_gather_f32", Shape{Elems: rows * w}, new(cudalib.Args).Ptr(dst.Ptr).Ptr(wb.Ptr).Ptr(ib.Ptr).Int(rows).Int(w).Int(0).Int(0))
	launch(t, d.Queue, "embed_gather_f32", Shape{Elems: rows * w}, new(cudalib.Args).Ptr(dst.Ptr).Ptr(pb.Ptr).Ptr(0).Int(rows).Int(w).Int(period).Int(1))
	launch(t, d.Queue, "embed_gather_f32", Shape{Elems: rows * w}, new(cudalib.Args).Ptr(dst.Ptr).Ptr(dst.Ptr).Ptr(0).Int(rows).Int(w).Int(0).Int(1))
	want := make([]float32, rows*w)
	for i := 0; i < rows; i++ {
		for j := 0; j < w; j++ {
			e := word[int(ids[i])*w+j] + pos[(i%period)*w+j]
			want[i*w+j] = e + e
		}
	}
	closeTo(t, "embedding gathers (exact)", download(t, d.Queue, dst), want, 0)

	// Rows with a negative index stay as they are.
	idx := []int32{2, -1, 0}
	before := download(t, d.Queue, dst)[:3*w]
	out := upload(t, d.Queue, before)
	xi := uploadInts(t, d.Queue, idx)
	launch(t, d.Queue, "gather_rows_f32", Shape{Elems: 3 * w}, new(cudalib.Args).Ptr(out.Ptr).Ptr(wb.Ptr).Ptr(xi.Ptr).Int(3).Int(w))
	wantRows := append(append(append([]float32(nil), word[2*w:3*w]...), before[w:2*w]...), word[:w]...)
	closeTo(t, "row gather, -1 kept (exact)", download(t, d.Queue, out), wantRows, 0)

	// split then merge is the identity; split puts (b, s, h, e) at ((b·heads+h)·S+s)·dh+e.
	const B, S, heads, dh = 2, 5, 3, 4
	x := randomValues(r, B*S*heads*dh, 1)
	xb, sp, back := upload(t, d.Queue, x), upload(t, d.Queue, make([]float32, len(x))), upload(t, d.Queue, make([]float32, len(x)))
	launch(t, d.Queue, "split_heads_f32", Shape{Elems: len(x)}, new(cudalib.Args).Ptr(sp.Ptr).Ptr(xb.Ptr).Int(B).Int(S).Int(heads).Int(dh))
	launch(t, d.Queue, "merge_heads_f32", Shape{Elems: len(x)}, new(cudalib.Args).Ptr(back.Ptr).Ptr(sp.Ptr).Int(B).Int(S).Int(heads).Int(dh))
	split := download(t, d.Queue, sp)
	if got, want := split[((1*heads+2)*S+3)*dh+1], x[(1*S+3)*heads*dh+2*dh+1]; got != want {
		t.Errorf("split heads: (b1, s3, h2, e1) is %v, want %v", got, want)
	}
	closeTo(t, "split then merge heads (exact)", download(t, d.Queue, back), x, 0)
}
