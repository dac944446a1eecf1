package cuda

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseDevice reads a -device flag's value: "cpu" (cuda false), "cuda"
// (GPU 0) or "cuda:N". Anything else is an error naming the value.
func ParseDevice(s string) (cuda bool, index int, err error) {
	switch {
	case s == "cpu":
		return false, 0, nil
	case s == "cuda":
		return true, 0, nil
	case strings.HasPrefix(s, "cuda:"):
		n, err := strconv.Atoi(strings.TrimPrefix(s, "cuda:"))
		if err == nil && n >= 0 {
			return true, n, nil
		}
	}
	return false, 0, fmt.Errorf("device %q: want cpu, cuda or cuda:N (N the GPU's index, from 0)", truncate(s, 40))
}

// truncate shortens user input quoted in an error.
func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
