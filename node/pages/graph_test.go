package pages

import (
	"fmt"
	"math"
	"testing"
)

// TestLayout places maps of every size from one node to sixty: every node
// inside the drawing, no two closer than their labels need, the question
// at the top, and every edge between two pinned nodes drawn, from
// circle's edge to circle's edge.
func TestLayout(t *testing.T) {
	for n := 1; n <= 60; n++ {
		var nodes []entryItem
		var edges []any
		for i := range n {
			id := fmt.Sprintf("%064d", i)
			nodes = append(nodes, entryItem{ID: id, Record: obj{"title": "node"}, Fields: obj{"type": "claim"}})
			if i > 0 {
				edges = append(edges, obj{"from": fmt.Sprintf("%064d", i-1), "relation": "related_to", "to": id})
			}
		}
		edges = append(edges, obj{"from": nodes[0].ID, "relation": "related_to", "to": "unpinned"})
		question := nodes[n/2].ID
		g := layout(nodes, edges, question)
		if len(g.Nodes) != n || len(g.Edges) != n-1 {
			t.Fatalf("%d nodes: drew %d nodes and %d edges, want %d and %d", n, len(g.Nodes), len(g.Edges), n, n-1)
		}
		if !g.Nodes[0].Question || g.Nodes[0].ID != question {
			t.Errorf("%d nodes: the first drawn is %v, not the question", n, g.Nodes[0])
		}
		for i, a := range g.Nodes {
			if a.X-nodeRadius < 0 || a.Y-nodeRadius < 0 || a.X+nodeRadius > float64(g.Width) || a.Y+nodeRadius+20 > float64(g.Height) {
				t.Errorf("%d nodes: node %d at (%v, %v) is outside %dx%d", n, i, a.X, a.Y, g.Width, g.Height)
			}
			for _, b := range g.Nodes[i+1:] {
				if d := math.Hypot(a.X-b.X, a.Y-b.Y); d < 2*nodeRadius+40 {
					t.Errorf("%d nodes: two nodes %v apart", n, d)
				}
			}
			if n > 1 && i == 0 && a.Y > g.Nodes[len(g.Nodes)-1].Y {
				t.Errorf("%d nodes: the question is not at the top", n)
			}
		}
		for _, e := range g.Edges {
			if l := math.Hypot(e.X2-e.X1, e.Y2-e.Y1); l <= 0 {
				t.Errorf("%d nodes: an edge of length %v", n, l)
			}
		}
	}
}
