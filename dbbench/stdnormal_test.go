package dbbench

import "testing"

// TestStdNormalMatchesLibstdcxx compares the draws with those of
//
//	std::default_random_engine g;
//	std::normal_distribution<double> d(500.0, 2000.0);
//
// built with g++ 12 (libstdc++) and printed with %.17g: the first six
// draws and the 100000th.
func TestStdNormalMatchesLibstdcxx(t *testing.T) {
	want := map[int]float64{
		0: 256.06843171680617, 1: -1673.6360885227145, 2: 1868.5798875931096,
		3: -1650.3782990360583, 4: 566.53895284098473, 5: 1989.6711954455648,
		99999: -3295.6574770830425,
	}
	n := newStdNormal(500, 2000)
	for i := 0; i < 100000; i++ {
		v := n.next()
		if w, ok := want[i]; ok && v != w {
			t.Errorf("draw %d = %.17g, libstdc++ gives %.17g", i, v, w)
		}
	}
}
