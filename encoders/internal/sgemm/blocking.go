package sgemm

// Cache blocking. A micro-kernel computes an mr×nr tile of C from an mr-row
// sliver of packed A and an nr-column sliver of packed B; a kc-deep B sliver
// (16 or 32 KiB) stays in L1, an mc×kc block of packed A (192 KiB) in L2 and
// a kc×nc panel of packed B (3 MiB) in L3, as in GotoBLAS/BLIS. mc and nc
// are multiples of every kernel's mr and nr.
const (
	kc = 256
	mc = 192
	nc = 3072
	// maxTile is the largest mr·nr of the micro-kernels.
	maxTile = 12 * 32
)

// parallelMinWork is the m·n·k below which a product runs on the calling
// goroutine only: below it, starting goroutines costs more than it saves,
// and small products (such as the 128×64·64×128 per-head attention scores)
// are usually already issued from several goroutines at once.
const parallelMinWork = 1 << 23

// minColumnsPerWorker and minRowsPerWorker keep parallel pieces large enough
// that packing the shared operand again in every worker stays cheap.
const (
	minColumnsPerWorker = 128
	minRowsPerWorker    = 96
)
