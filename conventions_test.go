package storyeval

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// notFiles are the exported Open*/Load*/Read* functions that open or read
// something other than a file or a byte stream, with the reason.
var notFiles = map[string]string{
	"encoders/compute/cuda.Open":               "opens a CUDA device",
	"encoders/compute/cuda/cudalib.OpenDriver": "opens the CUDA driver library",
	"encoders/compute/cuda/cudalib.OpenBLAS":   "opens the cuBLAS library",
	"encoders/compute/cuda/cudalib.OpenNVRTC":  "opens the NVRTC library",
	"encoders/nn.ReadParams":                   "reads parameters from an opened checkpoint.State",
	"encoders.LoadLinear":                      "loads a layer from an opened checkpoint.State",
	"encoders/imageproc.OpenAICLIPConfig":      "OpenAI is a name, not the verb",
}

// TestReadingConvention checks the naming rule of the package doc on every
// exported function of the library (internal packages, tests and the
// command excluded): Open* and Load* take a path (a string first
// parameter), Read* an io.Reader, Parse* a []byte or a string.
func TestReadingConvention(t *testing.T) {
	fset, files := libraryFiles(t, "internal", "cmd", "examples")
	checked := 0
	for path, f := range files {
		pkg := filepath.ToSlash(filepath.Dir(path))
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() {
				continue
			}
			name := fn.Name.Name
			key := pkg + "." + name
			if pkg == "." {
				key = name
			}
			if _, ok := notFiles[key]; ok {
				continue
			}
			verb, want := "", ""
			for _, v := range [][2]string{{"Open", "path"}, {"Load", "path"}, {"Read", "reader"}, {"Parse", "bytes"}} {
				if strings.HasPrefix(name, v[0]) {
					verb, want = v[0], v[1]
				}
			}
			if verb == "" {
				continue
			}
			checked++
			if !takes(fn, want) {
				t.Errorf("%s (%s): %s* should take a %s first", key, fset.Position(fn.Pos()), verb, want)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d readers checked: is the walk finding the packages?", checked)
	}
	t.Logf("%d exported readers checked", checked)
}

// componentPrefixes are packages whose errors keep their name in front: it
// names the subsystem that failed for a user (the GPU layer, the
// embedding cache), not a layer of the library's own code, and the
// command has always printed it.
var componentPrefixes = map[string]bool{"cuda": true, "cudalib": true, "embcache": true, "postag": true, "randmodel": true}

// TestErrorsCarryNoPackagePrefix checks the error rule of the package doc:
// no error string of the library starts with a package name ("rovist: "),
// since errors name their input instead and programs print them as they
// come (the command once stripped such prefixes by string matching).
func TestErrorsCarryNoPackagePrefix(t *testing.T) {
	fset, files := libraryFiles(t, "cmd", "examples")
	pkgs := map[string]bool{}
	for _, f := range files {
		pkgs[f.Name.Name] = true
	}
	checked := 0
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !(sel.Sel.Name == "Errorf" || sel.Sel.Name == "New" && types(sel.X) == "errors") {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			checked++
			msg := strings.Trim(lit.Value, "\"`")
			if name, _, ok := strings.Cut(msg, ": "); ok && pkgs[name] && !componentPrefixes[name] {
				t.Errorf("%s: error %s starts with the package name %q", fset.Position(lit.Pos()), lit.Value, name)
			}
			return true
		})
	}
	if checked < 500 {
		t.Fatalf("only %d error strings checked in %d files", checked, len(files))
	}
	t.Logf("%d error strings in %d files checked", checked, len(files))
}

// libraryFiles parses the non-test Go files of the repository, skipping
// the folders named in skip (and testdata, scripts and docs), keyed by
// path.
func libraryFiles(t *testing.T, skip ...string) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	skip = append(skip, "testdata", "scripts", "docs")
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if slices.Contains(skip, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(path)] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fset, files
}

// takes reports whether fn's first parameter fits want: a string (path),
// an io.Reader, or a []byte or string.
func takes(fn *ast.FuncDecl, want string) bool {
	params := fn.Type.Params.List
	if len(params) == 0 {
		return false
	}
	typ := types(params[0].Type)
	switch want {
	case "path":
		return typ == "string"
	case "reader":
		return typ == "io.Reader"
	}
	return typ == "[]byte" || typ == "string"
}

// types writes a parameter type as source.
func types(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return types(x.X) + "." + x.Sel.Name
	case *ast.ArrayType:
		if x.Len == nil {
			return "[]" + types(x.Elt)
		}
	}
	return "?"
}
