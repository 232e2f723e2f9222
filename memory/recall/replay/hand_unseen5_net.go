package replay

import "time"

// psql, Make and curl: the socket that isn't there for two reasons, the
// Windows user name as the role, pg_dump older than the server; tabs,
// make on Windows; certificate chains behind a proxy and on macOS's
// python.org builds, legacy renegotiation.
func unseen5Net(h *hand) {
	h.note(Note{ID: "psql-socket-devc", Project: "ledgerline", OS: "linux", Lang: "sql", At: day(2022, time.December, 6),
		Title:   "psql in the devcontainer looks for a local socket",
		What:    "psql: error: connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed: No such file or directory",
		Why:     "postgres runs in the compose service `db`, not in the devcontainer; psql without -h tries the unix socket.",
		Learned: "PGHOST=db PGUSER=ledger in devcontainer.json's containerEnv, so plain psql works.",
		Where:   ".devcontainer/devcontainer.json"})
	h.note(Note{ID: "psql-socket-cluster", Project: "ledgerline", OS: "linux", Lang: "sql", At: day(2024, time.May, 2),
		Title:   "after the apt upgrade psql can't find the server",
		What:    "same `connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed: No such file or directory` on my Ubuntu box, no containers involved",
		Why:     "apt brought in postgresql-16 next to 15; the 15 cluster was stopped and the new 16 cluster took port 5433, so nothing listens on .s.PGSQL.5432.",
		Learned: "pg_lsclusters shows it. pg_upgradecluster 15 main, then pg_dropcluster 16 main --stop for the empty one, and the upgraded cluster gets 5432 back.",
		Fix:     "sudo pg_upgradecluster 15 main"})
	h.ask("psql-socket-devc/1", "ledgerline", "linux", "psql -c '\\dt'", `vscode ➜ /workspaces/ledgerline (main) $ psql -c '\dt'
psql: error: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: No such file or directory
	Is the server running locally and accepting connections on that socket?
vscode ➜ /workspaces/ledgerline (main) $ getent hosts db
172.19.0.2      db`, "psql-socket-devc", u5Cause)
	h.ask("psql-socket-cluster/1", "ledgerline", "linux", "psql ledger_dev", `psql: error: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: No such file or directory
	Is the server running locally and accepting connections on that socket?
$ pg_lsclusters
Ver Cluster Port Status Owner    Data directory              Log file
15  main    5432 down   postgres /var/lib/postgresql/15/main /var/log/postgresql/postgresql-15-main.log
16  main    5433 online postgres /var/lib/postgresql/16/main /var/log/postgresql/postgresql-16-main.log`, "psql-socket-cluster", u5Cause)

	h.note(Note{ID: "psql-win-user", Project: "harborview", OS: "windows", Lang: "sql", At: day(2023, time.February, 21),
		Title:   "psql on Windows logs in as my Windows user",
		What:    "password authentication failed for user \"Dev\"",
		Why:     "without -U, psql uses the OS user name; there's no role called Dev.",
		Learned: "psql -U postgres -h localhost, or set PGUSER. The 'Console code page (437) differs from Windows code page (1252)' warning before it is unrelated (chcp 1252 silences it).",
		Fix:     "psql -U postgres -h localhost harborview"})
	h.ask("psql-win-user/1", "harborview", "windows", "psql -h localhost harborview_test", u5crlf(`Password for user Dev: 
WARNING: Console code page (437) differs from Windows code page (1252)
         8-bit characters might not work correctly. See psql reference
         page "Notes for Windows users" for details.
psql: error: connection to server at "localhost" (::1), port 5432 failed: FATAL:  password authentication failed for user "Dev"`), "psql-win-user", u5Stored)
	h.ask("psql-pw-quill", "quillmate", "linux", "psql postgresql://quill:quill@localhost:5432/quill", `psql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: FATAL:  password authentication failed for user "quill"`, "", u5Other)

	h.note(Note{ID: "pgdump-version", Project: "nimbus-etl", OS: "linux", Lang: "sql", At: day(2025, time.November, 12),
		Title:   "nightly dump fails: pg_dump older than the server",
		What:    "pg_dump: error: aborting because of server version mismatch (server 17.2, pg_dump 16.6)",
		Why:     "RDS got upgraded to 17; the backup container has Debian's postgresql-client (16).",
		Learned: "Install postgresql-client-17 from the PGDG apt repo in the backup image. pg_dump must be >= server major; newer is fine.",
		Where:   "backup/Dockerfile"})
	h.ask("pgdump-version/1", "nimbus-etl", "linux", "pg_dump -Fc -f /backup/nimbus.dump \"$DATABASE_URL\"", `pg_dump: error: aborting because of server version mismatch
pg_dump: detail: server version: 17.4; pg_dump version: 15.10 (Debian 15.10-0+deb12u1)`, "pgdump-version", u5Stored)
	h.ask("pgrestore-role", "nimbus-etl", "linux", "pg_restore -d nimbus_staging /backup/nimbus.dump", `pg_restore: while PROCESSING TOC:
pg_restore: from TOC entry 4211; 0 0 ACL TABLE events nimbus
pg_restore: error: could not execute query: ERROR:  role "nimbus_ro" does not exist
Command was: GRANT SELECT ON TABLE public.events TO nimbus_ro;

pg_restore: warning: errors ignored on restore: 14`, "", u5Tool)
	h.ask("pg15-public", "ledgerline", "linux", "psql -U ledger_app -d ledger -f migrations/0042_holds.sql", `psql:migrations/0042_holds.sql:3: ERROR:  permission denied for schema public
LINE 1: CREATE TABLE holds (`, "", u5NeverFail)

	h.note(Note{ID: "make-tabs", Project: "bramble-docs", Scope: "global", OS: "linux", Lang: "make", At: day(2022, time.October, 18),
		Title:   "Makefile: missing separator",
		What:    "Makefile:14: *** missing separator.  Stop.",
		Why:     "the editor turned the recipe's tab into spaces.",
		Learned: "recipes must start with a real tab. .editorconfig: [Makefile] indent_style = tab. cat -A Makefile shows ^I for tabs.",
		Where:   "Makefile, .editorconfig"})
	h.ask("make-tabs/1", "ledgerline", "darwin", "make migrate", `Makefile:31: *** missing separator.  Stop.`, "make-tabs", u5Global)
	h.ask("make-norule", "ledgerline", "linux", "make generate", `make: *** No rule to make target 'generate'.  Stop.`, "", u5Generic)
	h.ask("make-test-fail", "harborview", "linux", "make test", `pytest -q
........F.......
=================================== FAILURES ===================================
_________________________ test_refund_partial_night __________________________
bookings/tests/test_refunds.py:48: in test_refund_partial_night
    assert refund.amount == Decimal("84.50")
E   AssertionError: assert Decimal('85.00') == Decimal('84.50')
=========================== short test summary info ============================
FAILED bookings/tests/test_refunds.py::test_refund_partial_night - AssertionError
1 failed, 15 passed in 3.02s
make: *** [Makefile:22: test] Error 1`, "", u5Generic)

	h.note(Note{ID: "make-windows", Project: "harborview", OS: "windows", Lang: "make", At: day(2024, time.September, 10),
		Title:   "no make on the Windows laptops",
		What:    "'make' is not recognized as an internal or external command",
		Why:     "Windows has no make.",
		Learned: "winget install ezwinports.make (GnuWin32 is ancient). The Makefile uses sh syntax, so run it from Git Bash, not cmd/PowerShell.",
		Fix:     "winget install ezwinports.make"})
	h.ask("make-windows/1", "harborview", "windows", "make migrate", u5crlf(`'make' is not recognized as an internal or external command,
operable program or batch file.`), "make-windows", u5Stored)

	h.note(Note{ID: "corp-ca", Project: "gridwatch", Scope: "global", OS: "linux", Lang: "shell", At: day(2024, time.January, 9),
		Title:   "TLS fails everywhere behind the office proxy",
		What:    "curl: (60) SSL certificate problem: unable to get local issuer certificate — same for pip, npm, go get on the office network",
		Why:     "the proxy re-signs TLS with the company root CA, which the system store doesn't have.",
		Learned: "Put the root CA in /usr/local/share/ca-certificates/corp-root.crt and update-ca-certificates. Tools with their own store need telling: REQUESTS_CA_BUNDLE / SSL_CERT_FILE for python, NODE_EXTRA_CA_CERTS for node, pip config set global.cert. Never -k / NODE_TLS_REJECT_UNAUTHORIZED=0.",
		Fix:     "sudo cp corp-root.crt /usr/local/share/ca-certificates/ && sudo update-ca-certificates"})
	h.note(Note{ID: "py-certs-mac", Project: "quillmate", Scope: "global", OS: "darwin", Lang: "python", At: day(2022, time.June, 14),
		Title:   "python.org python on mac: CERTIFICATE_VERIFY_FAILED",
		What:    "urllib / requests: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate",
		Why:     "the python.org installer's Python uses its own OpenSSL with no CA bundle until you run the bundled script.",
		Learned: "Run /Applications/Python 3.x/Install Certificates.command (installs certifi and links it). Homebrew pythons don't have this problem.",
		Fix:     `"/Applications/Python 3.11/Install Certificates.command"`})
	h.ask("corp-ca/1", "harborview", "linux", "curl -fsSL https://install.python-poetry.org | python3 -", `curl: (60) SSL certificate problem: unable to get local issuer certificate
More details here: https://curl.se/docs/sslcerts.html

curl failed to verify the legitimacy of the server and therefore could not
establish a secure connection to it. To learn more about this situation and
how to fix it, please visit the web page mentioned above.`, "corp-ca", u5Global)
	h.ask("corp-ca/2", "orchard-api", "linux", "npm install", `npm ERR! code UNABLE_TO_GET_ISSUER_CERT_LOCALLY
npm ERR! errno UNABLE_TO_GET_ISSUER_CERT_LOCALLY
npm ERR! request to https://registry.npmjs.org/express failed, reason: unable to get local issuer certificate

npm ERR! A complete log of this run can be found in: /home/jo/.npm/_logs/2024-03-05T08_41_09_772Z-debug-0.log`, "corp-ca", u5Global)
	h.ask("corp-ca/3", "nimbus-etl", "linux", "python -m nimbus.jobs.fetch_rates", `Traceback (most recent call last):
  File "/srv/nimbus-etl/.venv/lib/python3.12/site-packages/urllib3/connectionpool.py", line 464, in _make_request
    self._validate_conn(conn)
  ...
  File "/usr/lib/python3.12/ssl.py", line 1346, in do_handshake
    self._sslobj.do_handshake()
ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1000)
...
requests.exceptions.SSLError: HTTPSConnectionPool(host='api.rates.example.com', port=443): Max retries exceeded with url: /v2/daily (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1000)')))`, "corp-ca", u5Twin)
	h.ask("py-certs-mac/1", "nimbus-etl", "darwin", "python3 scripts/download_sample.py", `Traceback (most recent call last):
  File "/Library/Frameworks/Python.framework/Versions/3.12/lib/python3.12/urllib/request.py", line 1344, in do_open
    h.request(req.get_method(), req.selector, req.data, headers,
  File "/Library/Frameworks/Python.framework/Versions/3.12/lib/python3.12/http/client.py", line 1336, in request
    self._send_request(method, url, body, headers, encode_chunked)
  ...
  File "/Library/Frameworks/Python.framework/Versions/3.12/lib/python3.12/ssl.py", line 1346, in do_handshake
    self._sslobj.do_handshake()
ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1000)

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/Users/ana/nimbus-etl/scripts/download_sample.py", line 14, in <module>
    with urllib.request.urlopen(URL) as r:
urllib.error.URLError: <urlopen error [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1000)>`, "py-certs-mac", u5Twin)

	h.note(Note{ID: "legacy-reneg", Project: "kiln-deploy", OS: "linux", Lang: "shell", At: day(2026, time.March, 3),
		Title:   "curl to the old billing endpoint: unsafe legacy renegotiation",
		What:    "curl: (35) OpenSSL/3.0.13: error:0A000152:SSL routines::unsafe legacy renegotiation disabled",
		Why:     "the billing appliance's TLS stack doesn't do RFC 5746; OpenSSL 3 refuses by default. Nothing wrong with our certs.",
		Learned: "A tiny openssl config with Options = UnsafeLegacyServerConnect, used only for that call via OPENSSL_CONF=/etc/kiln/legacy-ssl.cnf. Ticket open with the vendor; don't set it globally.",
		Where:   "scripts/push-invoices.sh, /etc/kiln/legacy-ssl.cnf",
		Fix:     "OPENSSL_CONF=/etc/kiln/legacy-ssl.cnf curl ..."})
	h.ask("legacy-reneg/1", "kiln-deploy", "linux", "./scripts/push-invoices.sh 2026-03", `+ curl -fsS --retry 2 -X POST https://billing.internal.kiln.example:8443/api/invoices -H 'Content-Type: application/json' --data @out/invoices-2026-03.json
curl: (35) OpenSSL/3.0.13: error:0A000152:SSL routines::unsafe legacy renegotiation disabled
+ echo 'push failed' >&2
push failed`, "legacy-reneg", u5Stored)
	h.ask("curl-refused", "gridwatch", "linux", "curl -fsS localhost:8080/healthz", `curl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't connect to server`, "", u5NeverFail)
	h.ask("curl-expired", "kiln-deploy", "linux", "curl -fsS https://status.kiln.example/api/ping", `curl: (60) SSL certificate problem: certificate has expired
More details here: https://curl.se/docs/sslcerts.html

curl failed to verify the legitimacy of the server and therefore could not
establish a secure connection to it.`, "", u5NeverObj)
}
