package httpapi

import (
	"bytes"
	"net/http"
	"time"
)

// Capture is an http.ResponseWriter that keeps a handler's answer in
// memory, for a front end that runs a route in-process (the MCP server,
// the pages, the node's unrouted answers): its status, its header and up
// to Limit bytes of its body, all of it when Limit is 0. What is written
// past Limit is counted as written and dropped, and Over says so.
type Capture struct {
	Status int // 0 until the handler writes
	Body   bytes.Buffer
	Limit  int
	Over   bool

	header http.Header
}

func (c *Capture) Header() http.Header {
	if c.header == nil {
		c.header = http.Header{}
	}
	return c.header
}

func (c *Capture) WriteHeader(status int) {
	if c.Status == 0 {
		c.Status = status
	}
}

func (c *Capture) Write(b []byte) (int, error) {
	c.WriteHeader(http.StatusOK)
	keep := b
	if c.Limit > 0 {
		if room := c.Limit - c.Body.Len(); len(b) > room {
			keep, c.Over = b[:max(room, 0)], true
		}
	}
	c.Body.Write(keep)
	return len(b), nil
}

// SetReadDeadline and SetWriteDeadline let a route that sizes its
// transfer's deadlines (http.ResponseController) run without a warning:
// the outer request's own deadlines hold.
func (c *Capture) SetReadDeadline(time.Time) error  { return nil }
func (c *Capture) SetWriteDeadline(time.Time) error { return nil }

// Code is the status the handler answered with: 200 when it wrote
// nothing else.
func (c *Capture) Code() int {
	if c.Status == 0 {
		return http.StatusOK
	}
	return c.Status
}

// Replay writes what c kept to w.
func (c *Capture) Replay(w http.ResponseWriter) {
	for k, v := range c.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(c.Code())
	w.Write(c.Body.Bytes())
}
