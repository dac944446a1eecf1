package encoders

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute"
)

// failed returns the failure the model's backend kept during a forward
// pass (a GPU out of memory, a failed launch; see compute.Failer) as an
// error naming the model and the batch, rows × length, so that the caller
// can retry with fewer rows (errors.Is(err, compute.ErrOutOfMemory), after
// compute.ResetErr). nil on a backend that keeps no failure, as the CPU.
func (m *model) failed(what string, rows, length int) error {
	if err := compute.Err(m.be); err != nil {
		return fmt.Errorf("%s forward pass on a batch of %d × %d on %s: %w", what, rows, length, m.be.Name(), err)
	}
	return nil
}

// Close gives the model's weights back to its backend: on a GPU their
// device memory is released (the backend's own Close releases the rest);
// on the CPU it only drops the model's references. The model must not be
// used afterwards; Close may be called more than once.
func (m *model) Close() error {
	for i := range m.walk {
		if t := m.walk[i].t; t != nil {
			m.be.Free(t)
			m.walk[i].t = nil
		}
	}
	return nil
}

// uploadFailed returns the failure the backend kept while the model's
// weights were uploaded, after closing the model, or nil.
func uploadFailed(be compute.Backend, m any) error {
	err := compute.Err(be)
	if err == nil {
		return nil
	}
	if c, ok := m.(interface{ Close() error }); ok {
		_ = c.Close() // the upload error is the one to report
	}
	return fmt.Errorf("uploading the weights to %s: %w", be.Name(), err)
}
