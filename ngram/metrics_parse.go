package ngram

import (
	"fmt"
	"slices"
	"strings"
)

// ParseMetrics reads a comma-separated list of metric names (see
// Metrics), in any case and with spaces around them, into the names
// Evaluate takes, each once, in the list's order. An unknown name is an
// error that lists the available ones.
func ParseMetrics(list string) ([]string, error) {
	var names []string
	for _, m := range strings.Split(list, ",") {
		m = strings.TrimSpace(strings.ToLower(m))
		if !slices.Contains(Metrics(), m) {
			return nil, fmt.Errorf("unknown metric %q (available: %s)", m, strings.Join(Metrics(), ", "))
		}
		if !slices.Contains(names, m) {
			names = append(names, m)
		}
	}
	return names, nil
}
