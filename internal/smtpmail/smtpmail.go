// Package smtpmail sends the node's mail (the links that confirm account
// requests, spec/ledger-protocol.md "Your person's account"), one
// plain-text message at a time, through an SMTP server (RFC 5321) with the standard library's
// net/smtp: STARTTLS when the server offers it, and AUTH PLAIN when a
// username is given (which net/smtp allows only over TLS or to a loopback
// server).
package smtpmail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/smtp"
	"strings"
	"time"
)

// DefaultTimeout bounds one message's whole exchange when the context has
// no deadline.
const DefaultTimeout = 30 * time.Second

// Sender sends mail through one server.
type Sender struct {
	Addr     string // host:port of the SMTP server
	From     string // the envelope and header sender, such as agora@example.org
	Username string // for AUTH PLAIN; "" sends none
	Password string
	// TLS configures STARTTLS; nil means the server's host name and the
	// system's roots.
	TLS *tls.Config
}

// Check reports whether s can be used: an address with a port and a From
// address without line breaks.
func (s *Sender) Check() error {
	if _, _, err := net.SplitHostPort(s.Addr); err != nil {
		return fmt.Errorf("smtpmail: the server %q is not host:port: %w", s.Addr, err)
	}
	if s.From == "" || strings.ContainsAny(s.From, "\r\n<> ") || !strings.Contains(s.From, "@") {
		return fmt.Errorf("smtpmail: the sender %q is not an address such as agora@example.org", s.From)
	}
	return nil
}

// Send sends one message to one address. to and subject must hold no line
// breaks; body is text, its lines ended by \n.
func (s *Sender) Send(ctx context.Context, to, subject, body string) error {
	if strings.ContainsAny(to, "\r\n") || strings.ContainsAny(subject, "\r\n") {
		return errors.New("smtpmail: a line break in the recipient or the subject")
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.Addr)
	if err != nil {
		return fmt.Errorf("smtpmail: dial %s: %w", s.Addr, err)
	}
	deadline, _ := ctx.Deadline()
	conn.SetDeadline(deadline)
	host, _, _ := net.SplitHostPort(s.Addr)
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("smtpmail: %s: %w", s.Addr, err)
	}
	defer c.Close()
	if err := s.exchange(c, host, to, subject, body); err != nil {
		return fmt.Errorf("smtpmail: %s: %w", s.Addr, err)
	}
	return nil
}

func (s *Sender) exchange(c *smtp.Client, host, to, subject, body string) error {
	if err := c.Hello("localhost"); err != nil {
		return err
	}
	if ok, _ := c.Extension("STARTTLS"); ok {
		cfg := s.TLS
		if cfg == nil {
			cfg = &tls.Config{ServerName: host}
		}
		if err := c.StartTLS(cfg); err != nil {
			return err
		}
	}
	if s.Username != "" {
		if err := c.Auth(smtp.PlainAuth("", s.Username, s.Password, host)); err != nil {
			return err
		}
	}
	if err := c.Mail(s.From); err != nil {
		return err
	}
	if err := c.Rcpt(to); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(Message(s.From, to, subject, body, time.Now())); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// Message returns the message Send sends: RFC 5322 headers and the body
// as UTF-8 text, lines ended by CRLF.
func Message(from, to, subject, body string, date time.Time) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\n", from, to, subject, date.UTC().Format(time.RFC1123Z))
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	b.WriteString(strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\n", "\r\n"))
	return []byte(b.String())
}
