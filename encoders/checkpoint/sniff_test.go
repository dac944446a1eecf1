package checkpoint

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A safetensors header of 128 bytes starts the file with 0x80, the pickle
// PROTO opcode; the file must still open as safetensors.
func TestSafetensorsWhoseHeaderLengthStartsLikeAPickle(t *testing.T) {
	header := `{"t":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`
	header += strings.Repeat(" ", 128-len(header))
	data := make([]byte, 8, 8+128+4)
	binary.LittleEndian.PutUint64(data, uint64(len(header)))
	data = append(data, header...)
	data = append(data, 0, 0, 0x80, 0x3f) // 1.0f
	if data[0] != opProto {
		t.Fatalf("first byte %#x, want the PROTO opcode", data[0])
	}
	path := filepath.Join(t.TempDir(), "model.safetensors")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	buf := make([]float32, 1)
	if err := st.ReadFloat32("t", buf); err != nil || buf[0] != 1 {
		t.Fatalf("t = %v, %v", buf, err)
	}
}
