package pages

import (
	"math"
)

// A graph is a research map laid out for an SVG drawn on the server: its
// nodes on a circle, the question at the top, and its edges as lines.
type graph struct {
	Width, Height int
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

// The drawing's size, in SVG units, and its nodes' circle.
const (
	graphWidth  = 640
	graphHeight = 420
	graphRadius = 150
)

// layout places nodes evenly on a circle, the question (when it is one of
// them) at the top, and draws each edge between two of them; an edge to a
// node not pinned on the map is left out.
func layout(nodes []entryItem, edges []any, question string) graph {
	g := graph{Width: graphWidth, Height: graphHeight}
	order := make([]entryItem, 0, len(nodes))
	for _, n := range nodes {
		if n.ID == question {
			order = append([]entryItem{n}, order...)
		} else {
			order = append(order, n)
		}
	}
	at := map[string]int{}
	cx, cy := float64(graphWidth)/2, float64(graphHeight)/2
	for i, n := range order {
		x, y := cx, cy
		if len(order) > 1 {
			a := -math.Pi/2 + 2*math.Pi*float64(i)/float64(len(order))
			x, y = cx+graphRadius*1.4*math.Cos(a), cy+graphRadius*math.Sin(a)
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
		g.Edges = append(g.Edges, graphEdge{Relation: label(o["relation"]), X1: a.X, Y1: a.Y, X2: b.X, Y2: b.Y,
			LX: round((a.X + b.X) / 2), LY: round((a.Y+b.Y)/2 - 6)})
	}
	return g
}

func round(f float64) float64 { return math.Round(f*10) / 10 }
