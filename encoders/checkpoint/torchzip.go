package checkpoint

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// A torch.save zip archive (PyTorch ≥ 1.6) holds <prefix>/data.pkl, the
// pickled object, and <prefix>/data/<key>, one raw little-endian storage per
// key, all stored uncompressed (so the mapped file can be sliced directly).
// The prefix is not always "archive": torch 1.13 uses the file name without
// its last extension (pytorch_model for pytorch_model.bin,
// sop_model_epoch4.pth for sop_model_epoch4.pth.tar), so it is taken
// from wherever data.pkl is. Matches the reference implementation
// (torch.load), which reads the record prefix from the archive rather than
// assuming one.

func (o Options) parseTorchZip(data []byte) (*State, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("torch zip: %w", err)
	}
	files := make(map[string]*zip.File, len(zr.File))
	prefix := ""
	for _, f := range zr.File {
		files[f.Name] = f
		if dir, ok := strings.CutSuffix(f.Name, "/data.pkl"); ok && !strings.Contains(dir, "/") {
			if prefix != "" {
				return nil, fmt.Errorf("torch zip: two pickles, %s/data.pkl and %s", prefix, f.Name)
			}
			prefix = dir
		}
	}
	if prefix == "" {
		return nil, errors.New("torch zip: no <prefix>/data.pkl entry; not a torch.save archive")
	}
	if bo, ok := files[prefix+"/byteorder"]; ok {
		b, err := o.zipEntry(data, bo, 16, true)
		if err != nil {
			return nil, fmt.Errorf("torch zip: byteorder: %w", err)
		}
		if s := string(b); s != "little" {
			return nil, fmt.Errorf("torch zip: byteorder %q is not supported", s)
		}
	}
	// Compressed entries together may inflate to the budget only, so what
	// a file makes the reader allocate grows with the file.
	budget := o.inflateBudget(len(data))
	var inflated int64
	pklEntry := files[prefix+"/data.pkl"]
	pklLimit := o.MaxPickleBytes
	if pklEntry.Method != zip.Store {
		pklLimit = min(pklLimit, budget)
	}
	pkl, err := o.zipEntry(data, pklEntry, pklLimit, true)
	if err != nil {
		return nil, fmt.Errorf("torch zip: %s/data.pkl: %w", prefix, err)
	}
	if pklEntry.Method != zip.Store {
		inflated += int64(len(pkl))
	}
	tu := newTorchUnpickler(false)
	root, n, err := decodePickle(pkl, tu.resolve, tu.persistentLoad)
	if err != nil {
		return nil, fmt.Errorf("torch zip: %s/data.pkl: %w", prefix, err)
	}
	if n != len(pkl) {
		return nil, fmt.Errorf("torch zip: %s/data.pkl: %d trailing bytes", prefix, len(pkl)-n)
	}
	// Each storage is the entry data/<key>, at least numel elements long.
	storages := make(map[*storageRef][]byte)
	for _, sr := range tu.storages {
		if sr.base != nil {
			continue
		}
		f := files[prefix+"/data/"+sr.key]
		if f == nil {
			return nil, fmt.Errorf("torch zip: storage %q has no entry %s/data/%s", sr.key, prefix, sr.key)
		}
		need := sr.numel * int64(sr.dtype.Size())
		if f.Method != zip.Store {
			inflated += need
			if inflated > budget {
				return nil, fmt.Errorf("torch zip: compressed entries inflate beyond %d bytes, the limit for a %d-byte file (MaxDecompressedBytes %d, MaxExpansionRatio %d)",
					budget, len(data), o.MaxDecompressedBytes, o.MaxExpansionRatio)
			}
		}
		b, err := o.zipEntry(data, f, need, false)
		if err != nil {
			return nil, fmt.Errorf("torch zip: storage %q: %w", sr.key, err)
		}
		if int64(len(b)) < need {
			return nil, fmt.Errorf("torch zip: storage %q holds %d bytes, its %d %s elements need %d", sr.key, len(b), sr.numel, sr.dtype, need)
		}
		storages[sr] = b[:need]
	}
	st := newState(FormatTorchZip)
	if err := st.addPickled(root, storages, len(pkl)); err != nil {
		return nil, fmt.Errorf("torch zip: %w", err)
	}
	return st, nil
}

// zipEntry returns the bytes of f: a slice of data for a stored entry, else
// the inflated bytes. An entry declaring more than limit bytes is refused
// before anything is allocated; capStored applies the limit to stored
// entries too (they cost no allocation, but a pickle is decoded into memory).
func (o Options) zipEntry(data []byte, f *zip.File, limit int64, capStored bool) ([]byte, error) {
	if f.UncompressedSize64 > uint64(limit) && (capStored || f.Method != zip.Store) {
		return nil, fmt.Errorf("entry %s declares %d bytes, above the limit of %d", f.Name, f.UncompressedSize64, limit)
	}
	if f.Method == zip.Store {
		if f.CompressedSize64 != f.UncompressedSize64 {
			return nil, fmt.Errorf("stored entry %s has compressed size %d != size %d", f.Name, f.CompressedSize64, f.UncompressedSize64)
		}
		off, err := f.DataOffset()
		if err != nil {
			return nil, fmt.Errorf("entry %s: %w", f.Name, err)
		}
		if off < 0 || uint64(off) > uint64(len(data)) || f.UncompressedSize64 > uint64(len(data))-uint64(off) {
			return nil, fmt.Errorf("entry %s: data [%d, +%d) outside the %d-byte file", f.Name, off, f.UncompressedSize64, len(data))
		}
		return data[off : off+int64(f.UncompressedSize64)], nil
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("entry %s: %w", f.Name, err)
	}
	defer rc.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, io.LimitReader(rc, limit+1)); err != nil {
		return nil, fmt.Errorf("entry %s: %w", f.Name, err)
	}
	if int64(buf.Len()) > limit {
		return nil, fmt.Errorf("entry %s inflates beyond the limit of %d bytes", f.Name, limit)
	}
	return buf.Bytes(), nil
}
