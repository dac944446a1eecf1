//go:build unix

package checkpoint

import (
	"errors"
	"testing"
)

// TestCloseDropsMappedViews checks that Close leaves no entry — of the
// State or of a Sub view, which share entries — holding a slice into the
// unmapped file, and that reads then fail with ErrClosed rather than
// touching it (issue 21: a slice kept over a released range becomes a
// "bad pointer" once the Go heap maps an arena there).
func TestCloseDropsMappedViews(t *testing.T) {
	path, name := fixtureSafetensors(t)
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	sub := st.Sub("")
	mapped := 0
	for _, e := range st.tensors {
		if e.mapped {
			mapped++
		}
	}
	if mapped != len(st.tensors) {
		t.Fatalf("%d of %d tensors of %s marked as mapped, want all", mapped, len(st.tensors), path)
	}
	if _, err := sub.Float32(name); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for n, e := range sub.tensors {
		if e.data != nil {
			t.Errorf("after Close, %s still holds %d bytes of the unmapped file", n, len(e.data))
		}
	}
	if _, err := sub.Float32(name); !errors.Is(err, ErrClosed) {
		t.Errorf("Float32 after Close: %v, want ErrClosed", err)
	}
	info, _ := sub.Info(name)
	if err := sub.ReadFloat32(name, make([]float32, numElements(info.Shape))); !errors.Is(err, ErrClosed) {
		t.Errorf("ReadFloat32 after Close: %v, want ErrClosed", err)
	}
}
