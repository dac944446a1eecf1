package embcache

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
)

// FormatVersion is the version of the key derivation, the value encoding
// and the file's bookkeeping. It is hashed into every key and written into
// the file, so that a store of another version is rebuilt rather than
// misread. Version 2 put the kind of embedding into the key's first byte
// and the entry and byte counts by kind into the file.
const FormatVersion = 2

// Digest is a SHA-256 digest of some content: a checkpoint file, a crop's
// source image, a tokenizer's vocabulary.
type Digest [32]byte

// String returns the digest in hex.
func (d Digest) String() string { return hex.EncodeToString(d[:]) }

// DigestBytes returns the SHA-256 digest of b.
func DigestBytes(b []byte) Digest { return sha256.Sum256(b) }

// DigestReader returns the SHA-256 digest of everything r yields.
func DigestReader(r io.Reader) (Digest, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return Digest{}, err
	}
	var d Digest
	h.Sum(d[:0])
	return d, nil
}

// DigestFile returns the SHA-256 digest of the file at path, e.g. a
// checkpoint: computed once per model load, it identifies the weights.
func DigestFile(path string) (Digest, error) {
	f, err := os.Open(path)
	if err != nil {
		return Digest{}, fmt.Errorf("embcache: digest: %w", err)
	}
	defer f.Close()
	d, err := DigestReader(f)
	if err != nil {
		return Digest{}, fmt.Errorf("embcache: digest %s: %w", path, err)
	}
	return d, nil
}

// Key addresses one embedding in a [Store]: its [Kind], then the first 31
// bytes of the SHA-256 digest of everything the embedding depends on.
type Key [32]byte

// String returns the key in hex.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Kind returns what the key's embedding is of: KindImage for [ImageKey],
// KindText for [TextKey], another value for a key made otherwise.
func (k Key) Kind() Kind { return Kind(k[0]) }

// Kind is what an embedding is of. A [Store] counts its entries, bytes,
// hits and misses by kind.
type Kind byte

// The kinds of [ImageKey] and [TextKey].
const (
	KindImage Kind = 'i'
	KindText  Kind = 't'
)

// String returns "image", "text" or "other".
func (k Kind) String() string {
	switch k {
	case KindImage:
		return "image"
	case KindText:
		return "text"
	}
	return "other"
}

// ImageInput is what an image embedding depends on.
type ImageInput struct {
	// Model identifies the weights, e.g. DigestFile of the checkpoint.
	Model Digest
	// Preprocess describes the preprocessing configuration (resize,
	// crop, mean and std, resampling): any change must change it.
	Preprocess string
	// Source is the digest of the crop's source image bytes.
	Source Digest
	// Region says how the pixels are taken from the source: the crop's
	// box, the decoding options; "" for the whole image decoded by
	// default.
	Region string
}

// TextInput is what a text embedding depends on.
type TextInput struct {
	// Model identifies the weights, e.g. DigestFile of the checkpoint.
	Model Digest
	// Tokenizer identifies the tokenization and what is kept of the
	// encoder's output: the tokenizer's settings (context length,
	// truncation, prompt) and, when IDs is nil, its vocabulary.
	Tokenizer string
	// Text is the text as given to the tokenizer.
	Text string
	// IDs are the token ids the text became, padding included: with them
	// in the key, a tokenizer whose files changed misses exactly the
	// texts it now encodes otherwise.
	IDs []int
}

// ImageKey returns the key of the embedding of in.
func ImageKey(in ImageInput) Key {
	kh := newKeyHash("image")
	kh.bytes(in.Model[:])
	kh.bytes([]byte(in.Preprocess))
	kh.bytes(in.Source[:])
	kh.bytes([]byte(in.Region))
	return kh.sum(KindImage)
}

// TextKey returns the key of the embedding of in.
func TextKey(in TextInput) Key {
	kh := newKeyHash("text")
	kh.bytes(in.Model[:])
	kh.bytes([]byte(in.Tokenizer))
	kh.bytes([]byte(in.Text))
	kh.int(int64(len(in.IDs)))
	for _, id := range in.IDs {
		kh.int(int64(id))
	}
	return kh.sum(KindText)
}

// keyHash hashes length-prefixed fields, so that no two different field
// lists hash the same bytes ("ab","c" versus "a","bc").
type keyHash struct{ h hash.Hash }

func newKeyHash(kind string) keyHash {
	kh := keyHash{sha256.New()}
	kh.int(FormatVersion)
	kh.bytes([]byte("storyeval-embcache"))
	kh.bytes([]byte(kind))
	return kh
}

func (kh keyHash) int(v int64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	kh.h.Write(b[:])
}

func (kh keyHash) bytes(b []byte) {
	kh.int(int64(len(b)))
	kh.h.Write(b)
}

// sum returns the key: kind, then the digest's first 31 bytes (248 bits
// leave collisions out of reach as 256 would).
func (kh keyHash) sum(kind Kind) Key {
	var d [sha256.Size]byte
	kh.h.Sum(d[:0])
	var k Key
	k[0] = byte(kind)
	copy(k[1:], d[:])
	return k
}
