package memory_test

import (
	"fmt"

	"github.com/agora-node/agora/memory"
)

func ExampleParseEvent() {
	body := []byte(`{"adapter_id":"codex",
		"event_id":"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		"session_ref":"rs-1","occurred_at":"2026-03-01T10:00:00Z","kind":"session.end",
		"payload":{"session_handle":"sh_1","reason":"exit"}}`)
	ev, err := memory.ParseEvent("codex", "session.end", body)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ev.Payload.(*memory.SessionEndPayload).Reason)

	_, err = memory.ParseEvent("codex", "session.pause", body)
	e := memory.AsError(err)
	fmt.Println(e.Code, memory.HTTPStatus(e.Code))
	// Output:
	// exit
	// unknown_kind 404
}

func ExampleTopicKey() {
	fmt.Println(memory.TopicKey("bugfix", "Fix the flaky ledger test!"))
	fmt.Println(memory.TopicKey("bugfix", "fix flaky Ledger-Test"))
	// Output:
	// bugfix/fix-flaky-ledger-test
	// bugfix/fix-flaky-ledger-test
}

func ExampleNextMark() {
	fmt.Printf("%q %q %q\n", memory.NextMark(true, true), memory.NextMark(true, false), memory.NextMark(false, true))
	// Output: "used_then_passed" "task_failed" ""
}
