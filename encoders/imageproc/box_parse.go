package imageproc

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseBox reads a region "left,top,right,bottom" (floats), optionally in
// brackets or parentheses as region CSVs write it ("[62.0, 62.0, 126.0,
// 94.0]"); the error quotes s.
func ParseBox(s string) (Box, error) {
	parts := strings.Split(strings.Trim(strings.TrimSpace(s), "[]()"), ",")
	if len(parts) != 4 {
		return Box{}, fmt.Errorf("%q: want 4 comma-separated numbers", s)
	}
	var v [4]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return Box{}, fmt.Errorf("%q: %w", s, err)
		}
		v[i] = f
	}
	return Box{Left: v[0], Top: v[1], Right: v[2], Bottom: v[3]}, nil
}
