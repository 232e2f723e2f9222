package main

import (
	"context"
	"fmt"
)

// agora memory share and unshare: the admin lets every adapter's sessions
// read a record, and supersede it, having read it (agora memory show); or
// takes that back. A record belongs to the adapter that wrote it, and
// other adapters see it only when shared or when their profile's reads
// names its adapter (memory/profile.md).

func memoryShareCommand(share bool) *command {
	name, summary := "share", "let every adapter's sessions read a record (its current revision), and supersede it"
	if !share {
		name, summary = "unshare", "take a share back: only the record's own adapter (and profiles reading it) see it"
	}
	c := newCommand(name, "agora memory "+name+" <lr_ref> "+adminFlagsUsage, summary,
		"a new revision of a shared record is not shared until shared again")
	admin := c.admin(memoryNotFoundHint)
	c.run = func(ctx context.Context, e *env, args []string) int {
		ref, code := memoryRef(c, e, args)
		if ref == "" {
			return code
		}
		cl, code := admin.client(e)
		if code != 0 {
			return code
		}
		rec, err := cl.ShareMemoryRecord(ctx, ref, share)
		if err != nil {
			return admin.fail(e, err)
		}
		if share {
			fmt.Fprintf(e.stdout, "Shared %s %q (revision %d): every adapter's sessions may read it now.\n", rec.RecordRef, rec.Title, rec.Revision)
		} else {
			fmt.Fprintf(e.stdout, "Unshared %s %q: only its own adapter's sessions (and profiles reading that adapter) see it.\n", rec.RecordRef, rec.Title)
		}
		fmt.Fprintf(e.stdout, "provenance: %s\n", rec.ProvenanceLabel)
		return 0
	}
	return c
}
