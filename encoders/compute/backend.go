package compute

// Tensor is a buffer of float32 values owned by a Backend: on the CPU a
// host slice, on a device a device allocation. Only the backend that made
// a tensor may read it or pass it to its operations; the host sees its
// values through Backend.Download.
type Tensor interface {
	// Len is the number of float32 values the buffer holds.
	Len() int
}

// Backend runs the operations of the transformer encoders on tensors it
// owns. Matrices are row-major; every operation works on whole batches so
// that a device backend launches one kernel (or one batched call) per
// operation, with no host round trip between the operations of a layer.
// Integer inputs (token ids, masks) are small host slices that a device
// backend uploads with the call.
//
// Implementations must be safe for concurrent use by several forward
// passes (each with its own tensors). Operations on the CPU backend run
// synchronously; a device backend may queue them, as long as Download
// returns the values of every operation queued before it.
type Backend interface {
	// Name identifies the backend in reports ("cpu/sgemm", "cpu/openblas").
	Name() string

	// Alloc returns a zeroed tensor of n values.
	Alloc(n int) Tensor
	// Upload copies host values into a new tensor.
	Upload(data []float32) Tensor
	// Download copies the first len(dst) values of t to the host.
	Download(dst []float32, t Tensor)
	// Slice returns the values lo..hi of t as a tensor sharing t's storage.
	Slice(t Tensor, lo, hi int) Tensor
	// Free releases t's storage (a no-op on the CPU, where the garbage
	// collector does it); t must not be used afterwards.
	Free(t Tensor)

	// Gemm computes c = alpha·op(a)·op(b) + beta·c for an m×k op(a) and a
	// k×n op(b), with leading dimensions lda, ldb, ldc (BLAS sgemm in
	// row-major order).
	Gemm(transA, transB bool, m, n, k int, alpha float32, a Tensor, lda int, b Tensor, ldb int, beta float32, c Tensor, ldc int)
	// BiasAct adds bias (width values, or nil) to every row of width
	// values of x and applies act, in place.
	BiasAct(x, bias Tensor, width int, act Activation)
	// Add adds x to dst element-wise (residual connections).
	Add(dst, x Tensor)
	// LayerNorm normalises each row of width values of x into dst (which
	// may be x): torch.nn.LayerNorm's biased variance, sums in float64.
	LayerNorm(dst, x, gamma, beta Tensor, width int, eps float64)
	// Attention is fused multi-head scaled dot-product attention:
	// dst = softmax(q·kᵀ·scale + mask)·v for every (sequence, head), with
	// q, k, v and dst [batch·seq, heads·headDim] and masked keys given
	// weight exactly 0.
	Attention(dst, q, k, v Tensor, s AttentionShape, mask Mask)
	// Embed writes, for every row r of dst (width values),
	// Σ tables[i][ids[i][r]] — the sum of rows gathered from each table;
	// a nil ids[i] gathers row r mod period[i] (absolute positions), or
	// row r itself when period[i] is 0 (dst may then be that table).
	Embed(dst Tensor, width int, tables []Tensor, ids [][]int, period []int)
	// Rows copies rows of width values: dst row i = src row idx[i], and a
	// negative idx[i] leaves dst row i as it is (pooling the [CLS] or
	// end-of-text token, MLM positions, placing ViT's class token).
	Rows(dst, src Tensor, width int, idx []int)
	// Normalize scales each row of width values to unit L2 norm (norm
	// summed in float64).
	Normalize(x Tensor, width int)
}

// AttentionShape is the geometry of one Attention call.
type AttentionShape struct {
	Batch, Seq, Heads, HeadDim int
	// Scale multiplies the scores (1/√HeadDim).
	Scale float32
	// Queries is the number of query rows of each sequence, its first ones
	// (TrainBackend.AttentionSave: a last layer that computes only the
	// [CLS] rows); 0 means Seq. Attention itself takes 0 or Seq only.
	Queries int
}

// QueryRows returns Queries, or Seq when it is 0.
func (s AttentionShape) QueryRows() int {
	if s.Queries == 0 {
		return s.Seq
	}
	return s.Queries
}

// Mask says which keys a query may attend to.
type Mask struct {
	// KeyValid[b·Seq+j] is false for padding; nil: every key is valid.
	KeyValid []bool
	// Causal hides the keys after the query (CLIP's text tower).
	Causal bool
}

// Adopter is implemented by backends that can take over a host slice the
// caller will not touch again without copying it (the CPU backend), which
// halves the memory a model needs while its weights load.
type Adopter interface {
	Adopt(data []float32) Tensor
}

// Adopt hands data to b: without a copy where b is an Adopter, otherwise
// through Upload.
func Adopt(b Backend, data []float32) Tensor {
	if a, ok := b.(Adopter); ok {
		return a.Adopt(data)
	}
	return b.Upload(data)
}
