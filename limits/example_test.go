package limits_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/storyeval/storyeval/limits"
)

// A reader bounds its input with the caller's Limits (zero: its own
// default) and fails with a TooLargeError, which a caller that trusts the
// input can act on.
func ExampleTooLargeError() {
	const readerDefault = 1 << 20
	l := limits.Limits{MaxBytes: 8}
	r := limits.NewReader(strings.NewReader("a story longer than eight bytes"), "stories.json", l.Bytes(readerDefault))
	_, err := io.ReadAll(r)
	var tl *limits.TooLargeError
	if errors.As(err, &tl) {
		fmt.Println(err)
		fmt.Println("retry with MaxBytes >", tl.Limit)
	}
	// Output:
	// stories.json: more than 8 bytes
	// retry with MaxBytes > 8
}
