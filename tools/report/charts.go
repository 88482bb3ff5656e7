package report

import (
	"bytes"
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Charts are drawn with gonum.org/v1/plot and embedded in the page as inline
// SVG, so the HTML report is one self-contained file. They carry no legend of
// their own: the page prints one under each chart (engine colours, line
// styles), so a legend never covers data.

var palette = []color.Color{
	color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0xff, 0x7f, 0x0e, 0xff}, color.RGBA{0x2c, 0xa0, 0x2c, 0xff},
	color.RGBA{0xd6, 0x27, 0x28, 0xff}, color.RGBA{0x94, 0x67, 0xbd, 0xff}, color.RGBA{0x8c, 0x56, 0x4b, 0xff},
}

// engineColor is engine i's colour in every chart of a report.
func engineColor(i int) color.Color { return palette[i%len(palette)] }

// cssColor writes a colour for the HTML legends.
func cssColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// series is one engine's values over the chart's categories; a value of 0
// draws no bar (a failed pass, a benchmark that ran differently).
type series struct {
	name   string
	color  int // index into palette
	values []float64
}

// barChart draws grouped bars: one group per category, one bar per series.
// reference > 0 draws a dashed horizontal line at that value (1.0 on ratio
// charts).
func barChart(title, ylabel string, categories []string, ss []series, reference float64) (string, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	n := len(ss)
	if n == 0 || len(categories) == 0 {
		return "", nil
	}
	w := vg.Points(float64(min(24, 300/max(1, n*len(categories)))) + 6)
	top := reference
	for i, s := range ss {
		vals := make(plotter.Values, len(categories))
		copy(vals, s.values)
		for _, v := range vals {
			top = max(top, v)
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return "", err
		}
		b.Color = engineColor(s.color)
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(i)-float64(n-1)/2)
		p.Add(b)
	}
	if reference > 0 {
		ref, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: reference}, {X: float64(len(categories)) - 0.5, Y: reference}})
		if err != nil {
			return "", err
		}
		ref.Color = color.Gray{0x40}
		ref.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(ref)
	}
	p.Y.Min, p.Y.Max = 0, max(top*1.08, 1e-9)
	p.Y.Tick.Marker = plainTicks{}
	p.NominalX(categories...)
	// Half a category of room each side, so the outer groups' bars fit.
	p.X.Min, p.X.Max = -0.5, float64(len(categories))-0.5
	return render(p, 9*vg.Inch, 4*vg.Inch)
}

// stage is one benchmark's time span in one process.
type stage struct {
	label      string
	start, end float64
}

// timeLine is one line of a time chart.
type timeLine struct {
	color  int
	dashed bool
	xs, ys []float64
}

// timeChart draws lines over seconds. Under the zero line it draws one lane
// per process (lanes[i], in colour laneColor[i]) with a box per stage,
// labelled where the box is wide enough for its name.
func timeChart(title, ylabel string, lines []timeLine, lanes [][]stage, laneColor []int) (string, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "seconds since the process started"
	p.Y.Label.Text = ylabel
	top, right := 1.0, 1.0
	for _, l := range lines {
		for i := range l.ys {
			top, right = max(top, l.ys[i]), max(right, l.xs[i])
		}
	}
	for _, lane := range lanes {
		for _, s := range lane {
			right = max(right, s.end)
		}
	}
	laneH := top * 0.07
	small := font.From(plot.DefaultFont, vg.Points(7))
	for li, lane := range lanes {
		y0, y1 := -float64(li+1)*laneH, -float64(li)*laneH-laneH*0.15
		for si, s := range lane {
			box, err := plotter.NewPolygon(plotter.XYs{{X: s.start, Y: y0}, {X: s.end, Y: y0}, {X: s.end, Y: y1}, {X: s.start, Y: y1}})
			if err != nil {
				return "", err
			}
			box.Color = tint(engineColor(laneColor[li]), 0.55+0.25*float64(si%2))
			box.LineStyle.Width = 0
			p.Add(box)
			// A label needs about 4.5 pt per character on a 9 inch wide
			// chart whose plot area spans right seconds.
			if width := (s.end - s.start) / right * 600; width > 4.5*float64(len(s.label)) {
				lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: s.start, Y: (y0 + y1) / 2}}, Labels: []string{s.label}})
				if err != nil {
					return "", err
				}
				lbl.TextStyle[0].Font = small
				lbl.TextStyle[0].YAlign = -0.5
				lbl.Offset = vg.Point{X: vg.Points(2)}
				p.Add(lbl)
			}
		}
	}
	for _, l := range lines {
		if len(l.xs) == 0 {
			continue
		}
		pts := make(plotter.XYs, len(l.xs))
		for j := range l.xs {
			pts[j] = plotter.XY{X: l.xs[j], Y: l.ys[j]}
		}
		ln, err := plotter.NewLine(pts)
		if err != nil {
			return "", err
		}
		ln.Color = engineColor(l.color)
		ln.Width = vg.Points(1.5)
		if l.dashed {
			ln.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(ln)
	}
	p.X.Min, p.X.Max = 0, right*1.01
	p.Y.Min, p.Y.Max = -float64(len(lanes))*laneH, top*1.05
	p.Y.Tick.Marker = plainTicks{}
	return render(p, 9*vg.Inch, 4*vg.Inch)
}

// trendChart draws one line with points per engine over runs (x = run
// index, labelled by labels); a value of 0 is a run without that number.
func trendChart(title, ylabel string, labels []string, ss []series) (string, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	top := 1.0
	for _, s := range ss {
		var pts plotter.XYs
		for i, v := range s.values {
			if v > 0 {
				pts = append(pts, plotter.XY{X: float64(i), Y: v})
				top = max(top, v)
			}
		}
		if len(pts) == 0 {
			continue
		}
		ln, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return "", err
		}
		ln.Color, sc.Color = engineColor(s.color), engineColor(s.color)
		p.Add(ln, sc)
	}
	p.X.Min, p.X.Max = -0.5, float64(len(labels))-0.5
	p.Y.Min, p.Y.Max = 0, top*1.08
	p.Y.Tick.Marker = plainTicks{}
	p.NominalX(labels...)
	return render(p, 9*vg.Inch, 3*vg.Inch)
}

// tint mixes c with white; f = 0 is c, 1 is white.
func tint(c color.Color, f float64) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 { return uint8(float64(v>>8)*(1-f) + 255*f) }
	return color.RGBA{mix(r), mix(g), mix(b), 0xff}
}

// pngHook, when set (by tests), also receives every chart as PNG.
var pngHook func(title string, png []byte)

// render draws p as inline SVG (and as PNG for pngHook).
func render(p *plot.Plot, w, h vg.Length) (string, error) {
	if pngHook != nil {
		b, err := encode(p, w, h, "png")
		if err != nil {
			return "", err
		}
		pngHook(p.Title.Text, b)
	}
	b, err := encode(p, w, h, "svg")
	if err != nil {
		return "", err
	}
	s := string(b)
	// Drop the XML prologue so the SVG can sit inline in HTML.
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:]
	}
	return s, nil
}

func encode(p *plot.Plot, w, h vg.Length, format string) ([]byte, error) {
	wt, err := p.WriterTo(w, h, format)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	_, err = wt.WriteTo(&b)
	return b.Bytes(), err
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

// plainTicks labels axis ticks compactly (2.5M rather than 2500000.00) and
// leaves the negative side (the stage lanes) unlabelled.
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	out := ts[:0]
	for _, t := range ts {
		if t.Value < 0 {
			continue
		}
		if t.Label != "" {
			t.Label = compact(t.Value)
		}
		out = append(out, t)
	}
	return out
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
