package cudalib

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"
)

// nvrtcFuncs are the bound NVRTC calls (see bindAll); each but
// nvrtcGetErrorString returns an nvrtcResult.
type nvrtcFuncs struct {
	nvrtcVersion              func(major, minor *int32) int32
	nvrtcGetErrorString       func(code int32) string
	nvrtcGetNumSupportedArchs func(n *int32) int32
	nvrtcGetSupportedArchs    func(archs *int32) int32
	nvrtcCreateProgram        func(p *uintptr, src, name string, nHeaders int32, headers, includeNames unsafe.Pointer) int32
	nvrtcCompileProgram       func(p uintptr, nOptions int32, options unsafe.Pointer) int32
	nvrtcGetPTXSize           func(p uintptr, n *uint64) int32
	nvrtcGetPTX               func(p uintptr, ptx *byte) int32
	nvrtcGetProgramLogSize    func(p uintptr, n *uint64) int32
	nvrtcGetProgramLog        func(p uintptr, log *byte) int32
	nvrtcDestroyProgram       func(p *uintptr) int32
}

// Compiler is the opened NVRTC, which compiles CUDA C to PTX at run time
// (no GPU needed). It may be shared by goroutines.
type Compiler struct {
	Loaded
	f nvrtcFuncs
}

// OpenNVRTC loads NVRTC (of CUDA 13, else 12, else 11.2+) from o's search
// path and binds the calls the backend makes.
func OpenNVRTC(o Options) (*Compiler, error) {
	h, f, err := load[nvrtcFuncs](o, NVRTC)
	if err != nil {
		return nil, err
	}
	c := &Compiler{Loaded: Loaded{Path: h.path}, f: *f}
	var major, minor int32
	if err := c.check(f.nvrtcVersion(&major, &minor), "nvrtcVersion", ""); err != nil {
		return nil, err
	}
	c.Version = fmt.Sprintf("%d.%d", major, minor)
	return c, nil
}

// check turns an nvrtcResult into nil or an *Error; detail is added to the
// library's description (the first error of a compile log).
func (c *Compiler) check(code int32, fn, detail string) error {
	if code == 0 {
		return nil
	}
	e := &Error{Library: NVRTC, Func: fn, Code: int(code), Name: codeName(NVRTC, int(code))}
	if s := c.f.nvrtcGetErrorString(code); s != "" {
		e.Name = s
	}
	e.Detail = detail
	return e
}

// SupportedArchs returns the virtual architectures this NVRTC compiles
// for, as 10·major + minor (e.g. 75, 80, 90), ascending.
func (c *Compiler) SupportedArchs() ([]int, error) {
	var n int32
	if err := c.check(c.f.nvrtcGetNumSupportedArchs(&n), "nvrtcGetNumSupportedArchs", ""); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, nil
	}
	a := make([]int32, n)
	if err := c.check(c.f.nvrtcGetSupportedArchs(&a[0]), "nvrtcGetSupportedArchs", ""); err != nil {
		return nil, err
	}
	out := make([]int, n)
	for i, v := range a {
		out[i] = int(v)
	}
	return out, nil
}

// ChooseArch returns the newest architecture in supported (10·major+minor)
// that a device of compute capability cc runs: PTX for an older virtual
// architecture runs on newer devices, not the reverse.
func ChooseArch(supported []int, cc int) (int, error) {
	best := 0
	for _, a := range supported {
		if a <= cc && a > best {
			best = a
		}
	}
	if best == 0 {
		return 0, fmt.Errorf("cuda: NVRTC compiles for none of the architectures up to the device's compute capability %d.%d (it supports %v)", cc/10, cc%10, supported)
	}
	return best, nil
}

// Compile compiles one CUDA C source (name is used in messages) with the
// given options (e.g. "--gpu-architecture=compute_90") and returns its PTX
// and NVRTC's log (warnings). A compile error is one line naming the first
// error of the log; the whole log is returned as well.
func (c *Compiler) Compile(src, name string, options []string) (ptx []byte, log string, err error) {
	var prog uintptr
	if err := c.check(c.f.nvrtcCreateProgram(&prog, src, name, 0, nil, nil), "nvrtcCreateProgram", name); err != nil {
		return nil, "", err
	}
	defer c.f.nvrtcDestroyProgram(&prog)
	// The options as an array of C strings: Go memory holding pointers to
	// Go memory, pinned for the call.
	var pin runtime.Pinner
	defer pin.Unpin()
	var opts unsafe.Pointer
	if len(options) > 0 {
		ptrs := make([]*byte, len(options))
		for i, o := range options {
			b := append([]byte(o), 0)
			pin.Pin(&b[0])
			ptrs[i] = &b[0]
		}
		pin.Pin(&ptrs[0])
		opts = unsafe.Pointer(&ptrs[0])
	}
	code := c.f.nvrtcCompileProgram(prog, int32(len(options)), opts)
	log = c.programLog(prog)
	if err := c.check(code, "nvrtcCompileProgram", name+": "+firstError(log)); err != nil {
		return nil, log, err
	}
	var n uint64
	if err := c.check(c.f.nvrtcGetPTXSize(prog, &n), "nvrtcGetPTXSize", name); err != nil {
		return nil, log, err
	}
	buf := make([]byte, n)
	if n > 0 {
		if err := c.check(c.f.nvrtcGetPTX(prog, &buf[0]), "nvrtcGetPTX", name); err != nil {
			return nil, log, err
		}
	}
	return []byte(strings.TrimRight(string(buf), "\x00")), log, nil
}

// programLog returns the compile log of prog ("" when there is none).
func (c *Compiler) programLog(prog uintptr) string {
	var n uint64
	if c.f.nvrtcGetProgramLogSize(prog, &n) != 0 || n <= 1 {
		return ""
	}
	buf := make([]byte, n)
	if c.f.nvrtcGetProgramLog(prog, &buf[0]) != 0 {
		return ""
	}
	return strings.TrimRight(string(buf), "\x00\n")
}

// firstError returns the first line of a compile log that reports an
// error, else its first line, truncated to one short line.
func firstError(log string) string {
	lines := strings.Split(log, "\n")
	pick := ""
	for _, l := range lines {
		if strings.Contains(l, "error") {
			pick = l
			break
		}
	}
	if pick == "" && len(lines) > 0 {
		pick = lines[0]
	}
	pick = strings.TrimSpace(pick)
	if len(pick) > 200 {
		pick = pick[:200] + "…"
	}
	return pick
}
