package replay_test
import ("testing";"fmt";"github.com/agora-node/agora/memory/recall";"github.com/agora-node/agora/memory/recall/replay")
func TestZZ2(t *testing.T){
 c := replay.Build()
 for _, n := range c.Notes { if n.ID=="rust-unresolved/8" {
  fmt.Printf("WHAT %q\nWHY %q\nWHERE %q\nL %q\n-> %q\n", n.What, n.Why, n.Where, n.Learned, recall.NoteErrorText(n.What,n.Why,n.Where,n.Learned)) }}
 for _, q := range c.Queries { if q.ID[:4]=="q083" { fmt.Printf("%q\n", q.Tail) } }
}
