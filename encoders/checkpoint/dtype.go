package checkpoint

import "fmt"

// DType is the element type of a stored tensor.
type DType uint8

// The element types the readers understand. Float32 converts the floating
// ones, Int64 the integer ones and Bool.
const (
	InvalidDType DType = iota
	F64
	F32
	F16
	BF16
	I64
	I32
	I16
	I8
	U8
	Bool
)

var dtypeNames = [...]string{
	InvalidDType: "invalid",
	F64:          "F64",
	F32:          "F32",
	F16:          "F16",
	BF16:         "BF16",
	I64:          "I64",
	I32:          "I32",
	I16:          "I16",
	I8:           "I8",
	U8:           "U8",
	Bool:         "BOOL",
}

// String returns the safetensors name of the type, e.g. "F32".
func (d DType) String() string {
	if int(d) < len(dtypeNames) {
		return dtypeNames[d]
	}
	return fmt.Sprintf("DType(%d)", uint8(d))
}

// Size is the number of bytes of one element.
func (d DType) Size() int {
	switch d {
	case F64, I64:
		return 8
	case F32, I32:
		return 4
	case F16, BF16, I16:
		return 2
	case I8, U8, Bool:
		return 1
	}
	return 0
}

// IsFloat reports whether the type is a floating-point one.
func (d DType) IsFloat() bool { return d == F64 || d == F32 || d == F16 || d == BF16 }

// parseSafetensorsDType maps a safetensors header dtype to a DType.
func parseSafetensorsDType(s string) (DType, bool) {
	for d, n := range dtypeNames {
		if d != int(InvalidDType) && n == s {
			return DType(d), true
		}
	}
	return InvalidDType, false
}

// torchStorageDTypes maps the legacy storage classes torch.save pickles (still
// used by the zip format in torch 1.13 and 2.x) to element types.
var torchStorageDTypes = map[string]DType{
	"DoubleStorage":   F64,
	"FloatStorage":    F32,
	"HalfStorage":     F16,
	"BFloat16Storage": BF16,
	"LongStorage":     I64,
	"IntStorage":      I32,
	"ShortStorage":    I16,
	"CharStorage":     I8,
	"ByteStorage":     U8,
	"BoolStorage":     Bool,
}
