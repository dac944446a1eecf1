package main

// inBackground starts f(x) on a goroutine of its own when run is true and
// returns a function that waits for its result (the zero value when run
// is false).
func inBackground[X, T any](run bool, f func(X) T, x X) func() T {
	if !run {
		return func() (zero T) { return }
	}
	done := make(chan T, 1)
	go func() { done <- f(x) }()
	return func() T { return <-done }
}
