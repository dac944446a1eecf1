package embcache

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// FileDigester digests files and folders for model identities:
// [ReadFiles] reads them every time; a [*Store] remembers the digests of
// unchanged files, so that a large checkpoint is read once, not on every
// run.
type FileDigester interface {
	DigestFile(path string) (Digest, error)
	DigestDir(dir string) (Digest, error)
}

// ReadFiles is the FileDigester that reads every file it digests.
type ReadFiles struct{}

// DigestFile implements FileDigester (see the package function).
func (ReadFiles) DigestFile(path string) (Digest, error) { return DigestFile(path) }

// DigestDir implements FileDigester (see the package function).
func (ReadFiles) DigestDir(dir string) (Digest, error) { return DigestDir(dir) }

// DigestDir returns the digest of the names and contents of the regular
// files directly in dir, in name order: the identity of a model folder
// (weights, config.json, preprocessor_config.json, vocabulary). Changing,
// adding or removing any of them changes it. Sub-folders are not read.
func DigestDir(dir string) (Digest, error) { return digestDir(dir, DigestFile) }

func digestDir(dir string, file func(string) (Digest, error)) (Digest, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return Digest{}, fmt.Errorf("embcache: digest: %w", err)
	}
	names := []string{}
	for _, e := range entries {
		if e.Type().IsRegular() || e.Type()&os.ModeSymlink != 0 {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	parts := make([]Digest, 0, 2*len(names))
	for _, n := range names {
		p := filepath.Join(dir, n)
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			continue // a dangling link or a link to a folder
		}
		d, err := file(p)
		if err != nil {
			return Digest{}, err
		}
		parts = append(parts, DigestBytes([]byte(n)), d)
	}
	return Join(parts...), nil
}

// racyWindow: a file modified or changed this close to the moment it is
// digested may still be being written within the same timestamp, so its
// digest is not remembered (git's "racy" entries).
const racyWindow = 2 * time.Second

// DigestDir is DigestDir with the digests of unchanged files remembered.
func (s *Store) DigestDir(dir string) (Digest, error) { return digestDir(dir, s.DigestFile) }

// DigestFile returns the digest of the file at path. The store remembers
// it against the file's absolute path, device, inode, size, modification
// and change times (as git's index does) and reads the file again only
// when one of those differs, or when the file was modified within two
// seconds of being digested. Remembered digests carry a checksum; one that
// fails is recomputed.
func (s *Store) DigestFile(path string) (Digest, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Digest{}, fmt.Errorf("embcache: digest: %w", err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return Digest{}, fmt.Errorf("embcache: digest: %w", err)
	}
	stamp, ok := fileStamp(fi)
	if !ok {
		return DigestFile(abs)
	}
	key := []byte(abs)
	var memo []byte
	if err := s.run(false, func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketFiles); b != nil {
			memo = append([]byte(nil), b.Get(key)...)
		}
		return nil
	}); err != nil {
		return Digest{}, fmt.Errorf("embcache: digest memo %s: %w", s.path, err)
	}
	if d, ok := decodeMemo(key, memo, stamp); ok {
		return d, nil
	}
	start := time.Now()
	d, err := DigestFile(abs)
	if err != nil {
		return Digest{}, err
	}
	s.n.filesRead.Add(1)
	after, err := os.Stat(abs)
	if err != nil {
		return Digest{}, fmt.Errorf("embcache: digest: %w", err)
	}
	if stamp2, _ := fileStamp(after); !bytes.Equal(stamp, stamp2) || s.racy(stamp, start) {
		return d, nil // changed while read, or too recent to trust
	}
	err = s.run(true, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketFiles)
		if err != nil {
			return err
		}
		return b.Put(key, encodeMemo(key, stamp, d))
	})
	if err != nil {
		return Digest{}, fmt.Errorf("embcache: digest memo %s: %w", s.path, err)
	}
	return d, nil
}

// racy reports whether a stamp's modification or change time is within
// the racy window of when its file was read.
func (s *Store) racy(stamp []byte, readAt time.Time) bool {
	window := racyWindow
	if s.racyWindow != nil {
		window = *s.racyWindow
	}
	limit := readAt.Add(-window).UnixNano()
	mtime, ctime := int64(binary.LittleEndian.Uint64(stamp[24:])), int64(binary.LittleEndian.Uint64(stamp[32:]))
	return mtime > limit || ctime > limit
}

func stampBytes(dev, ino, size uint64, mtime, ctime int64) []byte {
	b := make([]byte, 40)
	for i, v := range []uint64{dev, ino, size, uint64(mtime), uint64(ctime)} {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	return b
}

// A memo is the 40-byte stamp, the 32-byte digest and a CRC-32C over the
// path and both.
func encodeMemo(path, stamp []byte, d Digest) []byte {
	b := append(append(append([]byte(nil), stamp...), d[:]...), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(b[72:], memoCRC(path, b[:72]))
	return b
}

func decodeMemo(path, memo, stamp []byte) (Digest, bool) {
	var d Digest
	if len(memo) != 76 || !bytes.Equal(memo[:40], stamp) || binary.LittleEndian.Uint32(memo[72:]) != memoCRC(path, memo[:72]) {
		return d, false
	}
	copy(d[:], memo[40:72])
	return d, true
}

func memoCRC(path, body []byte) uint32 {
	return crc32.Update(crc32.Checksum(path, crcTable), crcTable, body)
}
