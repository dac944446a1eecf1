package checkpoint

import (
	"archive/zip"
	"bytes"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// Small crafted checkpoints that would make the reader build far more than
// they hold fail on MaxExpansionRatio before allocating: a zip whose
// deflated storage inflates to 64 MiB from about 64 KiB, and a 1-element
// storage viewed with stride 0 as 2^28 elements (1 GiB as float32). Both
// were within the absolute limits (4 GiB inflated, 2^31 elements).
func TestCheckpointBombsFailFastAndSmall(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
	const numel = 16 << 20
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "m/data.pkl", Method: zip.Store})
	w.Write(pklOneTensor(numel, numel))
	w, _ = zw.CreateHeader(&zip.FileHeader{Name: "m/data/0", Method: zip.Deflate})
	zeros := make([]byte, 1<<20)
	for range numel * 4 / len(zeros) {
		w.Write(zeros)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	deflated := writeTemp(t, buf.Bytes())

	stride0 := bytes.Replace(pklOneTensor(1, 1<<28), []byte("K\x01\x85\x89"), []byte("K\x00\x85\x89"), 1)
	repeated := writeTemp(t, torchZip(t, []zipEntrySpec{{name: "m/data.pkl", data: stride0}, {name: "m/data/0", data: float32LE(1)}}))

	for _, c := range []struct {
		name, path, want string
	}{
		{"deflated zeros", deflated, "inflate beyond"},
		{"stride-0 view", repeated, "repeats its 1 stored elements"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		st, err := Open(c.path)
		if err == nil {
			_, err = st.Float32("w")
			st.Close()
		}
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s (%d-byte file): error %v, want %q", c.name, len(buf.Bytes()), err, c.want)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
			t.Errorf("%s: %d MiB allocated before failing", c.name, alloc>>20)
		}
	}
	// With a larger ratio the same files are read: the bound is the ratio.
	lax := Options{MaxExpansionRatio: 1 << 30}
	st, err := lax.Open(deflated)
	if err != nil {
		t.Fatalf("deflated zeros with a lax ratio: %v", err)
	}
	st.Close()
}
