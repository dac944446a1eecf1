package embcache

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// envChild carries "PATH|WRITER" to the test binary re-run as a child.
const envChild = "EMBCACHE_TEST_CHILD"

const childRounds, childBatch = 15, 8

func childKey(writer, i int) Key {
	return TextKey(TextInput{Tokenizer: strconv.Itoa(writer), Text: strconv.Itoa(i)})
}

// TestHelperProcessWriter is the child of TestTwoProcessesWriting: it
// opens the store, writes a batch, reads back what the other writer wrote
// so far, and closes, childRounds times.
func TestHelperProcessWriter(t *testing.T) {
	arg := os.Getenv(envChild)
	if arg == "" {
		t.Skip("child process of TestTwoProcessesWriting only")
	}
	path, w, _ := strings.Cut(arg, "|")
	writer, _ := strconv.Atoi(w)
	for r := 0; r < childRounds; r++ {
		s, err := Open(path, Options{LockTimeout: -1})
		if err != nil {
			t.Fatal(err)
		}
		if s.Rebuilt() != "" {
			t.Fatalf("writer %d round %d: store rebuilt: %s", writer, r, s.Rebuilt())
		}
		ks, vs := make([]Key, childBatch), make([][]float32, childBatch)
		for j := range ks {
			i := r*childBatch + j
			ks[j], vs[j] = childKey(writer, i), vec(writer*100000+i, 128)
		}
		if err := s.PutMany(ks, vs); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < childRounds*childBatch; i++ {
			if v, ok, err := s.Get(childKey(1-writer, i)); err != nil || ok && !bitsEqual(v, vec((1-writer)*100000+i, 128)) {
				t.Fatalf("writer %d reads entry %d of the other: ok %v err %v", writer, i, ok, err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTwoProcessesWriting runs two processes that open, write and close
// one store at the same time, and checks that it holds every entry of
// both, intact, and passes Open's full check.
func TestTwoProcessesWriting(t *testing.T) {
	if os.Getenv(envChild) != "" {
		t.Skip("in the child")
	}
	path := filepath.Join(t.TempDir(), FileName)
	var cmds []*exec.Cmd
	outs := make([]*strings.Builder, 2)
	for w := 0; w < 2; w++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcessWriter$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%d", envChild, path, w))
		outs[w] = &strings.Builder{}
		cmd.Stdout, cmd.Stderr = outs[w], outs[w]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for w, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer %d: %v\n%s", w, err, outs[w])
		}
	}
	s := openT(t, path, Options{})
	defer s.Close()
	if s.Rebuilt() != "" {
		t.Fatalf("store rebuilt after two writers: %s", s.Rebuilt())
	}
	for w := 0; w < 2; w++ {
		for i := 0; i < childRounds*childBatch; i++ {
			v, ok := mustGet(t, s, childKey(w, i))
			if !ok || !bitsEqual(v, vec(w*100000+i, 128)) {
				t.Fatalf("writer %d entry %d: ok %v", w, i, ok)
			}
		}
	}
	if st, _ := s.Stats(); st.Entries != 2*childRounds*childBatch {
		t.Fatalf("%d entries, want %d", st.Entries, 2*childRounds*childBatch)
	}
}
