package storyeval

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoDirectDenseData checks that no Go file of the module, tests
// included, calls a Data() method directly or builds a reflect.SliceHeader.
// gorgonia.org/tensor's (*Dense).Data holds the backing array only as a
// uintptr while it allocates, so `t.Data()` as the last use of t can return
// a slice into memory the collector has freed (issue 21's "found bad
// pointer in Go heap"); internal/dense.Data keeps t reachable across the
// call. No type of this module has a Data method, so every such call is a
// gorgonia tensor's. reflect.SliceHeader is the same hazard in our own code.
func TestNoDirectDenseData(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch p := filepath.ToSlash(path); {
			case d.Name() == "testdata", p == "internal/dense":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Data" && len(n.Args) == 0 {
					t.Errorf("%s: a direct .Data() call: use dense.Data (internal/dense), which keeps the tensor reachable", fset.Position(n.Pos()))
				}
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "reflect" && (n.Sel.Name == "SliceHeader" || n.Sel.Name == "StringHeader") {
					t.Errorf("%s: reflect.%s hides a pointer as a uintptr: use unsafe.Slice or unsafe.String", fset.Position(n.Pos()), n.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d Go files, expected the module's hundreds", checked)
	}
	t.Logf("checked %d Go files", checked)
}
