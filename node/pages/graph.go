package pages

import (
	"math"
)

// A graph is a research map laid out for an SVG drawn on the server: its
// nodes on a circle, the question at the top, and its edges as lines.
type graph struct {
	Width, Height int
	R             int // each node's radius
	Nodes         []graphNode
	Edges         []graphEdge
}

type graphNode struct {
	ID, Title, Type string
	X, Y            float64
	Question        bool
}

type graphEdge struct {
	Relation       string
	X1, Y1, X2, Y2 float64
	LX, LY         float64 // where its label sits
}

// The drawing's margins around its nodes' ellipse, in SVG units, the
// ellipse's least height, and each node's radius. The ellipse grows with
// the nodes, so their labels keep apart, and the SVG scales to the
// screen.
const (
	marginX     = 170
	marginY     = 60
	graphRadius = 150
	nodeRadius  = 26
)

// layout places nodes evenly on a circle, the question (when it is one of
// them) at the top, and draws each edge between two of them; an edge to a
// node not pinned on the map is left out.
func layout(nodes []entryItem, edges []any, question string) graph {
	ry := max(graphRadius, 16*float64(len(nodes)))
	rx := 1.4 * ry
	g := graph{Width: int(2 * (rx + marginX)), Height: int(2 * (ry + marginY)), R: nodeRadius}
	order := make([]entryItem, 0, len(nodes))
	for _, n := range nodes {
		if n.ID == question {
			order = append([]entryItem{n}, order...)
		} else {
			order = append(order, n)
		}
	}
	at := map[string]int{}
	cx, cy := float64(g.Width)/2, float64(g.Height)/2
	for i, n := range order {
		x, y := cx, cy
		if len(order) > 1 {
			a := -math.Pi/2 + 2*math.Pi*float64(i)/float64(len(order))
			x, y = cx+rx*math.Cos(a), cy+ry*math.Sin(a)
		}
		kind := str(n.Fields["type"])
		at[n.ID] = len(g.Nodes)
		g.Nodes = append(g.Nodes, graphNode{ID: n.ID, Title: str(n.Record["title"]), Type: kind, X: round(x), Y: round(y), Question: n.ID == question})
	}
	for _, e := range edges {
		o := object(e)
		from, ok1 := at[str(o["from"])]
		to, ok2 := at[str(o["to"])]
		if !ok1 || !ok2 {
			continue
		}
		a, b := g.Nodes[from], g.Nodes[to]
		// From circle's edge to circle's edge, so the arrow shows.
		dx, dy := b.X-a.X, b.Y-a.Y
		d := math.Hypot(dx, dy)
		if d <= 2*nodeRadius {
			continue
		}
		ux, uy := dx/d*(nodeRadius+2), dy/d*(nodeRadius+2)
		g.Edges = append(g.Edges, graphEdge{Relation: label(o["relation"]), X1: round(a.X + ux), Y1: round(a.Y + uy), X2: round(b.X - ux), Y2: round(b.Y - uy),
			LX: round((a.X + b.X) / 2), LY: round((a.Y+b.Y)/2 - 6)})
	}
	return g
}

func round(f float64) float64 { return math.Round(f*10) / 10 }
