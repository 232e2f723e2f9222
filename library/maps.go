package library

import (
	"fmt"
	"slices"
)

// researchMap checks a map body, at path at: the record's own body, or a
// proposal's snapshot.
func (k *checker) researchMap(m fields, at string) error {
	if !slices.Contains(m.Nodes, m.Question) {
		return k.fail(CodeMapQuestion, at+"/question", "a map contains its question node: add %s to nodes", m.Question)
	}
	lineage := map[string]int{} // root → index in nodes
	for i, id := range m.Nodes {
		path := fmt.Sprintf("%s/nodes/%d", at, i)
		s, err := k.get(id, path, "node")
		if err != nil {
			return err
		}
		if s.Record.Kind != kindResearchNode {
			return k.fail(CodeMapNode, path, "a map's nodes are research nodes, not %s", an(s.Record.Kind))
		}
		if j, ok := lineage[s.Root]; ok {
			return k.fail(CodeMapLineage, path, "nodes %d and %d are revisions of one node (%s); a map pins one", j, i, s.Root)
		}
		lineage[s.Root] = i
		if id == m.Question {
			nf, err := k.fieldsOf(s)
			if err != nil {
				return err
			}
			if nf.Type != "question" {
				return k.fail(CodeMapQuestion, at+"/question", "the question is a research node of type question, not %s", nf.Type)
			}
		}
	}
	index := make(map[string]int, len(m.Nodes))
	for i, id := range m.Nodes {
		index[id] = i
	}
	seen := map[mapEdge]int{}
	for j, e := range m.Edges {
		path := fmt.Sprintf("%s/edges/%d", at, j)
		if _, ok := index[e.From]; !ok {
			return k.fail(CodeMapEdge, path+"/from", "%s is not one of the map's nodes", e.From)
		}
		if _, ok := index[e.To]; !ok {
			return k.fail(CodeMapEdge, path+"/to", "%s is not one of the map's nodes", e.To)
		}
		if e.From == e.To {
			return k.fail(CodeMapSelfEdge, path, "an edge joins two nodes, not a node to itself")
		}
		if i, ok := seen[e]; ok {
			return k.fail(CodeMapDuplicateEdge, path, "repeats edge %d", i)
		}
		seen[e] = j
	}
	if i := unconnected(m.Nodes, m.Edges, index); i >= 0 {
		return k.fail(CodeMapDisconnected, fmt.Sprintf("%s/nodes/%d", at, i), "node %d is not connected to node 0 by any path of edges; a map's nodes are connected", i)
	}
	if cycle := dependencyCycle(m.Nodes, m.Edges, index); cycle != nil {
		return k.fail(CodeMapDependencyCycle, at+"/edges", "depends_on edges make a cycle through nodes %v", cycle)
	}
	assessed := map[string]int{} // node → index in assessments
	for a, id := range m.Assessments {
		path := fmt.Sprintf("%s/assessments/%d", at, a)
		s, err := k.get(id, path, "assessment")
		if err != nil {
			return err
		}
		if s.Record.Kind != kindResearchAssessment {
			return k.fail(CodeMapAssessment, path, "a map selects research assessments, not %s", an(s.Record.Kind))
		}
		af, err := k.fieldsOf(s)
		if err != nil {
			return err
		}
		if _, ok := index[af.Node]; !ok {
			return k.fail(CodeMapAssessment, path, "the assessment is of %s, which is not one of the map's exact nodes", af.Node)
		}
		if b, ok := assessed[af.Node]; ok {
			return k.fail(CodeMapAssessmentDuplicate, path, "assessments %d and %d are of one node; a map selects at most one per node", b, a)
		}
		assessed[af.Node] = a
	}
	return nil
}

// unconnected returns the index of a node no path of edges (taken both
// ways) joins to node 0, or -1 if they are all joined.
func unconnected(nodes []string, edges []mapEdge, index map[string]int) int {
	parent := make([]int, len(nodes))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, e := range edges {
		parent[find(index[e.From])] = find(index[e.To])
	}
	for i := range nodes {
		if find(i) != find(0) {
			return i
		}
	}
	return -1
}

// dependencyCycle returns the node indexes of a cycle of depends_on edges,
// or nil if there is none.
func dependencyCycle(nodes []string, edges []mapEdge, index map[string]int) []int {
	next := make([][]int, len(nodes))
	for _, e := range edges {
		if e.Relation == "depends_on" {
			next[index[e.From]] = append(next[index[e.From]], index[e.To])
		}
	}
	const (
		unvisited = iota
		onPath
		done
	)
	state := make([]int, len(nodes))
	var path []int
	var visit func(int) []int
	visit = func(i int) []int {
		state[i] = onPath
		path = append(path, i)
		for _, j := range next[i] {
			switch state[j] {
			case onPath:
				start := slices.Index(path, j)
				return append(slices.Clone(path[start:]), j)
			case unvisited:
				if c := visit(j); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[i] = done
		return nil
	}
	for i := range nodes {
		if state[i] == unvisited {
			if c := visit(i); c != nil {
				return c
			}
		}
	}
	return nil
}
