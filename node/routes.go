package node

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/memory"
)

// ingressPrefix is where the memory contract's ingress routes live; what
// no route under it serves is answered in that contract's envelope.
const ingressPrefix = "/v1/agent-ingress/"

// unrouted answers what no route of mux serves in the error shape of the
// face the path belongs to, where Go's ServeMux would answer plain text: a
// path no pattern matches is 404 not_found, and a method no pattern at
// that path takes is 405 method_not_allowed with the Allow header the mux
// gives. Under ingressPrefix they are the memory contract's {"ok": false,
// "error"} (its closed list of codes names not_found, and bad_request for
// a method); everywhere else, / included, the spec's {"error", "code"}.
//
// The mux tells both apart from a route by the empty pattern Handler
// returns for them. Its handler for such a request is run into a
// recorder, so the mux keeps deciding which it is (and the Allow it
// computes); anything else it answers with an empty pattern, a redirect
// to a cleaned path, is passed on as it wrote it.
func unrouted(mux *http.ServeMux, logger *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r) // sets the request's pattern and path values
			return
		}
		rec := &httpapi.Capture{}
		h.ServeHTTP(rec, r)
		switch rec.Code() {
		case http.StatusNotFound, http.StatusMethodNotAllowed:
		default:
			rec.Replay(w)
			return
		}
		status := rec.Code()
		allow := rec.Header().Get("Allow")
		if allow != "" {
			w.Header().Set("Allow", allow)
		}
		if strings.HasPrefix(r.URL.Path, ingressPrefix) {
			var e *memory.Error
			if status == http.StatusNotFound {
				e = memory.NewError(memory.CodeNotFound, "no ingress route is at %.200s: events go to POST %s{adapter_id}/events/{kind}", r.URL.Path, ingressPrefix)
			} else {
				e = memory.NewError(memory.CodeBadRequest, "%s is not allowed here: send %s", r.Method, allow)
			}
			body, _ := memory.MarshalError(e)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write(body)
			return
		}
		if status == http.StatusNotFound {
			httpapi.WriteError(logger, w, r, httpapi.NotFound("No endpoint is at %.200s", r.URL.Path))
			return
		}
		httpapi.WriteError(logger, w, r, &httpapi.Error{Status: http.StatusMethodNotAllowed, Code: "method_not_allowed",
			Message: fmt.Sprintf("%s is not allowed at %.200s: use %s", r.Method, r.URL.Path, allow)})
	})
}
