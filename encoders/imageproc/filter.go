package imageproc

import (
	"fmt"
	"math"
)

// Filter is a Pillow resampling filter. The values are Pillow's
// Image.Resampling codes, the numbers preprocessor_config.json stores under
// "resample".
type Filter int

// Pillow's resampling filters.
const (
	Nearest   Filter = 0
	Lanczos   Filter = 1
	Bilinear  Filter = 2
	Bicubic   Filter = 3
	BoxFilter Filter = 4
	Hamming   Filter = 5
)

// String returns Pillow's name of the filter.
func (f Filter) String() string {
	switch f {
	case Nearest:
		return "NEAREST"
	case Lanczos:
		return "LANCZOS"
	case Bilinear:
		return "BILINEAR"
	case Bicubic:
		return "BICUBIC"
	case BoxFilter:
		return "BOX"
	case Hamming:
		return "HAMMING"
	}
	return fmt.Sprintf("Filter(%d)", int(f))
}

// kernel returns the filter function and its support radius at scale 1, as
// in Pillow's libImaging/Resample.c.
func (f Filter) kernel() (func(float64) float64, float64, error) {
	switch f {
	case BoxFilter:
		return boxKernel, 0.5, nil
	case Bilinear:
		return triangleKernel, 1, nil
	case Hamming:
		return hammingKernel, 1, nil
	case Bicubic:
		return bicubicKernel, 2, nil
	case Lanczos:
		return lanczosKernel, 3, nil
	}
	return nil, 0, fmt.Errorf("resampling filter %v has no convolution kernel", f)
}

func boxKernel(x float64) float64 {
	if x > -0.5 && x <= 0.5 {
		return 1
	}
	return 0
}

func triangleKernel(x float64) float64 {
	x = math.Abs(x)
	if x < 1 {
		return 1 - x
	}
	return 0
}

func hammingKernel(x float64) float64 {
	x = math.Abs(x)
	if x == 0 {
		return 1
	}
	if x >= 1 {
		return 0
	}
	x *= math.Pi
	// Pillow writes the constants as C float literals (0.54f, 0.46f).
	return math.Sin(x) / x * (float64(float32(0.54)) + float64(float32(0.46))*math.Cos(x))
}

// bicubicKernel is Keys' cubic convolution with a = −0.5, evaluated in the
// same operation order as Pillow (explicit conversions stop the compiler
// from fusing multiply-adds, which would change the last bit).
func bicubicKernel(x float64) float64 {
	const a = -0.5
	x = math.Abs(x)
	if x < 1 {
		return float64(float64(float64(float64((a+2)*x)-(a+3))*x)*x) + 1
	}
	if x < 2 {
		return float64(float64(float64(float64(float64(x-5)*x)+8)*x)-4) * a
	}
	return 0
}

func sinc(x float64) float64 {
	if x == 0 {
		return 1
	}
	x *= math.Pi
	return math.Sin(x) / x
}

func lanczosKernel(x float64) float64 {
	if -3 <= x && x < 3 {
		return sinc(x) * sinc(x/3)
	}
	return 0
}
