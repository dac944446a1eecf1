// Package embcache is a persistent, content-addressed store of encoder
// embeddings, so that scoring a new system over images already scored
// costs only its text: the region crops of the VIST test images go
// through ViT-B/16 or CLIP once, and later runs read the vectors back.
//
// None of the reference implementations keeps anything between runs; the
// store is an addition and changes no number: a value is the float32
// vector exactly as the encoder computed it, written and read back bit for
// bit.
//
// # Keys
//
// A [Key] is the SHA-256 digest of everything the vector depends on — the
// model weights (a [Digest] of the checkpoint, computed once per model
// load), the preprocessing configuration, the crop's source bytes and box
// (or the text and the tokenizer) — and of the store's format version, so
// a different checkpoint, preprocessor, crop file or format never reuses
// an entry. See [ImageKey] and [TextKey].
//
// # File
//
// The store is one file (a bbolt database, see go.etcd.io/bbolt), which a
// user can copy between machines: warm it on a GPU machine, score on a
// laptop. Writes are transactions on copy-on-write pages with an fsync per
// commit, so a crash leaves the last committed state. Each value carries a
// CRC-32C over its key and bytes, and the file carries the format version.
//
// [Open] is fast whatever the size: it checks what a few pages say —
// bbolt's checksummed meta pages, the file's size against them (a
// truncated file), the format tag and the counts. The rest is checked as
// it is read: a value that fails its checksum is a miss, never numbers,
// and that, or a page that does not identify itself as the page its parent
// points to, runs the full check (every page, every value, the use index
// and the counts; [Options.Verify] runs it at Open). A store that fails a
// check (truncated, a flipped byte, another version's store, not a store
// at all) is moved aside to PATH.corrupt-TIME and replaced by an empty one
// ([Store.Rebuilt] says why). bbolt trusts the offsets and lengths in its
// pages' element headers; damage there is beyond what the store can
// detect before bbolt reads through it.
//
// Entries, bytes, hits and misses are counted by [Kind] (image or text
// embeddings; [Store.Stats]); the file keeps the counts, so Stats reads
// them rather than every page.
//
// # Concurrency
//
// A [Store] is safe for concurrent use by goroutines. Across processes the
// file is locked (flock) for as long as a Store is open: a second process
// waits up to [Options.LockTimeout] and then gets an error wrapping
// [ErrLocked], so a command can go on without the cache rather than share
// a file two writers would corrupt.
//
// # Size
//
// [Options.MaxBytes] caps the bytes of keys and values; a write that
// passes the cap evicts the least recently used entries (a read counts as
// a use). Freed pages are reused by later writes; the file does not
// shrink.
package embcache
