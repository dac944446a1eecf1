package cuda

import (
	"strings"
	"testing"
)

func TestParseDevice(t *testing.T) {
	for _, c := range []struct {
		in    string
		cuda  bool
		index int
	}{{"cpu", false, 0}, {"cuda", true, 0}, {"cuda:0", true, 0}, {"cuda:3", true, 3}} {
		cuda, index, err := ParseDevice(c.in)
		if err != nil || cuda != c.cuda || index != c.index {
			t.Errorf("%q: %v %d %v; want %v %d", c.in, cuda, index, err, c.cuda, c.index)
		}
	}
	for _, in := range []string{"", "gpu", "cuda:", "cuda:-1", "cuda:x", "CUDA", "cuda:1:2", strings.Repeat("x", 100)} {
		_, _, err := ParseDevice(in)
		if err == nil || !strings.Contains(err.Error(), "want cpu, cuda or cuda:N") || len(err.Error()) > 120 {
			t.Errorf("%q: error %v, want a short one naming the choices", in, err)
		}
	}
}
