package library

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agora-node/agora/canonical"
)

// proposal checks a proposal's base and that the revision it proposes
// would be admitted now, as the base's author would publish it.
func (k *checker) proposal() error {
	f := k.f
	base, err := k.get(f.Base, "/body/base", "base")
	if err != nil {
		return err
	}
	research := k.r.Kind == kindResearchProposal
	switch {
	case research && base.Record.Kind != kindResearchMap:
		return k.fail(CodeProposalBase, "/body/base", "a research proposal is for a research map, not for %s", an(base.Record.Kind))
	case !research && !slices.Contains(proposable, base.Record.Kind):
		return k.fail(CodeProposalBase, "/body/base", "a proposal is for a %s, not for %s", orList(proposable), an(base.Record.Kind))
	}
	head, err := k.g.Head(k.ctx, base.Root)
	if err != nil {
		return fmt.Errorf("library: check: reading the head of %s: %w", base.Root, err)
	}
	if head != base.ID {
		return k.fail(CodeStaleBase, "/body/base", "the base %s is not the head of its lineage (%s): propose against the head", base.ID, head)
	}
	proposed := &Record{
		Format:     Format,
		Author:     base.Record.Author,
		AuthoredAt: base.Record.AuthoredAt,
		Kind:       base.Record.Kind,
		Previous:   base.ID,
	}
	var rebase func(string) string
	if research {
		body, err := canonical.Canonicalize(f.Snapshot)
		if err != nil {
			return fmt.Errorf("library: check: a valid snapshot: %w", err)
		}
		proposed.Title = base.Record.Title
		proposed.Body = string(body)
		proposed.Links = linksOf(base.Record.Links, []string{"contained_in", "forks_from"})
		rebase = func(p string) string {
			switch {
			case strings.HasPrefix(p, "/body"):
				return "/body/snapshot" + strings.TrimPrefix(p, "/body")
			case p == "/previous":
				return "/body/base"
			}
			return ""
		}
	} else {
		for i, l := range f.Links {
			if l.Relation == "merges" {
				return k.fail(CodeLinkNotAllowed, fmt.Sprintf("/body/links/%d/relation", i), "proposed links cannot merge: the merge adds its own merges link")
			}
		}
		body, err := canonical.Canonicalize(f.Body)
		if err != nil {
			return fmt.Errorf("library: check: a valid proposed body: %w", err)
		}
		proposed.Title = f.Title
		proposed.Body = string(body)
		proposed.Links = slices.Clone(f.Links)
		if proposed.Links == nil {
			proposed.Links = []Link{}
		}
		rebase = func(p string) string {
			for _, member := range []string{"/title", "/body", "/links"} {
				if p == member || strings.HasPrefix(p, member+"/") {
					return "/body" + p
				}
			}
			if p == "/previous" || p == "/kind" {
				return "/body/base"
			}
			return "/body"
		}
	}
	err = Check(k.ctx, proposed, k.g)
	var re *RuleError
	var ce *ContentError
	switch {
	case errors.As(err, &re):
		return &RuleError{Code: re.Code, Path: rebase(re.Path), Message: "the proposed revision would be refused: " + re.Message}
	case errors.As(err, &ce):
		issues := make([]Issue, len(ce.Issues))
		for i, is := range ce.Issues {
			issues[i] = Issue{Path: rebase(is.Path), Code: is.Code, Message: is.Message}
		}
		return &ContentError{Issues: issues}
	}
	return err
}

// proposalKind is the kind of proposal a lineage of kind takes.
func proposalKind(kind string) string {
	if kind == kindResearchMap {
		return kindResearchProposal
	}
	return kindProposal
}

// merge checks a merge against the proposal it merges; lineage has checked
// that its base is the head and previous a revision of it.
func (k *checker) merge() error {
	r := k.r
	i := slices.IndexFunc(r.Links, func(l Link) bool { return l.Relation == "merges" })
	path := fmt.Sprintf("/links/%d/target", i)
	p, err := k.get(r.Links[i].Target, path, "merged proposal")
	if err != nil {
		return err
	}
	want := proposalKind(r.Kind)
	if p.Record.Kind != want {
		return k.fail(CodeMergeTarget, path, "%s merges %s, not %s", an(r.Kind), an(want), an(p.Record.Kind))
	}
	pf, err := k.fieldsOf(p)
	if err != nil {
		return err
	}
	if pf.Base != r.Previous {
		return k.fail(CodeMergePrevious, "/previous", "a merge's previous is the proposal's base, %s", pf.Base)
	}
	if r.Kind == kindResearchMap {
		snapshot, err := canonical.Canonicalize(pf.Snapshot)
		if err != nil {
			return fmt.Errorf("library: check: stored proposal %s: %w", p.ID, err)
		}
		if r.Body != string(snapshot) {
			return k.fail(CodeMergeContent, "/body", "a merged map's body is exactly the proposal's snapshot")
		}
		return nil
	}
	body, err := canonical.Canonicalize(pf.Body)
	if err != nil {
		return fmt.Errorf("library: check: stored proposal %s: %w", p.ID, err)
	}
	switch {
	case r.Title != pf.Title:
		return k.fail(CodeMergeContent, "/title", "a merge's title is exactly the proposed title, %q", pf.Title)
	case r.Body != string(body):
		return k.fail(CodeMergeContent, "/body", "a merge's body is exactly the proposed body")
	}
	mine := slices.DeleteFunc(slices.Clone(r.Links), func(l Link) bool { return l.Relation == "merges" })
	proposed := slices.Clone(pf.Links)
	slices.SortFunc(mine, compareLinks)
	slices.SortFunc(proposed, compareLinks)
	if !slices.Equal(mine, proposed) {
		return k.fail(CodeMergeContent, "/links", "a merge's links are exactly the proposed links plus merges: %s", describeLinks(proposed))
	}
	return nil
}
