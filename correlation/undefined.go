package correlation

import "fmt"

// UndefinedError reports a statistic that its input leaves undefined, such
// as a correlation with a constant series. A caller comparing metrics can
// report the statistic as undefined (null) rather than fail the run.
type UndefinedError struct {
	// What names the statistic ("the correlation of human and metric A").
	What string
	// Why says what about the input leaves it undefined.
	Why string
}

// Error says what is undefined and why.
func (e *UndefinedError) Error() string {
	return fmt.Sprintf("%s is undefined (%s)", e.What, e.Why)
}
