package checkpoint

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// render writes a decoded pickle value in a canonical text form.
func render(v any) string {
	var b strings.Builder
	var walk func(v any)
	seq := func(open, close string, items []any) {
		b.WriteString(open)
		for i, it := range items {
			if i > 0 {
				b.WriteString(", ")
			}
			walk(it)
		}
		b.WriteString(close)
	}
	walk = func(v any) {
		switch x := v.(type) {
		case nil:
			b.WriteString("None")
		case bool:
			b.WriteString(map[bool]string{true: "True", false: "False"}[x])
		case int64:
			b.WriteString(strconv.FormatInt(x, 10))
		case *big.Int:
			b.WriteString(x.String())
		case float64:
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		case string:
			b.WriteString(strconv.Quote(x))
		case []byte:
			fmt.Fprintf(&b, "b%q", x)
		case Tuple:
			seq("(", ")", x)
		case *List:
			seq("[", "]", x.Items)
		case *Set:
			seq("set{", "}", x.Items)
		case *Dict:
			b.WriteString(x.Class + "{")
			for i, it := range x.Items {
				if i > 0 {
					b.WriteString(", ")
				}
				walk(it.Key)
				b.WriteString(": ")
				walk(it.Value)
			}
			b.WriteString("}")
		case Global:
			b.WriteString("global " + x.String())
		case *Object:
			b.WriteString(x.Class.String() + "(")
			seq("", "", x.Args)
			b.WriteString(")")
			if x.State != nil {
				b.WriteString(".state=")
				walk(x.State)
			}
		default:
			fmt.Fprintf(&b, "%T", v)
		}
	}
	walk(v)
	return b.String()
}

// TestDecodePickleProtocols decodes the same object pickled by CPython in
// every protocol; all must give the same values.
func TestDecodePickleProtocols(t *testing.T) {
	const want = `builtins.dict{"a": 1, "b": [1.5, None, True, False, -7, 300, 70000, -2147483648], ` +
		`"c": ("x", b"\x01\xff"), "big": 1180591620717411303424, "neg": -1180591620717411303424, ` +
		`"u": "é€\n", "od": collections.OrderedDict{"k": 1, "j": 2}, "s": set{3}, "fs": set{4}, ` +
		`"shared": ([1], [1]), 1: "int key", "ba": b"z", "f": +Inf}`
	for p, h := range pythonPickles {
		data, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		v, err := DecodePickle(data, Options{})
		if err != nil {
			t.Errorf("protocol %d: %v", p, err)
			continue
		}
		if got := render(v); got != want {
			t.Errorf("protocol %d:\n got %s\nwant %s", p, got, want)
		}
		// The memo makes both tuple items the same list, as in Python.
		d := v.(*Dict)
		shared, _ := d.Get("shared")
		if tup := shared.(Tuple); tup[0].(*List) != tup[1].(*List) {
			t.Errorf("protocol %d: shared list decoded as two lists", p)
		}
	}
}

// TestDecodePickleInert checks that classes outside the allow-list are never
// resolved: os.system and builtins.eval become inert objects recording their
// arguments.
func TestDecodePickleInert(t *testing.T) {
	cases := []struct {
		name, pickle, want string
	}{
		{"os.system via REDUCE", "cos\nsystem\n(S'echo hacked'\ntR.", `os.system("echo hacked")`},
		{"eval via STACK_GLOBAL", "\x80\x04\x8c\x08builtins\x8c\x04eval\x93\x8c\x031+1\x85R.", `builtins.eval("1+1")`},
		{"INST", "(S'x'\nimy.mod\nKlass\n.", `my.mod.Klass("x")`},
		{"NEWOBJ + BUILD", "\x80\x02cargparse\nNamespace\n)\x81}X\x01\x00\x00\x00aK\x01sb.", `argparse.Namespace().state=builtins.dict{"a": 1}`},
		{"bare global", "cos\nremove\n.", `global os.remove`},
	}
	for _, c := range cases {
		v, err := DecodePickle([]byte(c.pickle), Options{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := render(v); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

// TestDecodePickleErrors checks malformed and hostile pickles are errors that
// say what is wrong.
func TestDecodePickleErrors(t *testing.T) {
	cases := []struct {
		name, pickle, want string
	}{
		{"empty", "", "truncated"},
		{"no STOP", "K\x01", "truncated"},
		{"underflow", "t.", "no MARK"},
		{"pop underflow", "0.", "underflow"},
		{"bad memo", "h\x05.", "memo key 5"},
		{"huge BINUNICODE", "X\xff\xff\xff\x7f", "truncated"},
		{"huge BINUNICODE8", "\x8d\x00\x00\x00\x00\x00\x00\x00\x80", "truncated"},
		{"huge frame", "\x80\x04\x95\x00\x00\x00\x00\x10\x00\x00\x00N.", "truncated"},
		{"protocol 9", "\x80\x09N.", "protocol 9"},
		{"unknown opcode", "\xffN.", "unknown opcode"},
		{"persistent id", "S'x'\nQ.", "persistent id"},
		{"trailing", "N.N.", "trailing"},
		{"SETITEM on list", "]K\x01K\x02s.", "SETITEM on list"},
		{"EXT1", "\x82\x01.", "extension"},
		{"call a number", "K\x01)R.", "not a class"},
	}
	for _, c := range cases {
		_, err := DecodePickle([]byte(c.pickle), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	if _, err := DecodePickle(make([]byte, 100), Options{MaxPickleBytes: 10}); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("oversized pickle: %v", err)
	}
}
