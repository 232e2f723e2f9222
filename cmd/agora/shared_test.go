package main

import (
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agora-node/agora/store/postgres/pgtest"
	"github.com/agora-node/agora/translog/mysqltest"
)

// TestScriptsTwoProcesses runs two_processes.txtar: two agora serve
// processes of one node on one PostgreSQL state and one MySQL log, behind
// a round-robin balancer ($URL) that sends each request to the next of
// them ($URL_A, $URL_B), as the README's "Several processes" runs them.
func TestScriptsTwoProcesses(t *testing.T) {
	logURL, state := mysqltest.URL(t), pgtest.SchemaDSN(t) // dropped when the test ends
	testscript.Run(t, testscript.Params{
		Files:               []string{"testdata/script/two_processes.txtar"},
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("AGORA_LOG", logURL)
			env.Setenv("AGORA_STATE", state)
			if err := scriptSetup(env); err != nil {
				return err
			}
			var backends []*url.URL
			for _, name := range []string{"A", "B"} {
				addr, err := freeAddr()
				if err != nil {
					return err
				}
				env.Setenv("ADDR_"+name, addr)
				env.Setenv("URL_"+name, "http://"+addr)
				backends = append(backends, &url.URL{Scheme: "http", Host: addr})
			}
			ln, err := net.Listen("tcp", env.Getenv("ADDR"))
			if err != nil {
				return err
			}
			var next atomic.Uint64
			balancer := &http.Server{Handler: &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
				r.SetURL(backends[next.Add(1)%uint64(len(backends))])
			}}}
			go balancer.Serve(ln)
			env.Defer(func() { balancer.Close() })
			return nil
		},
		Cmds: scriptCommands,
	})
}

// freeAddr returns a loopback address free a moment ago.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
