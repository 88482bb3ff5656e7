package report

import (
	"bytes"
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Charts are drawn with gonum.org/v1/plot and embedded in the page as inline
// SVG, so the HTML report is one self-contained file.

var palette = []color.Color{
	color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0xff, 0x7f, 0x0e, 0xff}, color.RGBA{0x2c, 0xa0, 0x2c, 0xff},
	color.RGBA{0xd6, 0x27, 0x28, 0xff}, color.RGBA{0x94, 0x67, 0xbd, 0xff}, color.RGBA{0x8c, 0x56, 0x4b, 0xff},
}

// series is one engine's values over the chart's categories.
type series struct {
	name   string
	values []float64
}

// barChart draws grouped bars: one group per category, one bar per series.
func barChart(title, ylabel string, categories []string, ss []series) (string, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	n := len(ss)
	if n == 0 || len(categories) == 0 {
		return "", nil
	}
	w := vg.Points(float64(min(24, 300/max(1, n*len(categories)))) + 6)
	for i, s := range ss {
		vals := make(plotter.Values, len(categories))
		copy(vals, s.values)
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return "", err
		}
		b.Color = palette[i%len(palette)]
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(i)-float64(n-1)/2)
		p.Add(b)
		p.Legend.Add(s.name, b)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.YOffs = vg.Points(12)
	p.Y.Tick.Marker = plainTicks{}
	p.NominalX(categories...)
	return render(p, 9*vg.Inch, 4*vg.Inch)
}

// band is a labelled time span (a benchmark stage) on a time chart.
type band struct {
	label      string
	start, end float64
}

// timeChart draws lines over seconds, with shaded stage bands.
func timeChart(title, ylabel string, lines []series, xs []float64, bands []band) (string, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "seconds"
	p.Y.Label.Text = ylabel
	top := 1.0
	for _, l := range lines {
		for _, v := range l.values {
			top = max(top, v)
		}
	}
	for i, b := range bands {
		poly, err := plotter.NewPolygon(plotter.XYs{{X: b.start, Y: 0}, {X: b.end, Y: 0}, {X: b.end, Y: top * 1.05}, {X: b.start, Y: top * 1.05}})
		if err != nil {
			return "", err
		}
		shade := uint8(235 - 12*(i%2))
		poly.Color = color.RGBA{shade, shade, 0xf5, 0xff}
		poly.LineStyle.Width = 0
		p.Add(poly)
		lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: b.start, Y: top * 1.02}}, Labels: []string{b.label}})
		if err == nil {
			p.Add(lbl)
		}
	}
	for i, l := range lines {
		pts := make(plotter.XYs, len(l.values))
		for j, v := range l.values {
			pts[j] = plotter.XY{X: xs[j], Y: v}
		}
		if len(pts) == 0 {
			continue
		}
		ln, err := plotter.NewLine(pts)
		if err != nil {
			return "", err
		}
		ln.Color = palette[i%len(palette)]
		ln.Width = vg.Points(1.5)
		if i == 1 {
			ln.Width = vg.Points(2.5)
		}
		p.Add(ln)
		p.Legend.Add(l.name, ln)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Y.Tick.Marker = plainTicks{}
	return render(p, 9*vg.Inch, 3.5*vg.Inch)
}

func render(p *plot.Plot, w, h vg.Length) (string, error) {
	wt, err := p.WriterTo(w, h, "svg")
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return "", err
	}
	s := b.String()
	// Drop the XML prologue so the SVG can sit inline in HTML.
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:]
	}
	return s, nil
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func human(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

// plainTicks labels axis ticks compactly (2.5M rather than 2500000.00).
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = compact(ts[i].Value)
		}
	}
	return ts
}

func compact(v float64) string {
	a := v
	if a < 0 {
		a = -a
	}
	switch {
	case a >= 1e9:
		return strconv.FormatFloat(v/1e9, 'g', 3, 64) + "G"
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 3, 64) + "M"
	case a >= 1e3:
		return strconv.FormatFloat(v/1e3, 'g', 3, 64) + "k"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
