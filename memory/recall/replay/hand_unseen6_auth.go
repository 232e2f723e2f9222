package replay

import "time"

// TLS, OAuth and JWT errors, locales, time zones and encodings, across
// the product projects.
func unseen6Auth(h *hand) {
	h.note(Note{ID: "au-jwt-clock", Project: "ledgerline", OS: "linux", Lang: "kotlin", At: day(2024, time.February, 13),
		Title:   "local API rejects fresh tokens: Jwt used before / expired (WSL clock)",
		What:    "Every request 401s locally; the resource server logs §An error occurred while attempting to decode the Jwt: Jwt used before 2024-02-13T08:41:07Z§. Keycloak just issued that token.",
		Why:     "WSL2's clock drifts after the laptop sleeps (was ~4 minutes behind); nbf/iat are in the VM's future. Spring's default clock skew is 60s.",
		Learned: "resync the VM clock: sudo hwclock -s (or wsl --shutdown). timedatectl shows 'System clock synchronized: no' when it's this. Don't widen the skew in JwtTimestampValidator to paper over it.",
		Fix:     "sudo hwclock -s"})
	h.note(Note{ID: "au-jwt-fixture", Project: "ledgerline", OS: "darwin", Lang: "kotlin", At: day(2025, time.February, 20),
		Title:   "integration tests suddenly 401: the checked-in test JWTs expired",
		What:    "StatementApiIT and friends fail with §Jwt expired at 2025-02-19T00:00:00Z§, nothing changed in the code",
		Why:     "src/test/resources/tokens/*.jwt were minted a year ago with a one year exp. Not a clock problem.",
		Where:   "src/test/resources/tokens/, src/test/kotlin/io/ledgerline/support/TestTokens.kt",
		Learned: "Mint test tokens at test time with Nimbus (RSAKey generated per run, exp = now + 5m) and point the resource server's jwk-set-uri at a MockWebServer / or use spring-security-test's jwt() post processor for MockMvc. Deleted the static token files.",
	})
	h.ask("au-jwt-clock/1", "ledgerline", "linux", "curl -si -H \"Authorization: Bearer $TOKEN\" localhost:8080/api/statements", `HTTP/1.1 401 
WWW-Authenticate: Bearer error="invalid_token", error_description="An error occurred while attempting to decode the Jwt: Jwt used before 2024-06-04T07:12:55Z", error_uri="https://tools.ietf.org/html/rfc6750#section-3.1"
X-Content-Type-Options: nosniff
Content-Length: 0
Date: Tue, 04 Jun 2024 07:09:31 GMT

$ timedatectl
               Local time: Tue 2024-06-04 07:09:31 UTC
           Universal time: Tue 2024-06-04 07:09:31 UTC
                 RTC time: Tue 2024-06-04 07:13:02
                Time zone: Etc/UTC (UTC, +0000)
System clock synchronized: no
              NTP service: inactive`, "au-jwt-clock", "same text, another cause")
	h.ask("au-jwt-fixture/1", "ledgerline", "darwin", "./gradlew integrationTest", `> Task :integrationTest

AccountApiIT > lists accounts for owner() FAILED
    java.lang.AssertionError: Status expected:<200> but was:<401>
        at org.springframework.test.util.AssertionErrors.fail(AssertionErrors.java:59)
        at org.springframework.test.web.servlet.result.StatusResultMatchers.lambda$matcher$9(StatusResultMatchers.java:637)

    2026-03-02T10:14:21.447+01:00 DEBUG 7713 --- [    Test worker] o.s.s.o.s.r.a.JwtAuthenticationProvider  : Failed to authenticate since the JWT was invalid
    org.springframework.security.oauth2.jwt.JwtValidationException: An error occurred while attempting to decode the Jwt: Jwt expired at 2026-02-28T00:00:00Z
    token source: classpath:tokens/owner.jwt

FeeApiIT > rejects foreign account() FAILED
    java.lang.AssertionError: Status expected:<403> but was:<401>

27 tests completed, 19 failed

FAILURE: Build failed with an exception.`, "au-jwt-fixture", "same text, another cause")

	h.note(Note{ID: "au-oauth-redirect", Project: "storefront-next", OS: "darwin", Lang: "typescript", At: day(2023, time.October, 3),
		Title:   "Google sign-in on preview deployments: redirect_uri_mismatch",
		What:    "next-auth OAUTH_CALLBACK_ERROR on preview URLs, Google shows Error 400: redirect_uri_mismatch",
		Why:     "NEXTAUTH_URL was hardcoded to https://staging.storefront.dev in the preview env so the callback sent to Google is staging's; and preview hosts aren't registered in the OAuth client anyway",
		Learned: "previews can't do Google OAuth with per-deploy URLs; we route previews through a fixed auth.preview.storefront.dev proxy whose /api/auth/callback/google is registered. NEXTAUTH_URL must match the host the user is actually on.",
	})
	h.ask("au-oauth-redirect/1", "storefront-next", "linux", "vercel logs storefront-next-git-feat-wishlist-acme.vercel.app", `2024-11-19 14:02:11.812 ERR  [next-auth][error][OAUTH_CALLBACK_ERROR] 
https://next-auth.js.org/errors#oauth_callback_error redirect_uri_mismatch {
  error: OPError: redirect_uri_mismatch
      at processResponse (/var/task/node_modules/openid-client/lib/helpers/process_response.js:38:13)
      at Client.grant (/var/task/node_modules/openid-client/lib/client.js:1355:22)
      at async Client.oauthCallback (/var/task/node_modules/openid-client/lib/client.js:612:24) {
    error: 'redirect_uri_mismatch',
    error_description: 'Bad Request'
  },
  providerId: 'google',
  message: 'redirect_uri_mismatch'
}`, "au-oauth-redirect", "hand: stored")
	h.ask("au-oauth-invalid-grant/1", "mailroom", "linux", "python -m mailroom.sync_gmail --account support@mailroom.io", `Traceback (most recent call last):
  File "/srv/mailroom/mailroom/sync_gmail.py", line 52, in main
    creds.refresh(Request())
  File "/srv/mailroom/.venv/lib/python3.12/site-packages/google/oauth2/credentials.py", line 409, in refresh
    ) = reauth.refresh_grant(
  File "/srv/mailroom/.venv/lib/python3.12/site-packages/google/oauth2/_client.py", line 69, in _handle_error_response
    raise exceptions.RefreshError(
google.auth.exceptions.RefreshError: ('invalid_grant: Token has been expired or revoked.', {'error': 'invalid_grant', 'error_description': 'Token has been expired or revoked.'})`, "", "never stored: same kind, another object")

	h.note(Note{ID: "au-certifi-mac", Project: "mailroom", OS: "darwin", Lang: "python", At: day(2022, time.July, 27),
		Title:   "python.org python on mac: CERTIFICATE_VERIFY_FAILED for every https call",
		What:    "§ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1129)§",
		Why:     "the python.org installer ships its own OpenSSL without any CA bundle until you run the bundled Install Certificates command",
		Learned: "run /Applications/Python\\ 3.10/Install\\ Certificates.command (it symlinks certifi's bundle). Or use brew/pyenv python.",
		Fix:     "/Applications/Python\\ 3.10/Install\\ Certificates.command"})
	h.note(Note{ID: "au-certifi-win", Project: "mailroom", OS: "windows", Lang: "python", At: day(2024, time.November, 12),
		Title:   "unable to get local issuer certificate on the office Windows laptops (Zscaler)",
		What:    "pip and requests both: CERTIFICATE_VERIFY_FAILED ... unable to get local issuer certificate, only on company laptops",
		Why:     "Zscaler intercepts TLS and re-signs with the corporate root; that root is in the Windows cert store, but python uses certifi's bundle, not the store",
		Learned: "pip install truststore and python -m pip config set global.use-feature truststore (pip >= 23.2 has it built in: --use-feature=truststore), in code truststore.inject_into_ssl() at startup. Don't set verify=False.",
		Fix:     "pip install --use-feature=truststore truststore"})
	h.ask("au-certifi-mac/1", "mailroom", "darwin", "python -m mailroom.check_mx example.org", `Traceback (most recent call last):
  File "/Library/Frameworks/Python.framework/Versions/3.12/lib/python3.12/urllib/request.py", line 1344, in do_open
    h.request(req.get_method(), req.selector, req.data, headers,
  File "/Library/Frameworks/Python.framework/Versions/3.12/lib/python3.12/ssl.py", line 1379, in do_handshake
    self._sslobj.do_handshake()
ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1000)

During handling of the above exception, another exception occurred:

urllib.error.URLError: <urlopen error [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1000)>`, "au-certifi-mac", "twin on another system")
	h.ask("au-certifi-win/1", "mailroom", "windows", "pip install -r requirements.txt", u6crlf(`WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)'))': /simple/flask/
WARNING: Retrying (Retry(total=3, connect=None, read=None, redirect=None, status=None)) after connection broken by 'SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)'))': /simple/flask/
...
Could not fetch URL https://pypi.org/simple/flask/: There was a problem confirming the ssl certificate: HTTPSConnectionPool(host='pypi.org', port=443): Max retries exceeded with url: /simple/flask/ (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)'))) - skipping
ERROR: Could not find a version that satisfies the requirement flask==3.0.3 (from versions: none)
ERROR: No matching distribution found for flask==3.0.3
`), "au-certifi-win", "twin on another system")

	h.note(Note{ID: "au-node-extra-ca", Project: "tripmate", Scope: "global", OS: "linux", Lang: "javascript", At: day(2023, time.January, 31),
		Title:   "node behind the corporate proxy: SELF_SIGNED_CERT_IN_CHAIN",
		What:    "npm install and fetch() from node both die with §self-signed certificate in certificate chain§ (code SELF_SIGNED_CERT_IN_CHAIN)",
		Why:     "TLS inspection proxy; node ships its own CA list and ignores the OS store",
		Learned: "export NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/corp-root.crt (PEM of the proxy's root). Works for npm, pnpm, yarn and the app. Never NODE_TLS_REJECT_UNAUTHORIZED=0 and never npm config set strict-ssl false.",
		Fix:     "export NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/corp-root.crt"})
	h.ask("au-node-extra-ca/1", "tripmate", "linux", "npm ci", `npm error code SELF_SIGNED_CERT_IN_CHAIN
npm error errno SELF_SIGNED_CERT_IN_CHAIN
npm error request to https://registry.npmjs.org/@prisma%2fclient failed, reason: self-signed certificate in certificate chain
npm error A complete log of this run can be found in: /home/sam/.npm/_logs/2025-01-20T08_44_03_112Z-debug-0.log`, "au-node-extra-ca", "hand: stored")
	h.ask("au-node-extra-ca/2", "storefront-next", "darwin", "pnpm install", ` WARN  GET https://registry.npmjs.org/next error (SELF_SIGNED_CERT_IN_CHAIN). Will retry in 10 seconds. 2 retries left.
 WARN  GET https://registry.npmjs.org/next error (SELF_SIGNED_CERT_IN_CHAIN). Will retry in 1 minute. 1 retries left.
 ERR_PNPM_SELF_SIGNED_CERT_IN_CHAIN  request to https://registry.npmjs.org/next failed, reason: self-signed certificate in certificate chain

This error happened while installing a direct dependency of /Users/ana/src/storefront-next`, "au-node-extra-ca", "global note, another project")
	h.ask("au-curl-expired/1", "harborview", "linux", "curl -fsS https://charts.harborview.internal/index.yaml", `curl: (60) SSL certificate problem: certificate has expired
More details here: https://curl.se/docs/sslcerts.html

curl failed to verify the legitimacy of the server and therefore could not
establish a secure connection to it. To learn more about this situation and
how to fix it, please visit the web page mentioned above.`, "", "never stored: another failure")

	h.note(Note{ID: "au-java-pkix-win", Project: "parcelhub", OS: "windows", Lang: "java", At: day(2023, time.June, 27),
		Title:   "maven on windows: PKIX path building failed (internal CA)",
		What:    "§PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target§ downloading from nexus",
		Why:     "nexus cert is signed by the parcelhub internal CA. Windows trusts it (GPO), the JDK's cacerts doesn't",
		Learned: "tell the JVM to use the Windows store: MAVEN_OPTS=-Djavax.net.ssl.trustStoreType=Windows-ROOT (put it in .mvn/jvm.config so it applies to everyone on Windows). Importing into cacerts with keytool works too but is lost on every JDK update.",
	})
	h.ask("au-java-pkix-win/1", "parcelhub", "windows", "mvn -U dependency:resolve", u6crlf(`[INFO] Scanning for projects...
Downloading from internal: https://nexus.parcelhub.internal/repository/maven-releases/com/parcelhub/parcelhub-bom/4.1.0/parcelhub-bom-4.1.0.pom
[ERROR] [ERROR] Some problems were encountered while processing the POMs:
[ERROR] Non-resolvable import POM: The following artifacts could not be resolved: com.parcelhub:parcelhub-bom:pom:4.1.0 (absent): Could not transfer artifact com.parcelhub:parcelhub-bom:pom:4.1.0 from/to internal (https://nexus.parcelhub.internal/repository/maven-releases/): PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target @ line 41, column 19
`), "au-java-pkix-win", "hand: stored")
	h.ask("au-java-pkix-win/2", "routeplan", "linux", "./gradlew build --refresh-dependencies", `> Could not resolve all files for configuration ':service:compileClasspath'.
   > Could not resolve com.routeplan:geo-core:1.7.2.
     Required by:
         project :service
      > Could not resolve com.routeplan:geo-core:1.7.2.
         > Could not get resource 'https://artifacts.routeplan.dev/releases/com/routeplan/geo-core/1.7.2/geo-core-1.7.2.pom'.
            > Could not GET 'https://artifacts.routeplan.dev/releases/com/routeplan/geo-core/1.7.2/geo-core-1.7.2.pom'.
               > PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target`, "", "another project's project note")

	h.note(Note{ID: "au-ruby-usascii", Project: "bakery-pos", Scope: "global", OS: "linux", Lang: "ruby", At: day(2022, time.December, 14),
		Title:   "invalid byte sequence in US-ASCII inside docker",
		What:    "rake task reading the supplier CSV: ArgumentError: invalid byte sequence in US-ASCII",
		Why:     "the image has no LANG set, so Ruby's default external encoding is US-ASCII; the file has umlauts",
		Learned: "ENV LANG=C.UTF-8 in the Dockerfile (works for any ruby/python/etc. image). In code, File.read(path, encoding: 'bom|utf-8') for files you know are UTF-8.",
	})
	h.ask("au-ruby-usascii/1", "bakery-pos", "linux", "docker compose run --rm web bin/rails suppliers:import[data/lieferanten.csv]", `bin/rails aborted!
ArgumentError: invalid byte sequence in US-ASCII (ArgumentError)
/usr/local/lib/ruby/3.2.0/csv/parser.rb:797:in §=~'
/usr/local/lib/ruby/3.2.0/csv/parser.rb:797:in §detect_row_separator'
/rails/lib/tasks/suppliers.rake:9:in §block (2 levels) in <main>'
Tasks: TOP => suppliers:import
(See full trace by running task with --trace)`, "au-ruby-usascii", "hand: stored")
	h.ask("au-ruby-usascii/2", "tenantly", "linux", "bundle exec rspec spec/lib/tenant_exporter_spec.rb", `Randomized with seed 2718

Failures:

  1) TenantExporter#to_csv handles accented names
     Failure/Error: csv = CSV.generate { |out| rows.each { |r| out << r } }

     ArgumentError:
       invalid byte sequence in US-ASCII
     # ./lib/tenant_exporter.rb:22:in 'TenantExporter#to_csv'
     # ./spec/lib/tenant_exporter_spec.rb:14:in 'block (3 levels) in <top (required)>'

$ locale
LANG=
LC_ALL=
Finished in 0.08 seconds (files took 1.4 seconds to load)
3 examples, 1 failure`, "au-ruby-usascii", "global note, another project")

	h.note(Note{ID: "au-tz-dst-test", Project: "routeplan", OS: "linux", Lang: "kotlin", At: day(2025, time.April, 1),
		Title:   "DST test fails on CI only (runner is UTC)",
		What:    "DepartureTimesTest > spring forward(): §expected: <2025-03-30T03:30> but was: <2025-03-30T02:30>§ — green on my machine (Europe/Berlin)",
		Why:     "the test builds LocalDateTime and converts with ZoneId.systemDefault(); UTC has no gap at 02:30 so the adjustment never happens on CI",
		Where:   "service/src/test/kotlin/routeplan/service/DepartureTimesTest.kt",
		Learned: "tests must name the zone (ZoneId.of(\"Europe/Berlin\")) and inject a Clock; never systemDefault in domain code. Added -Duser.timezone=UTC to the test JVM locally too so it fails the same everywhere.",
	})
	h.ask("au-tz-dst-test/1", "routeplan", "linux", "./gradlew :service:test", `> Task :service:test

DepartureTimesTest > fall back keeps first occurrence() FAILED
    org.opentest4j.AssertionFailedError: expected: <2025-10-26T02:15+01:00[Europe/Berlin]> but was: <2025-10-26T02:15Z[Etc/UTC]>
        at app//org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)
        at app//org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:182)
        at app//routeplan.service.DepartureTimesTest.fall back keeps first occurrence(DepartureTimesTest.kt:58)

41 tests completed, 1 failed

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':service:test'.
> There were failing tests. See the report at: file:///home/runner/work/routeplan/routeplan/service/build/reports/tests/test/index.html`, "au-tz-dst-test", "hand: stored")

	h.note(Note{ID: "au-py-cp1252", Project: "mailroom", OS: "windows", Lang: "python", At: day(2025, time.October, 7),
		Title:   "template loading crashes on windows: 'charmap' codec can't decode",
		What:    "UnicodeDecodeError: 'charmap' codec can't decode byte 0x9d in position 2210: character maps to <undefined>",
		Why:     "open() without encoding uses the ANSI code page (cp1252) on windows; the email templates are UTF-8",
		Where:   "mailroom/templates.py",
		Learned: "always open(path, encoding=\"utf-8\"); for the dev box PYTHONUTF8=1 makes python default to utf-8 everywhere. ruff rule PLW1514 (unspecified-encoding) catches new ones.",
		Fix:     "setx PYTHONUTF8 1"})
	h.ask("au-py-cp1252/1", "mailroom", "windows", "python -m mailroom.render_preview welcome", u6crlf(`Rendering template welcome.html.j2
Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "C:\Users\ines\mailroom\mailroom\render_preview.py", line 31, in <module>
    main(sys.argv[1])
  File "C:\Users\ines\mailroom\mailroom\templates.py", line 18, in load
    return fh.read()
           ^^^^^^^^^
UnicodeDecodeError: 'charmap' codec can't decode byte 0x81 in position 512: character maps to <undefined>
`), "au-py-cp1252", "hand: stored")
}
