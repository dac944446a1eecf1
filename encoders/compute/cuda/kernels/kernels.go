// Package kernels holds the CUDA C sources of the CUDA backend's own
// kernels — what cuBLAS does not do: bias + activation (erf GELU, gelu_new,
// quick_gelu, ReLU, tanh) and their derivatives, LayerNorm forward and
// backward, masked/causal softmax and its backward, splitting and merging
// attention heads, token embeddings (fixed and per-table gathers) and their
// backward, patch im2col and ViT's embedding, row gathers and L2
// normalisation, Adam, dropout, and the elementwise operations and
// reductions of the losses — and the table of their entry points and
// parameters, which the backend launches by.
//
// # Why NVRTC at run time and not PTX made by go generate
//
// The sources are compiled when a backend starts, by NVRTC loaded at run
// time (cudalib.Compiler), for the virtual architecture of the GPU at
// hand. A `go generate` step with nvcc would commit PTX for chosen
// architectures: a contributor without the CUDA toolkit could not change a
// kernel, the committed PTX would be a second, unreviewable copy of the
// sources, and PTX made for an old architecture would not use a new GPU's
// instructions. NVRTC ships with every CUDA installation that has cuBLAS
// (and in PyTorch's wheels); compiling these sources takes well under a
// second and happens once per process and device.
//
// # Numerics
//
// The kernels follow the CPU path's arithmetic (encoders and
// compute's …Host kernels): activations in double rounded once; LayerNorm's mean
// and variance in double; softmax's exp and sum in double; bias,
// LayerNorm-parameter and embedding gradients summed in row order by one
// thread per column, as the CPU loops do, so they are deterministic without
// atomics. Options compiles with --fmad=false: Go on amd64 does not fuse
// a*b+c into one rounding, so neither may the kernels (Adam's step is then
// bit-identical to the CPU's). What remains different is the order of the
// additions of the per-row reductions (a tree of SE_BLOCK partial sums
// instead of a loop), below float32 rounding where the sums are in double.
//
// # Tests without a GPU
//
// The table is checked against the sources' signatures; NVRTC, where
// installed, compiles every kernel and the PTX entries are checked against
// the table; and the kernels' logic runs on the CPU, compiled as C++
// against a small emulation of CUDA's blocks, threads, shared memory and
// barriers (testdata/emu.h, testdata/emu_test.cpp). The GPU tests of
// package cuda check the numbers on a device.
package kernels

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed common.cuh *.cu
var sources embed.FS

// files are the sources in the order they are concatenated: the helpers
// first.
var files = []string{"common.cuh", "activation.cu", "layernorm.cu", "softmax.cu", "embedding.cu", "optim.cu"}

// Source returns all kernels as one CUDA C translation unit, ready for
// NVRTC, and its name for messages.
func Source() (src, name string) {
	var b strings.Builder
	for _, f := range files {
		data, err := sources.ReadFile(f)
		if err != nil {
			panic(fmt.Sprintf("kernels: embedded %s missing: %v", f, err)) // the embed pattern above includes every file
		}
		fmt.Fprintf(&b, "// ---- %s ----\n", f)
		b.Write(data)
		b.WriteString("\n")
	}
	return b.String(), "storyeval_kernels.cu"
}

// Options returns NVRTC's options for a GPU of compute capability arch
// (10·major + minor, after cudalib.ChooseArch): PTX for that virtual
// architecture, no fused multiply-add contraction (see Numerics), C++17.
func Options(arch int) []string {
	return []string{fmt.Sprintf("--gpu-architecture=compute_%d", arch), "--fmad=false", "--std=c++17"}
}

// BlockSize is the number of threads of every row kernel (Kernel.Block):
// common.cuh's SE_BLOCK, which sizes their reductions.
const BlockSize = 256

// Param is the C type of a kernel parameter, as cudalib.Args packs it.
type Param byte

// The parameter types.
const (
	Ptr Param = 'p' // any T* (a device pointer)
	I32 Param = 'i' // int
	I64 Param = 'l' // long long
	U64 Param = 'u' // unsigned long long
	F32 Param = 'f' // float
	F64 Param = 'd' // double
)

// Kernel is one entry point of the sources.
type Kernel struct {
	Name string
	// Params are the C parameter types in order.
	Params []Param
	// RowBlocks: launched with one block of BlockSize threads per row;
	// otherwise any grid (a grid-stride loop or a thread per column).
	RowBlocks bool
}

// Activation codes of bias_act_f32 and act_backward_f32 (common.cuh's
// SE_ACT_*).
const (
	ActNone      = 0
	ActGELU      = 1 // erf GELU, HF "gelu"
	ActGELUTanh  = 2 // HF "gelu_new", "gelu_pytorch_tanh", "gelu_fast"
	ActQuickGELU = 3 // CLIP's "quick_gelu"
	ActReLU      = 4
	ActTanh      = 5
)

func sig(s string) []Param { return []Param(s) }

// Kernels lists every kernel the backend launches; a test checks that the
// sources define exactly these, with these parameter types.
var Kernels = []Kernel{
	{Name: "bias_act_f32", Params: sig("ppiii")},
	{Name: "bias_act_save_f32", Params: sig("pppiii")},
	{Name: "act_backward_f32", Params: sig("pppli")},
	{Name: "column_sums_f32", Params: sig("piip")},
	{Name: "layernorm_fwd_f32", Params: sig("ppppppiid"), RowBlocks: true},
	{Name: "layernorm_bwd_f32", Params: sig("pppppii"), RowBlocks: true},
	{Name: "layernorm_param_grad_f32", Params: sig("ppiipp")},
	{Name: "masked_softmax_f32", Params: sig("ppiiiiif"), RowBlocks: true},
	{Name: "softmax_bwd_f32", Params: sig("ppiif"), RowBlocks: true},
	{Name: "embed_sum_f32", Params: sig("ppppppiii")},
	{Name: "embed_sum_bwd_f32", Params: sig("pppppiiip")},
	{Name: "im2col_f32", Params: sig("ppiiii")},
	{Name: "vit_embed_f32", Params: sig("ppppiii")},
	{Name: "gather_rows_f32", Params: sig("pppii")},
	{Name: "embed_gather_f32", Params: sig("pppiiii")},
	{Name: "scatter_rows_f32", Params: sig("pppiii")},
	{Name: "split_heads_f32", Params: sig("ppiiii")},
	{Name: "merge_heads_f32", Params: sig("ppiiii")},
	{Name: "l2_normalize_f32", Params: sig("piif"), RowBlocks: true},
	{Name: "adam_f32", Params: sig("pppplfffffffffi")},
	{Name: "dropout_f32", Params: sig("pluuluf")},
	{Name: "scale_f32", Params: sig("plf")},
	{Name: "add_f32", Params: sig("ppl")},
	{Name: "axpy_f32", Params: sig("pplf")},
	{Name: "mul_f32", Params: sig("ppl")},
	{Name: "sum_f32", Params: sig("plp"), RowBlocks: true},   // one row: the whole input
	{Name: "sumsq_f32", Params: sig("plp"), RowBlocks: true}, // one row: the whole input
	{Name: "xent_f32", Params: sig("ppiidppp"), RowBlocks: true},
}
