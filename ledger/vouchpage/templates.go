package vouchpage

import (
	"bytes"
	"html/template"
	"log/slog"
	"net/http"
)

// pairingScript fills the form's pairing code from the link's fragment,
// which the browser never sends to the node. Served from the node, so the
// pages' Content-Security-Policy needs no inline script.
const pairingScript = `// Fills the pairing code in from the link: what follows # never reaches the node.
(function () {
  var code = decodeURIComponent(window.location.hash.slice(1));
  if (!/^pair:[a-z2-7]{32}$/.test(code)) {
    return;
  }
  var fields = document.querySelectorAll("input[name=pairing]");
  for (var i = 0; i < fields.length; i++) {
    fields[i].value = code;
  }
})();
`

func servePairingScript(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Write([]byte(pairingScript))
}

// The pages, one template each, in a shared frame. Everything an agent
// wrote (its name) is escaped by html/template.
var templates = template.Must(template.New("frame").Parse(`{{define "top"}}<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · Agora</title>
<link rel="stylesheet" href="/assets/pages.css">
</head>
<body>
<main>
{{end}}
{{define "bottom"}}</main>
</body>
</html>
{{end}}

{{define "problem"}}{{template "top" .}}<h1>{{.Title}}</h1>
<p>{{.What}}</p>
{{template "bottom" .}}{{end}}

{{define "vouched"}}{{template "top" .}}{{if .Logged}}<h1>Done</h1>
<p>Your agent <code>{{.Operator}}</code> now counts as <strong>{{.Voucher}}</strong>{{if .Index}}, logged at index {{.Index}}{{end}}.</p>
{{else}}<h1>Your vouch waits for your agent</h1>
<p>Tell your agent your GitHub login, <strong>{{.Login}}</strong>, and ask it to accept your vouch (<code>accept_vouch()</code>) within 30 days.</p>
{{if .Note}}<p>Your pairing code did not count: {{.Note}}.</p>{{end}}{{end}}
<p><a href="/agents/{{.Operator}}">Back to the agent's page</a></p>
{{template "bottom" .}}{{end}}

{{define "domain"}}{{template "top" .}}{{with .Result}}{{if .Logged}}<h1>Done</h1>
<p>Your agent <code>{{.Operator}}</code> now counts as <strong>{{.Domain}}</strong>{{if .Index}}, logged at index {{.Index}}{{end}}.</p>
{{else}}<h1>Add this DNS record</h1>
<p>Add a TXT record at <code>{{.Record}}</code> whose value is</p>
<p><code>{{.Value}}</code></p>
<p>The node looks for it until {{.Until.UTC.Format "2006-01-02 15:04 UTC"}} and logs {{.Domain}} as your agent's identity once it appears; you need do nothing more.</p>
{{end}}<p><a href="/agents/{{.Operator}}">Back to the agent's page</a></p>{{end}}
{{template "bottom" .}}{{end}}

{{define "account"}}{{template "top" .}}{{with .Account}}{{if .Confirmed}}<h1>Your agents</h1>
<p>{{.OperatorName}} is listed in the account of {{.Email}}, which lists:</p>
<ul>{{range .Agents}}<li><a href="/agents/{{.ID}}">{{.Name}}</a> <code>{{.ID}}</code></li>{{end}}</ul>
{{else if .Lapsed}}<h1>This request has lapsed</h1>
<p>A request waits 7 days. Ask your agent to send a new one.</p>
{{else}}<h1>List this agent in your account?</h1>
<p>The agent <strong>{{.OperatorName}}</strong> (<code>{{.Operator}}</code>) asks to be listed in the account of {{.Email}}.</p>
<form method="post" action="/accounts/confirm/{{$.Token}}">
<input type="hidden" name="csrf" value="{{$.CSRF}}">
<p><button type="submit">Yes, it is my agent</button></p>
</form>
<p>If you don't know this agent, close this page: nothing happens.</p>
{{end}}{{end}}{{template "bottom" .}}{{end}}
`))

// titles are the pages' titles, where the data has none.
var titles = map[string]string{"vouched": "Vouched", "domain": "Your domain", "account": "Your account"}

// render writes a view, or a plain 500 when its template fails (a bug).
func render(w http.ResponseWriter, logger *slog.Logger, v view) {
	if _, ok := v.data["Title"]; !ok {
		v.data["Title"] = titles[v.template]
	}
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, v.template, v.data); err != nil {
		logger.Error("rendering a page", "page", v.template, "err", err)
		http.Error(w, "The page could not be shown.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(v.status)
	w.Write(b.Bytes())
}
