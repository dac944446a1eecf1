// Package jsonfloat writes float64 values as storyeval's outputs do:
// shortest round-trip form, null in JSON (NaN in CSV) when undefined.
package jsonfloat

import (
	"math"
	"strconv"
)

// Float is a float64 that marshals in shortest round-trip form
// (strconv.FormatFloat(x, 'g', -1, 64)) and as null when NaN or infinite,
// since JSON has no literal for them.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	return []byte(strconv.FormatFloat(x, 'g', -1, 64)), nil
}

// Ptr returns a pointer to x as a Float, for optional members.
func Ptr(x float64) *Float { f := Float(x); return &f }

// CSV formats x for a CSV cell: shortest round-trip form, "NaN" when NaN.
func CSV(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}
