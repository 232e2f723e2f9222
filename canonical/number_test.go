package canonical

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// placedNumber is AppendNumber the long way, as it was written before it
// wrote strconv's 'f' form directly: the shortest digits from 'e', placed
// by ECMAScript's Number::toString steps. It is the oracle AppendNumber is
// held to.
func placedNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	var dst []byte
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mark := 0
	for e[mark] != 'e' {
		mark++
	}
	digits := []byte{e[0]}
	if mark > 1 {
		digits = append(digits, e[2:mark]...)
	}
	exp, _ := strconv.Atoi(e[mark+1:])
	k := len(digits)
	n := exp + 1 // f = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		for range n - k {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for range -n {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return string(dst)
}

func checkNumber(t *testing.T, f float64) {
	t.Helper()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return
	}
	got, err := AppendNumber(nil, f)
	if want := placedNumber(f); err != nil || string(got) != want {
		t.Fatalf("AppendNumber(%v) (bits %#x) = %q, %v; want %q", f, math.Float64bits(f), got, err, want)
	}
}

// TestNumberBounds tries the floats around the bounds of plain notation
// (1e-6 and 1e21), around 2^53, around every power of ten, and random bit
// patterns and random numbers of a few decimals.
func TestNumberBounds(t *testing.T) {
	around := func(f float64) {
		for _, s := range []float64{f, -f} {
			x := s
			for range 4 {
				checkNumber(t, x)
				x = math.Nextafter(x, math.Inf(1))
			}
			x = s
			for range 4 {
				checkNumber(t, x)
				x = math.Nextafter(x, math.Inf(-1))
			}
		}
	}
	for _, f := range []float64{1e-6, 1e-7, 1e21, 1e20, 1 << 53, 1 << 60, 5e-324, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		around(f)
	}
	for e := -325; e <= 309; e++ {
		around(math.Pow(10, float64(e)))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		checkNumber(t, math.Float64frombits(r.Uint64()))
		checkNumber(t, float64(r.Int64N(2_000_000_000)-1_000_000_000)/math.Pow(10, float64(r.IntN(25))))
		// Decimals of up to 8 places around appendShortDecimal's bound of
		// 2^48 on the scaled value, and floats a unit from them.
		d := float64(r.Int64N(1<<51)-1<<50) / math.Pow(10, float64(r.IntN(10)))
		checkNumber(t, d)
		checkNumber(t, math.Nextafter(d, math.Inf(1)))
	}
	for j := 1; j <= 9; j++ {
		for m := int64(-2000); m <= 2000; m++ {
			checkNumber(t, float64(m)/math.Pow(10, float64(j)))
		}
	}
}

// FuzzAppendNumber holds AppendNumber to placedNumber on any float.
func FuzzAppendNumber(f *testing.F) {
	for _, seed := range []float64{0, 1, -1, 0.1, 1e-6, 1e-7, 1e21, 1e20, 1 << 60, 123456789.125, -0.031, 5e-324, 1.7976931348623157e308} {
		f.Add(math.Float64bits(seed))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		checkNumber(t, math.Float64frombits(bits))
	})
}
