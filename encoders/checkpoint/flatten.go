package checkpoint

import (
	"errors"
	"fmt"
	"strconv"
)

// addPickled records the tensors and values of a decoded torch pickle. Dicts
// with str or int keys, lists and tuples that (transitively) hold tensors are
// walked, their keys joined with "." (state_dict names already contain dots:
// {"model": {"linear.weight": t}} gives "model.linear.weight"); any other
// value is stored whole under its path. A bare tensor gets the name "".
// storages maps each root storage to its bytes.
func (s *State) addPickled(root any, storages map[*storageRef][]byte, pickleLen int) error {
	w := &flattener{s: s, storages: storages, holds: make(map[any]bool), budget: 8*int64(pickleLen) + 1024}
	return w.walk(root, "", 0)
}

type flattener struct {
	s        *State
	storages map[*storageRef][]byte
	holds    map[any]bool // memo of holdsTensor per container
	budget   int64        // nodes left to visit: shared sub-objects cannot blow up the walk
}

// maxNesting bounds recursion into nested containers.
const maxNesting = 100

var errTooLarge = errors.New("pickled structure too large or too deeply nested to walk")

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

func (w *flattener) walk(v any, path string, depth int) error {
	if w.budget--; w.budget < 0 || depth > maxNesting {
		return errTooLarge
	}
	switch x := v.(type) {
	case *tensorRef:
		return w.addTensor(path, x)
	case *Dict:
		if ok, err := w.holdsTensor(x, depth); err != nil || !ok {
			if err != nil {
				return err
			}
			return w.addValue(path, v)
		}
		for _, it := range x.Items {
			var key string
			switch k := it.Key.(type) {
			case string:
				key = k
			case int64:
				key = strconv.FormatInt(k, 10)
			default:
				return fmt.Errorf("%q: dict key of type %s next to tensors", path, typeName(it.Key))
			}
			if err := w.walk(it.Value, join(path, key), depth+1); err != nil {
				return err
			}
		}
		return nil
	case *List, Tuple:
		if ok, err := w.holdsTensor(x, depth); err != nil || !ok {
			if err != nil {
				return err
			}
			return w.addValue(path, v)
		}
		items := listItems(x)
		for i, it := range items {
			if err := w.walk(it, join(path, strconv.Itoa(i)), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return w.addValue(path, v)
}

func listItems(v any) []any {
	switch x := v.(type) {
	case *List:
		return x.Items
	case Tuple:
		return x
	}
	return nil
}

// holdsTensor reports whether a container has a tensor somewhere inside,
// memoised per pointer container so shared sub-objects are visited once.
func (w *flattener) holdsTensor(v any, depth int) (bool, error) {
	if w.budget--; w.budget < 0 || depth > maxNesting {
		return false, errTooLarge
	}
	var children []any
	switch x := v.(type) {
	case *tensorRef:
		return true, nil
	case *Dict:
		if h, ok := w.holds[x]; ok {
			return h, nil
		}
		w.holds[x] = false // a cycle back here adds nothing
		for _, it := range x.Items {
			children = append(children, it.Value)
		}
	case *List:
		if h, ok := w.holds[x]; ok {
			return h, nil
		}
		w.holds[x] = false
		children = x.Items
	case Tuple:
		children = x
	default:
		return false, nil
	}
	found := false
	for _, c := range children {
		h, err := w.holdsTensor(c, depth+1)
		if err != nil {
			return false, err
		}
		if h {
			found = true
			break
		}
	}
	switch x := v.(type) {
	case *Dict:
		w.holds[x] = found
	case *List:
		w.holds[x] = found
	}
	return found, nil
}

func (w *flattener) addValue(path string, v any) error {
	if _, dup := w.s.values[path]; dup {
		return fmt.Errorf("two entries named %q", path)
	}
	w.s.values[path] = v
	return nil
}

func (w *flattener) addTensor(path string, t *tensorRef) error {
	if _, dup := w.s.tensors[path]; dup {
		return fmt.Errorf("two tensors named %q", path)
	}
	root, base := t.storage.root()
	data, ok := w.storages[root]
	if !ok {
		return fmt.Errorf("tensor %q: storage %q has no data", path, root.key)
	}
	e := &entry{dtype: t.storage.dtype, shape: t.shape, offset: base + t.offset, data: data}
	if !isContiguous(t.shape, t.strides) {
		e.strides = t.strides
	}
	w.s.tensors[path] = e
	return nil
}
