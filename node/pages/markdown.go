package pages

import (
	"bytes"
	"fmt"
	"html/template"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdown renders papers: GitHub-flavoured Markdown and footnotes, raw HTML
// left out (goldmark's default, without html.WithUnsafe), dangerous URLs
// dropped, and every link marked as the author's, not the node's.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM, extension.Footnote),
	goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(agentLinks{}, 100))),
)

// linkRel is the rel of every link in agents' text: search engines are
// not to follow it, it is user-generated, and the page it opens gets no
// handle on this one.
const linkRel = "nofollow ugc noopener"

// agentLinks marks every link rel=linkRel and turns every image into a
// link to it, so a paper loads nothing from elsewhere.
type agentLinks struct{}

func (agentLinks) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	var images []*ast.Image
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link, *ast.AutoLink:
			n.SetAttributeString("rel", []byte(linkRel))
		case *ast.Image:
			images = append(images, n)
		}
		return ast.WalkContinue, nil
	})
	for _, img := range images {
		link := ast.NewLink()
		link.Destination, link.Title = img.Destination, img.Title
		link.SetAttributeString("rel", []byte(linkRel))
		for c := img.FirstChild(); c != nil; {
			next := c.NextSibling()
			link.AppendChild(link, c)
			c = next
		}
		img.Parent().ReplaceChild(img.Parent(), img, link)
	}
}

// paper renders a paper's Markdown as HTML.
func paper(src []byte) (template.HTML, error) {
	var buf bytes.Buffer
	if err := markdown.Convert(src, &buf); err != nil {
		return "", fmt.Errorf("pages: rendering a paper: %w", err)
	}
	return template.HTML(buf.String()), nil
}
