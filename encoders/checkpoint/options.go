package checkpoint

// Options bounds what a reader accepts from an untrusted file and selects the
// read path. The zero value gives the defaults documented on each field.
//
// Tensor data is never copied at open time: safetensors and torch zip files
// are memory-mapped, and the limits below bound everything the readers
// allocate from lengths found in the file, so a header that claims 10 GB is
// an error, not an allocation.
type Options struct {
	// MaxHeaderBytes bounds a safetensors JSON header (default 100 MiB, the
	// limit of the safetensors library itself).
	MaxHeaderBytes int64
	// MaxPickleBytes bounds a pickle (data.pkl, or the object part of a
	// legacy torch file) (default 64 MiB).
	MaxPickleBytes int64
	// MaxTensorElements bounds the elements of one tensor that Float32 or
	// Int64 allocates (default 1<<31). It matters for strided views, whose
	// size is not bounded by their storage (a stride of 0 repeats elements).
	MaxTensorElements int64
	// MaxDecompressedBytes bounds what is inflated from compressed zip
	// entries, which torch never writes but a re-zipped file may hold
	// (default 4 GiB, counted per file).
	MaxDecompressedBytes int64
	// MaxExpansionRatio bounds what a file makes the reader build by the
	// file's own size (default 64): compressed zip entries together inflate
	// to at most this many times the file (and 1 MiB at least), and a
	// strided view materialises at most this many times the elements its
	// storage holds (a stride of 0 repeats them). torch.save never writes
	// either kind of expansion, so real checkpoints stay far below it; a
	// small crafted file no longer reaches the absolute limits above.
	MaxExpansionRatio int64
	// NoMmap reads files into memory instead of mapping them.
	NoMmap bool
}

const (
	defaultMaxHeaderBytes       = 100 << 20
	defaultMaxPickleBytes       = 64 << 20
	defaultMaxTensorElements    = 1 << 31
	defaultMaxDecompressedBytes = 4 << 30
	defaultMaxExpansionRatio    = 64
	// minInflateBudget is what compressed entries may always inflate to,
	// whatever the file size.
	minInflateBudget = 1 << 20
)

func (o Options) withDefaults() Options {
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = defaultMaxHeaderBytes
	}
	if o.MaxPickleBytes <= 0 {
		o.MaxPickleBytes = defaultMaxPickleBytes
	}
	if o.MaxTensorElements <= 0 {
		o.MaxTensorElements = defaultMaxTensorElements
	}
	if o.MaxDecompressedBytes <= 0 {
		o.MaxDecompressedBytes = defaultMaxDecompressedBytes
	}
	if o.MaxExpansionRatio <= 0 {
		o.MaxExpansionRatio = defaultMaxExpansionRatio
	}
	return o
}

// inflateBudget is how many bytes the compressed entries of a file of
// size bytes may inflate to: MaxDecompressedBytes, and MaxExpansionRatio
// times the file (at least minInflateBudget).
func (o Options) inflateBudget(size int) int64 {
	if int64(size) > o.MaxDecompressedBytes/o.MaxExpansionRatio {
		return o.MaxDecompressedBytes
	}
	return min(o.MaxDecompressedBytes, max(minInflateBudget, o.MaxExpansionRatio*int64(size)))
}
