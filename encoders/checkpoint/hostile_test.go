package checkpoint

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/dense"
)

// Hostile inputs: every case must be an error naming the problem, and none
// may allocate what the file claims (a 10 GB header is refused by size).

func writeTemp(t testing.TB, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ckpt")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func safetensorsBytes(header string, body []byte) []byte {
	b := make([]byte, 8, 8+len(header)+len(body))
	binary.LittleEndian.PutUint64(b, uint64(len(header)))
	b = append(b, header...)
	return append(b, body...)
}

func TestSafetensorsHostile(t *testing.T) {
	tenGB := make([]byte, 9)
	binary.LittleEndian.PutUint64(tenGB, 10<<30)
	tenGB[8] = '{'
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"header claims 10 GB", append(tenGB, "{}"...), "exceeds the limit"},
		{"bad JSON", safetensorsBytes(`{"a":`, nil), "header JSON"},
		{"unknown dtype", safetensorsBytes(`{"a":{"dtype":"F8_E4M3","shape":[1],"data_offsets":[0,1]}}`, []byte{0}), "unsupported dtype"},
		{"offsets past the end", safetensorsBytes(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, []byte{0, 0}), "outside"},
		{"size mismatch", safetensorsBytes(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}`, make([]byte, 4)), "needs 8 bytes"},
		{"shape overflow", safetensorsBytes(`{"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}}`, make([]byte, 4)), "invalid shape"},
		{"negative dim", safetensorsBytes(`{"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}}`, make([]byte, 4)), "invalid shape"},
		{"reversed offsets", safetensorsBytes(`{"a":{"dtype":"F32","shape":[0],"data_offsets":[4,0]}}`, make([]byte, 4)), "outside"},
		{"too short", []byte("abc"), "not a safetensors"},
	}
	for _, c := range cases {
		_, err := Open(writeTemp(t, c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	// Within the file but above the configured header limit.
	data := safetensorsBytes(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, make([]byte, 4))
	if _, err := (Options{MaxHeaderBytes: 16}).Open(writeTemp(t, data)); err == nil || !strings.Contains(err.Error(), "exceeds the limit") {
		t.Errorf("header limit: %v", err)
	}
}

// torchZip builds a torch zip archive with a raw (possibly lying) header for
// each entry.
func torchZip(t testing.TB, entries []zipEntrySpec) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		size := uint64(len(e.data))
		if e.claim != 0 {
			size = e.claim
		}
		w, err := zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: zip.Store, CompressedSize64: size, UncompressedSize64: size})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(e.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type zipEntrySpec struct {
	name  string
	data  []byte
	claim uint64 // declared size when non-zero
}

// pklOneTensor is the pickle torch.save writes for
// {"w": tensor(storage key "0", FloatStorage of numel, size (n,), stride (1,))}.
func pklOneTensor(numel, n uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x80\x02}X\x01\x00\x00\x00wctorch._utils\n_rebuild_tensor_v2\n(")
	b.WriteString("(X\x07\x00\x00\x00storagectorch\nFloatStorage\nX\x01\x00\x00\x000X\x03\x00\x00\x00cpuJ")
	binary.Write(&b, binary.LittleEndian, numel)
	b.WriteString("tQK\x00J")
	binary.Write(&b, binary.LittleEndian, n)
	b.WriteString("\x85K\x01\x85\x89ccollections\nOrderedDict\n)RtRs.")
	return b.Bytes()
}

func TestTorchZipHostile(t *testing.T) {
	good := torchZip(t, []zipEntrySpec{{name: "m/data.pkl", data: pklOneTensor(2, 2)}, {name: "m/data/0", data: float32LE(1.5, -2)}})
	st, err := Open(writeTemp(t, good))
	if err != nil {
		t.Fatalf("well-formed archive: %v", err)
	}
	w, err := st.Float32("w")
	if err != nil || dense.Data(w).([]float32)[1] != -2 {
		t.Fatalf("w = %v, %v", w, err)
	}
	st.Close()

	cases := []struct {
		name    string
		entries []zipEntrySpec
		want    string
	}{
		{"data.pkl claims 10 GB", []zipEntrySpec{{name: "m/data.pkl", data: pklOneTensor(2, 2), claim: 10 << 30}}, "above the limit"},
		{"storage claims 10 GB", []zipEntrySpec{{name: "m/data.pkl", data: pklOneTensor(2, 2)}, {name: "m/data/0", data: float32LE(1, 2), claim: 10 << 30}}, "outside"},
		{"storage declares 1e9 elements", []zipEntrySpec{{name: "m/data.pkl", data: pklOneTensor(1e9, 2)}, {name: "m/data/0", data: float32LE(1, 2)}}, "need 4000000000"},
		{"view past the storage", []zipEntrySpec{{name: "m/data.pkl", data: pklOneTensor(2, 3)}, {name: "m/data/0", data: float32LE(1, 2)}}, "needs 3 elements"},
		{"missing storage", []zipEntrySpec{{name: "m/data.pkl", data: pklOneTensor(2, 2)}}, "no entry m/data/0"},
		{"no data.pkl", []zipEntrySpec{{name: "m/other", data: []byte("x")}}, "no <prefix>/data.pkl"},
		{"big-endian", []zipEntrySpec{{name: "m/data.pkl", data: pklOneTensor(2, 2)}, {name: "m/byteorder", data: []byte("big")}}, "byteorder"},
	}
	for _, c := range cases {
		_, err := Open(writeTemp(t, torchZip(t, c.entries)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

func TestTorchLegacyHostile(t *testing.T) {
	good, err := os.ReadFile("testdata/torch_legacy_views.pt")
	if err != nil {
		t.Fatal(err)
	}
	// Every truncation of a valid legacy file is an error, never a panic.
	o := Options{}.withDefaults()
	for n := 0; n < len(good); n++ {
		if _, err := o.parse("truncated", good[:n]); err == nil {
			t.Errorf("truncated to %d bytes: opened", n)
		}
	}
	// A plain pickle is not a torch checkpoint.
	if _, err := Open(writeTemp(t, []byte("\x80\x02}q\x00."))); err == nil || !strings.Contains(err.Error(), "magic number") {
		t.Errorf("plain pickle: %v", err)
	}
}

func TestReadLimits(t *testing.T) {
	st := mustOpen(t, "testdata/torch_zip_views.pt")
	lim, err := Options{MaxTensorElements: 5}.Open("testdata/torch_zip_views.pt")
	if err != nil {
		t.Fatal(err)
	}
	defer lim.Close()
	if _, err := lim.Float32("model.dense.weight"); err == nil || !strings.Contains(err.Error(), "above the limit") {
		t.Errorf("12 elements with a limit of 5: %v", err)
	}
	if _, err := st.Int64("model.dense.weight"); err == nil || !strings.Contains(err.Error(), "not integer") {
		t.Errorf("Int64 of F32: %v", err)
	}
	if _, err := st.Float32("model.position_ids"); err == nil || !strings.Contains(err.Error(), "not floating point") {
		t.Errorf("Float32 of I64: %v", err)
	}
	if _, err := st.Float32("no.such"); err == nil || !strings.Contains(err.Error(), "no tensor named") {
		t.Errorf("missing name: %v", err)
	}
	dst := make([]float32, 11)
	if err := st.ReadFloat32("model.dense.weight", dst); err == nil {
		t.Error("ReadFloat32 into a short buffer succeeded")
	}
	dst = make([]float32, 12)
	if err := st.ReadFloat32("model.dense.weight_t", dst); err != nil || dst[1] != 1.5 || dst[3] != -1.5 {
		t.Errorf("ReadFloat32 of the transpose: %v %v", dst[:4], err)
	}
}

// TestTorchGlobalsAllowList pins the allow-list: storage classes (also the
// torch.cuda ones of GPU-saved legacy files) and rebuild functions resolve,
// anything else stays an inert name.
func TestTorchGlobalsAllowList(t *testing.T) {
	tu := newTorchUnpickler(true)
	cases := []struct {
		module, name string
		want         string
	}{
		{"torch", "FloatStorage", "storage F32"},
		{"torch.cuda", "HalfStorage", "storage F16"},
		{"torch", "BFloat16Storage", "storage BF16"},
		{"torch._utils", "_rebuild_tensor_v2", "torch._utils._rebuild_tensor_v2"},
		{"torch._utils", "_rebuild_parameter", "torch._utils._rebuild_parameter"},
		{"collections", "OrderedDict", "collections.OrderedDict"},
		{"torch", "load", "global torch.load"},
		{"os", "system", "global os.system"},
		{"builtins", "eval", "global builtins.eval"},
	}
	for _, c := range cases {
		var got string
		switch v := tu.resolve(c.module, c.name).(type) {
		case storageType:
			got = "storage " + v.dtype.String()
		case callable:
			got = v.name
		case Global:
			got = "global " + v.String()
		}
		if got != c.want {
			t.Errorf("%s.%s resolved to %q, want %q", c.module, c.name, got, c.want)
		}
	}
}
