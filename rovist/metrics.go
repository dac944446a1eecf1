package rovist

import (
	"fmt"
	"strings"
)

// ParseMetrics reads a comma-separated list of RoViST's metric names (vg,
// c, nr; any case, spaces around a name ignored) as the metrics to
// compute. An unknown name is an error that quotes it.
func ParseMetrics(s string) (Computed, error) {
	var m Computed
	for _, name := range strings.Split(s, ",") {
		switch name = strings.ToLower(strings.TrimSpace(name)); name {
		case "vg":
			m.VG = true
		case "c":
			m.C = true
		case "nr":
			m.NR = true
		default:
			return Computed{}, fmt.Errorf("unknown metric %q (want vg, c, nr)", name)
		}
	}
	return m, nil
}
