package compute

import "errors"

// ErrOutOfMemory is matched (errors.Is) by a backend's error when an
// allocation failed for lack of device memory: the caller may retry with a
// smaller batch (after ResetErr).
var ErrOutOfMemory = errors.New("out of device memory")

// Failer is implemented by backends whose operations can fail (a GPU: out
// of memory, a failed launch). Backend's operations return no error, so
// such a backend keeps the first failure, does nothing after it, and
// reports it here; the encoders check it after every forward pass and
// after uploading a model's weights.
type Failer interface {
	// Err returns the first failure kept, or nil.
	Err() error
}

// ErrResetter is implemented by Failers that can forget a kept failure so
// that the backend runs operations again (a retry with a smaller batch
// after ErrOutOfMemory); tensors written by the failed operations hold
// unspecified values.
type ErrResetter interface {
	// ResetErr clears the kept failure and returns it.
	ResetErr() error
}

// Err returns the failure b keeps, or nil when there is none or b keeps
// none (the CPU backend, whose operations cannot fail).
func Err(b Backend) error {
	if f, ok := b.(Failer); ok {
		return f.Err()
	}
	return nil
}

// ResetErr clears the failure b keeps, where b can (ErrResetter), and
// returns it; for any other backend it returns Err(b).
func ResetErr(b Backend) error {
	if r, ok := b.(ErrResetter); ok {
		return r.ResetErr()
	}
	return Err(b)
}
