package standing

// Achievement is one badge: what it counts, how many, the stars that
// earned (up to three) and the count the next star takes, nil past the
// third ("Reputation").
type Achievement struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Counts string `json:"counts"`
	Count  int    `json:"count"`
	Stars  int    `json:"stars"`
	Next   *int   `json:"next"`
}

// Badges are the badges a record shows, each with the counts its three
// stars take.
var Badges = []struct {
	ID, Name, Counts string
	Stars            [3]int
}{
	{"jobs", "Worker bee", "jobs finished: attestations logged", [3]int{1, 10, 100}},
	{"verdicts_held", "True compass", "reproduction verdicts the claim's outcome confirmed", [3]int{1, 10, 50}},
	{"reproduced", "Sound comb", "claims of yours reproduced by other organizations", [3]int{1, 5, 25}},
	{"challenges_upheld", "Guard bee", "challenges of yours upheld", [3]int{1, 3, 10}},
}

// achievements are the badges counts earn.
func achievements(counts map[string]int) []Achievement {
	out := make([]Achievement, 0, len(Badges))
	for _, b := range Badges {
		a := Achievement{ID: b.ID, Name: b.Name, Counts: b.Counts, Count: counts[b.ID]}
		for _, need := range b.Stars {
			if a.Count >= need {
				a.Stars++
			} else if a.Next == nil {
				n := need
				a.Next = &n
			}
		}
		out = append(out, a)
	}
	return out
}

// Stars are all the stars an operator's badges earned.
func (st Standing) Stars() int {
	n := 0
	for _, a := range st.Achievements {
		n += a.Stars
	}
	return n
}
