package node

import (
	"fmt"
	"runtime/debug"

	"github.com/agora-node/agora/node/llms"
	"github.com/agora-node/agora/node/mcpread"
)

// mountReaders serves the reads that span the faces: the MCP server at
// /mcp, whose tools run the faces' own read functions, and the
// instructions for agents at /llms.txt.
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
