package node

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/agora-node/agora/node/llms"
	"github.com/agora-node/agora/node/mcpread"
	htmlpages "github.com/agora-node/agora/node/pages"
)

// mountReaders serves the reads that span the faces: the MCP server at
// /mcp, whose tools run the faces' own read functions, and the
// instructions for agents at /llms.txt, and the pages for people
// (node/pages).
func (n *Node) mountReaders() error {
	ledger := n.ledger.ReadFuncs()
	mcp, err := mcpread.New(mcpread.Deps{
		Ledger: ledger, File: n.ledger.FileHandler(), Library: n.library.ReadFuncs(), Memory: n.memory.Handle,
		Logger: n.logger, MaxBodyBytes: n.cfg.MaxBodyBytes, Version: moduleVersion(),
	})
	if err != nil {
		return fmt.Errorf("node: %w", err)
	}
	n.mux.Handle("POST "+mcpread.Path, mcp)
	llms.Mount(n.mux, llms.Deps{PublicURL: n.cfg.PublicURL, LogID: n.logID, Vocabulary: ledger["GET /api/v1/vocabulary"], Logger: n.logger})
	// The pages for people read the API itself, in-process, so they show
	// its data and its refusals (package pages lists their paths).
	p, err := htmlpages.New(htmlpages.Deps{API: n.mux, LogID: n.logID, AdminToken: n.cfg.AdminToken,
		SecureCookies: strings.HasPrefix(n.cfg.PublicURL, "https://"), Logger: n.logger, Now: n.now, AgentForms: n.agentForms})
	if err != nil {
		return fmt.Errorf("node: %w", err)
	}
	p.Mount(n.mux)
	return nil
}

// moduleVersion is agora's version as the build recorded it, for MCP
// clients to be told.
func moduleVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
