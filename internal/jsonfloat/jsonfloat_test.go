package jsonfloat

import (
	"encoding/json"
	"math"
	"testing"
)

func TestFloat(t *testing.T) {
	for _, c := range []struct {
		x         float64
		json, csv string
	}{
		{0.1, "0.1", "0.1"},
		{1.0 / 3, "0.3333333333333333", "0.3333333333333333"},
		{1e-7, "1e-07", "1e-07"},
		{math.Copysign(0, -1), "-0", "-0"},
		{math.NaN(), "null", "NaN"},
		{math.Inf(1), "null", "+Inf"},
	} {
		b, err := json.Marshal(struct{ X *Float }{Ptr(c.x)})
		if err != nil || string(b) != `{"X":`+c.json+`}` {
			t.Errorf("%v: JSON %s %v, want %s", c.x, b, err, c.json)
		}
		if got := CSV(c.x); got != c.csv {
			t.Errorf("%v: CSV %q, want %q", c.x, got, c.csv)
		}
	}
}
