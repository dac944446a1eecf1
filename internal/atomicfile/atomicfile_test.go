package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// failAfter writes n bytes through, then fails, as a full disk or a
// cancelled writer would.
type failAfter struct {
	w io.Writer
	n int
}

var errInjected = errors.New("injected write failure")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k, _ := f.w.Write(p[:f.n])
		f.n = 0
		return k, errInjected
	}
	f.n -= len(p)
	return f.w.Write(p)
}

// leftovers lists the files of dir other than want.
func leftovers(t *testing.T, dir string, want ...string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var extra []string
	for _, e := range entries {
		keep := false
		for _, w := range want {
			keep = keep || e.Name() == w
		}
		if !keep {
			extra = append(extra, e.Name())
		}
	}
	return extra
}

func TestWriteReplacesOnlyWhenComplete(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "table.bin")
	old := bytes.Repeat([]byte("old table "), 1000)
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	next := bytes.Repeat([]byte("new"), 5000)
	// A failure at ten points through the new file's bytes, from the first
	// byte to the last, then a write that completes (n = len(next)).
	for i := 0; i <= 10; i++ {
		n := i * (len(next) - 1) / 9
		if i == 10 {
			n = len(next)
		}
		err := Write(path, func(w io.Writer) error {
			fw := &failAfter{w: w, n: n}
			for off := 0; off < len(next); off += 1000 {
				if _, err := fw.Write(next[off:min(off+1000, len(next))]); err != nil {
					return err
				}
			}
			return nil
		})
		if n < len(next) && !errors.Is(err, errInjected) {
			t.Fatalf("failure at byte %d: err %v, want the injected failure", n, err)
		}
		got, rerr := os.ReadFile(path)
		if n < len(next) && (rerr != nil || !bytes.Equal(got, old)) {
			t.Fatalf("failure at byte %d: the previous file changed (%d bytes, %v)", n, len(got), rerr)
		}
		if n == len(next) && (err != nil || !bytes.Equal(got, next)) {
			t.Fatalf("complete write: err %v, %d bytes, want %d", err, len(got), len(next))
		}
		if extra := leftovers(t, dir, "table.bin"); len(extra) > 0 {
			t.Fatalf("failure at byte %d left %q behind", n, extra)
		}
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode after replacing a 0600 file: %v, %v; want the old file's 0600", st.Mode(), err)
	}
}

func TestNewFileGetsDefaultPerm(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.json")
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "{}\n"); return err }); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != DefaultPerm {
		t.Fatalf("mode %v, err %v; want %v", st.Mode(), err, DefaultPerm)
	}
}

func TestAbortAndMisuse(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("partial")); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	f.Abort() // a second Abort does nothing
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("aborted file exists: %v", err)
	}
	if extra := leftovers(t, dir); len(extra) > 0 {
		t.Fatalf("Abort left %q", extra)
	}
	if _, err := f.Write([]byte("more")); err == nil {
		t.Fatal("Write after Abort succeeded")
	}
	if err := f.Commit(); err == nil {
		t.Fatal("Commit after Abort succeeded")
	}
	if _, err := Create(""); err == nil {
		t.Fatal("Create(\"\") succeeded")
	}
	if _, err := Create(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("Create(a folder) = %v, want a not-a-regular-file error", err)
	}
	if _, err := Create(filepath.Join(dir, "missing", "x")); err == nil {
		t.Fatal("Create in a missing folder succeeded")
	}
}

// TestKilledWriterLeavesPreviousFile kills a child process while it writes
// (SIGKILL, which no cleanup survives) at increasing delays; the previous
// file must read back unchanged every time.
func TestKilledWriterLeavesPreviousFile(t *testing.T) {
	if path := os.Getenv("ATOMICFILE_SLOW_WRITER"); path != "" {
		slowWriter(path)
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "model.bin")
	old := bytes.Repeat([]byte{0xAB}, 1<<16)
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriterLeavesPreviousFile$")
		cmd.Env = append(os.Environ(), "ATOMICFILE_SLOW_WRITER="+path)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait for the child to have started writing, then kill it after
		// i milliseconds more.
		if _, err := io.ReadFull(stdout, make([]byte, 1)); err != nil {
			t.Fatalf("child never started writing: %v", err)
		}
		time.Sleep(time.Duration(i) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, old) {
			t.Fatalf("kill %d ms into the write: the previous file changed (%d bytes, %v)", i, len(got), err)
		}
	}
}

// slowWriter rewrites path in small steps, for the kill test; it signals on
// stdout once the temporary file holds data.
func slowWriter(path string) {
	err := Write(path, func(w io.Writer) error {
		for i := 0; i < 1000; i++ {
			if _, err := w.Write(bytes.Repeat([]byte{byte(i)}, 1024)); err != nil {
				return err
			}
			if i == 0 {
				os.Stdout.Write([]byte("w"))
			}
			time.Sleep(100 * time.Microsecond)
		}
		return nil
	})
	fmt.Println(err)
	os.Exit(3) // the parent kills the child before this
}
