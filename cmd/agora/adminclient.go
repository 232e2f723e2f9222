package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/agora-node/agora/node"
)

// adminClient is how an admin command reaches the node's admin routes: the node's
// URL and where its admin token is.
type adminClient struct {
	url, data, tokenFile *string
	notFoundHint         string // what to do when the node answers 404
}

const adminFlagsUsage = "[--url URL] [--data DIR | --token-file FILE]"

// adminFlags adds the flags that say where the node and its admin token
// are; notFoundHint is what the command's user can do on a 404.
func adminFlags(fs *flag.FlagSet, notFoundHint string) *adminClient {
	return &adminClient{
		notFoundHint: notFoundHint,
		url:          fs.String("url", "http://127.0.0.1:8080", "the node's URL"),
		data:         fs.String("data", defaultDataDir, "the node's data folder, which holds its admin token"),
		tokenFile:    fs.String("token-file", "", "the file holding the admin token (default <data>/keys/admin.token)"),
	}
}

// adminError is a refusal from the node, or no answer at all, with
// what the user can do about it.
type adminError struct {
	status int // 0: no answer
	code   string
	msg    string
	hint   string
}

func (e *adminError) Error() string {
	if e.code != "" {
		return fmt.Sprintf("the node refused: %s (%s)", e.msg, e.code)
	}
	return e.msg
}

// call sends one admin request and decodes the answer into out.
func (m *adminClient) call(ctx context.Context, method, path string, body, out any) error {
	tokenPath := node.AdminTokenPath(*m.data)
	if *m.tokenFile != "" {
		tokenPath = *m.tokenFile
	}
	token, err := os.ReadFile(tokenPath)
	if err != nil {
		hint := "point --data at the node's data folder, or --token-file at its admin token"
		if !errors.Is(err, fs.ErrNotExist) {
			hint = ""
		}
		return &adminError{msg: fmt.Sprintf("reading the admin token: %v", err), hint: hint}
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encoding the request: %w", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(*m.url, "/")+path, rd)
	if err != nil {
		return &adminError{msg: err.Error(), hint: "give the node's URL as --url http://HOST:PORT"}
	}
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		return &adminError{msg: err.Error(), hint: "start the node with 'agora serve', or give its --url"}
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return &adminError{msg: fmt.Sprintf("reading the answer: %v", err)}
	}
	if resp.StatusCode/100 != 2 {
		var apiErr struct{ Error, Code string }
		if json.Unmarshal(answer, &apiErr) != nil || apiErr.Error == "" {
			apiErr.Error, apiErr.Code = resp.Status, "http"
		}
		e := &adminError{status: resp.StatusCode, code: apiErr.Code, msg: apiErr.Error}
		switch resp.StatusCode {
		case http.StatusUnauthorized:
			e.hint = "this is not the node's admin token: point --data at the node's data folder, or --token-file at its admin token"
		case http.StatusNotFound:
			e.hint = m.notFoundHint
		}
		return e
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return &adminError{msg: fmt.Sprintf("the node's answer is not what this agora reads: %v", err),
			hint: "is --url an Agora node of the same version?"}
	}
	return nil
}

// failAdmin reports err as fail does, with its hint.
func failAdmin(e *env, err error) int {
	var ae *adminError
	if errors.As(err, &ae) {
		return fail(e, 1, ae.hint, "%s", ae.Error())
	}
	return fail(e, 1, "", "%v", err)
}
