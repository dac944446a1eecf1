package sgemm

// Cache blocking. A micro-kernel computes an mr×nr tile of C from an mr-row
// sliver of packed A and an nr-column sliver of packed B; a kc-deep B sliver
// (12 or 24 KiB) and an A sliver stay in L1 (48 KiB here), an mc×kc block of
// packed A (288 KiB) in L2 (2 MiB) and a kc×nc panel of packed B (2.3 MiB)
// in L3, as in GotoBLAS/BLIS. mc and nc are multiples of every kernel's mr
// and nr. kc = 192 and mc = 384 were the best of kc ∈ {128, 160, 192, 256,
// 384} and mc ∈ {192, 384, 576} on this machine's Xeon, by a margin
// smaller than the noise of its load.
const (
	kc = 192
	mc = 384
	nc = 3072
	// maxTile is the largest mr·nr of the micro-kernels.
	maxTile = 12 * 32
)

// parallelMinWork is the m·n·k below which a product runs on the calling
// goroutine only: below it, starting goroutines costs more than it saves,
// and small products (such as the 128×64·64×128 per-head attention scores)
// are usually already issued from several goroutines at once.
const parallelMinWork = 1 << 23

// taskRows and taskColumns are the size of the pieces of C that the
// goroutines of a parallel product take one after another: small enough
// that a goroutine slowed down by other load on the machine leaves the rest
// to the others (even 128×768 gives six pieces), large enough that a piece
// is hundreds of micro-kernel calls. Multiples of every kernel's mr and nr.
const (
	taskRows    = 96
	taskColumns = 256
)
