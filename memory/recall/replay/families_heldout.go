package replay

// heldOutFamilies were written apart from the tuning and only reported:
// other tools, other failure kinds, other writers.
func heldOutFamilies() []*family {
	return []*family{
		{
			id: "pg-conn", split: HeldOut, lang: "python", tool: "Bash", cmd: "alembic upgrade head",
			tail: `Traceback (most recent call last):
  File "{root}/.venv/lib/python3.12/site-packages/sqlalchemy/engine/base.py", line 145, in __init__
    self._dbapi_connection = engine.raw_connection()
{ctx}
sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "{obj}" (127.0.0.1), port 5432 failed: Connection refused
	Is the server running on that host and accepting TCP/IP connections?
(Background on this error at: https://sqlalche.me/e/20/e3q8)`,
			quote: "connection to server at \"{obj}\" (127.0.0.1), port 5432 failed: Connection refused",
			title: "alembic can't reach postgres at {obj}:5432",
			more:  []string{"postgres", "db", "127.0.0.1", "pg.local", "timescale", "postgres-test", "warehouse", "pgbouncer", "db-replica", "analytics-db", "orders-db", "citus", "ledger-pg"},
			causes: []cause{
				{"the compose service is called {obj} but DATABASE_URL still pointed at the old name after the rename.", "", "Keep DATABASE_URL in sync with the compose service name."},
				{"{obj} takes 10 s to accept connections and the migration ran before the healthcheck passed.", "docker compose up -d --wait", "Wait for the healthcheck before migrating."},
				{"the VPN split-tunnel dropped the route to {obj}.", "", "Reconnect the VPN before migrating."},
			},
			objs: []*object{
				{name: "localhost", cause: "the postgres container was not started; `make db` brings it up.", fix: "make db", learned: "Start the db container before migrations.", stored: true, project: "orders", context: "  File \"{root}/migrations/env.py\", line 61, in run_migrations_online"},
				{name: "localhost", cause: "the tests use a testcontainers postgres that had already been reaped by ryuk when conftest ran migrations late.", fix: "", learned: "Run migrations in the session fixture, right after the container starts.", stored: true, project: "orders", context: "  File \"{root}/tests/conftest.py\", line 88, in migrated_db"},
				{name: "db.staging.internal"},
			},
		},
		{
			id: "eslint-plugin", split: HeldOut, lang: "javascript", tool: "Bash", cmd: "npx eslint .",
			tail: `
Oops! Something went wrong! :(

ESLint: 8.57.0

ESLint couldn't find the plugin "{obj}".

(The package "{obj}" was not found when loaded as a Node module from the directory "{root}".)

It's likely that the plugin isn't installed correctly. Try reinstalling by running the following:

    npm install {obj}@latest --save-dev

The plugin "{obj}" was referenced from the config file in ".eslintrc.json".`,
			quote: "ESLint couldn't find the plugin \"{obj}\".",
			title: "eslint can't find plugin {obj}",
			more:  []string{"eslint-plugin-prettier", "eslint-plugin-vue", "eslint-plugin-jest", "eslint-plugin-node", "eslint-plugin-unicorn", "eslint-plugin-security", "eslint-plugin-promise", "eslint-plugin-cypress", "eslint-plugin-storybook", "eslint-plugin-tailwindcss", "eslint-plugin-simple-import-sort", "eslint-plugin-n", "eslint-plugin-svelte"},
			causes: []cause{
				{"{obj} was listed in the shared config's peerDependencies only, so nothing installed it.", "npm install -D {obj}", "Install the peer plugins of shared eslint configs."},
				{"VS Code's eslint extension used a global eslint that cannot see the project's {obj}.", "", "Set eslint.nodePath or use the workspace eslint."},
				{"{obj} was removed when we cleaned unused deps; depcheck does not see config-only usage.", "npm install -D {obj}", "Whitelist eslint plugins in depcheck."},
			},
			objs: []*object{
				{name: "eslint-plugin-import", cause: "the monorepo hoisted eslint but not the plugin; the plugin was in a nested node_modules.", fix: "npm install -D eslint-plugin-import -w .", learned: "Install eslint plugins next to the eslint that loads them.", stored: true, project: "monorepo", year: 2023},
				{name: "eslint-plugin-react-hooks", cause: "pnpm's strict node_modules hides transitive deps; the shared config depended on it but the app did not.", fix: "pnpm add -D eslint-plugin-react-hooks", learned: "With pnpm, list every plugin your config uses.", stored: true, project: "monorepo", year: 2024, elsewhere: "webshop"},
				{name: "eslint-plugin-jsx-a11y"}, {name: "@typescript-eslint/eslint-plugin"},
			},
		},
		{
			id: "gradle-jvm", split: HeldOut, lang: "java", tool: "Bash", cmd: "./gradlew build",
			tail: `FAILURE: Build failed with an exception.

* What went wrong:
A problem occurred configuring root project '{obj}'.
> Could not resolve all files for configuration ':classpath'.
   > Could not resolve com.android.tools.build:gradle:8.2.0.
     > No matching variant of com.android.tools.build:gradle:8.2.0 was found. The consumer was configured to find a library for use during runtime, compatible with Java 11, but:
         - Incompatible because this component declares a component for use during runtime, compatible with Java 17 and the consumer needed a component for use during runtime, compatible with Java 11

* Try:
> Run with --stacktrace option to get the stack trace.

BUILD FAILED in 4s`,
			quote: "Incompatible because this component declares a component for use during runtime, compatible with Java 17 and the consumer needed a component for use during runtime, compatible with Java 11",
			title: "gradle: AGP 8.2 needs Java 17 ({obj})",
			objs: []*object{
				{name: "mobile-app", cause: "JAVA_HOME pointed at the JDK 11 that an old sdkman default left behind.", fix: "sdk default java 17.0.9-tem", learned: "AGP 8 needs JDK 17; check JAVA_HOME, not just java -version.", stored: true, project: "mobile-app", os: "darwin",
					twin: &object{name: "mobile-app", cause: "on Windows the Android Studio bundled JBR was not used; JAVA_HOME was set system-wide to JDK 11 by the Oracle installer.", fix: "setx JAVA_HOME \"C:\\Program Files\\Android\\Android Studio\\jbr\"", learned: "On Windows point JAVA_HOME at Android Studio's jbr.", os: "windows"}},
			},
		},
		{
			id: "cargo-linker", split: HeldOut, lang: "rust", tool: "Bash", cmd: "cargo build --release",
			tail: `   Compiling openssl-sys v0.9.96
error: failed to run custom build command for ` + "`openssl-sys v0.9.96`" + `

Caused by:
  process didn't exit successfully: ` + "`{root}/target/release/build/openssl-sys-5f1e0c8d/build-script-main`" + ` (exit status: 101)
  --- stderr
  thread 'main' panicked at {obj}
  Could not find directory of OpenSSL installation, and this ` + "`-sys`" + ` crate cannot
  proceed without this knowledge. If OpenSSL is installed and this crate had
  trouble finding it,  you can set the ` + "`OPENSSL_DIR`" + ` environment variable for the
  compilation process.`,
			quote: "Could not find directory of OpenSSL installation",
			title: "openssl-sys build script: could not find OpenSSL",
			objs: []*object{
				{name: "/root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/openssl-sys-0.9.96/build/find_normal.rs:190:5:", cause: "the slim Debian image has no libssl-dev or pkg-config.", fix: "apt-get install -y pkg-config libssl-dev", learned: "On Debian/Ubuntu images install pkg-config and libssl-dev before cargo build.", stored: true, project: "ingest", global: true, year: 2023,
					twin: &object{name: "/Users/kim/.cargo/registry/src/index.crates.io-6f17d22bba15001f/openssl-sys-0.9.96/build/find_normal.rs:190:5:", cause: "on macOS Homebrew's openssl@3 is keg-only, so pkg-config does not see it.", fix: "export OPENSSL_DIR=$(brew --prefix openssl@3)", learned: "On macOS point OPENSSL_DIR at brew --prefix openssl@3.", os: "darwin"},
					next: &object{name: "/root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/openssl-sys-0.9.96/build/find_normal.rs:190:5:", cause: "installing libssl-dev in the image is no longer needed: we switched reqwest to rustls, and the old apt-get fix is obsolete since the image is distroless now.", fix: "cargo add reqwest --no-default-features --features rustls-tls", learned: "Prefer rustls over openssl-sys in containers.", stored: true, year: 2025}},
			},
		},
		{
			id: "k8s-imagepull", split: HeldOut, lang: "yaml", tool: "Bash", cmd: "kubectl describe pod {obj}",
			tail: `Events:
  Type     Reason     Age                From               Message
  ----     ------     ----               ----               -------
  Normal   Scheduled  2m                 default-scheduler  Successfully assigned default/{obj}-7d9c6b5f4-x2x8q to kind-worker
  Normal   Pulling    55s (x4 over 2m)   kubelet            Pulling image "ghcr.io/acme/{obj}:latest"
  Warning  Failed     54s (x4 over 2m)   kubelet            Failed to pull image "ghcr.io/acme/{obj}:latest": rpc error: code = Unknown desc = failed to pull and unpack image "ghcr.io/acme/{obj}:latest": failed to resolve reference "ghcr.io/acme/{obj}:latest": failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized
  Warning  Failed     54s (x4 over 2m)   kubelet            Error: ErrImagePull
  Warning  Failed     40s (x6 over 2m)   kubelet            Error: ImagePullBackOff`,
			quote: "failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized",
			title: "kind cluster ImagePullBackOff for ghcr.io/acme/{obj} (401)",
			more:  []string{"inventory", "gateway", "notifier", "search", "billing-worker", "frontend", "auth", "scheduler", "reports", "webhooks", "metrics", "mailer", "ledger"},
			causes: []cause{
				{"the {obj} image is private on ghcr and the namespace lacked the pull secret.", "kubectl patch serviceaccount default -p '{\"imagePullSecrets\":[{\"name\":\"ghcr\"}]}'", "Attach the pull secret to the service account."},
				{"the GHCR token in the pull secret for {obj} had expired after 90 days.", "", "Rotate the pull secret's token."},
				{"{obj} was never pushed: the CI job that publishes it failed silently.", "", "Check the publish job before debugging the cluster."},
			},
			objs: []*object{
				{name: "checkout", cause: "the package on ghcr is private and the kind cluster had no imagePullSecret.", fix: "kubectl create secret docker-registry ghcr --docker-server=ghcr.io --docker-username=bot --docker-password=$GHCR_PAT", learned: "Private ghcr images need a pull secret in the namespace, or kind load docker-image.", stored: true, project: "platform", year: 2024,
					next: &object{name: "checkout", cause: "we now build and side-load images with kind, so the pull secret is unnecessary and the earlier note's secret approach is outdated.", fix: "kind load docker-image ghcr.io/acme/checkout:latest", learned: "Side-load local images into kind.", stored: true, year: 2025}, declared: true},
				{name: "payments"},
			},
		},
		{
			id: "webpack-oom", split: HeldOut, lang: "javascript", tool: "Bash", cmd: "npm run build",
			tail: `<--- Last few GCs --->

[18342:0x5d1c2a0]    98213 ms: Mark-Compact 2037.6 (2083.4) -> 2035.9 (2083.9) MB, 1712.34 / 0.00 ms  (average mu = 0.112, current mu = 0.021) allocation failure; scavenge might not succeed

<--- JS stacktrace --->

FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory
 1: 0xb8ced0 node::Abort() [node]
 2: 0xaa1fda  [node]`,
			quote: "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
			title: "next build runs out of heap memory",
			objs: []*object{
				{name: "next", cause: "source maps for the 40 MB generated GraphQL types file blew the default 2 GB heap.", fix: "NODE_OPTIONS=--max-old-space-size=6144 npm run build", learned: "Raise the heap or exclude generated files from source maps.", stored: true, project: "webshop", year: 2023},
			},
		},
		{
			id: "swift-sign", split: HeldOut, lang: "swift", tool: "Bash", cmd: "xcodebuild -scheme {obj} archive",
			tail: `note: Using codesigning identity override: Apple Distribution
/Users/kim/code/ios/{obj}.xcodeproj: error: No profiles for 'com.acme.{obj}' were found: Xcode couldn't find any iOS App Development provisioning profiles matching 'com.acme.{obj}'. Automatic signing is disabled and unable to generate a profile. To enable automatic signing, pass -allowProvisioningUpdates to xcodebuild. (in target '{obj}' from project '{obj}')
** ARCHIVE FAILED **`,
			quote: "No profiles for 'com.acme.{obj}' were found",
			title: "xcodebuild archive: no provisioning profiles for com.acme.{obj}",
			more:  []string{"Checkout", "Onboarding", "Scanner", "Notifications", "Settings", "Maps", "Chat", "Camera", "Share", "Today", "Watch", "Intents", "Stickers"},
			causes: []cause{
				{"the {obj} target's bundle id was new and no profile existed for it yet.", "xcodebuild -scheme {obj} archive -allowProvisioningUpdates", "New targets need -allowProvisioningUpdates once."},
				{"match had not been run for the {obj} extension.", "bundle exec fastlane match appstore", "Run match for every extension target."},
				{"the profile for {obj} expired.", "", "Renew the profile in the developer portal."},
			},
			objs: []*object{
				{name: "Wallet", cause: "the CI Mac's keychain had the cert but the profile had expired and automatic signing was off.", fix: "xcodebuild -scheme Wallet archive -allowProvisioningUpdates", learned: "On CI pass -allowProvisioningUpdates with an App Store Connect API key.", stored: true, project: "ios", os: "darwin"},
				{name: "Widgets"},
			},
		},
		{
			id: "make-missing-sep", split: HeldOut, lang: "make", tool: "Bash", cmd: "make {obj}",
			tail:  `Makefile:27: *** missing separator.  Stop.`,
			quote: "Makefile:27: *** missing separator.  Stop.",
			title: "make: missing separator",
			objs: []*object{
				{name: "release", cause: "the editor turned the recipe's tab into four spaces when the file was reformatted.", fix: "sed -i 's/^    /\\t/' Makefile", learned: "Recipes need a literal tab; set the editor to keep tabs in Makefiles.", stored: true, project: "infra", global: true},
			},
		},
		{
			id: "ruby-bundler", split: HeldOut, lang: "ruby", tool: "Bash", cmd: "bundle exec rails s",
			tail: `Could not find {obj} in locally installed gems
Run ` + "`bundle install`" + ` to install missing gems.`,
			quote: "Could not find {obj} in locally installed gems",
			title: "bundler: could not find {obj}",
			more:  []string{"ffi-1.16.3", "grpc-1.60.0", "sassc-2.4.0", "mysql2-0.5.5", "puma-6.4.2", "bootsnap-1.17.0", "msgpack-1.7.2", "racc-1.7.3", "bcrypt-3.1.20", "nio4r-2.7.0"},
			causes: []cause{
				{"Gemfile.lock lacked the platform of the machine, so {obj} was never installed.", "bundle lock --add-platform x86_64-linux", "Lock every platform that runs the app."},
				{"BUNDLE_DEPLOYMENT was set in the shell and bundler refused to install {obj}.", "bundle config unset deployment", "Unset deployment mode locally."},
				{"the rbenv version switched and its gem dir has no {obj}.", "bundle install", "Reinstall gems after switching Ruby."},
			},
			objs: []*object{
				{name: "nokogiri-1.16.2-arm64-darwin", cause: "Gemfile.lock only listed the x86_64-linux platform, so bundler on the M1 never installed the arm64 gem.", fix: "bundle lock --add-platform arm64-darwin && bundle install", learned: "Add every developer platform to Gemfile.lock.", stored: true, project: "crm", os: "darwin", year: 2023},
				{name: "pg-1.5.4"},
			},
		},
		{
			id: "ssl-verify", split: HeldOut, lang: "python", tool: "Bash", cmd: "python scripts/sync.py",
			tail: `Traceback (most recent call last):
  File "{root}/scripts/sync.py", line 14, in <module>
    r = requests.get(API)
  File "{root}/.venv/lib/python3.11/site-packages/requests/adapters.py", line 517, in send
    raise SSLError(e, request=request)
requests.exceptions.SSLError: HTTPSConnectionPool(host='{obj}', port=443): Max retries exceeded with url: /v1/items (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)')))`,
			quote: "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate",
			title: "requests SSL CERTIFICATE_VERIFY_FAILED to {obj}",
			more:  []string{"pypi.org", "github.com", "registry.internal", "s3.amazonaws.com", "auth.acme.test", "api.stripe.com", "hooks.slack.com", "sentry.io", "login.microsoftonline.com", "gitlab.internal", "npm.pkg.github.com", "objects.githubusercontent.com", "vault.internal"},
			causes: []cause{
				{"the TLS-inspecting proxy re-signed {obj}'s certificate with a CA python does not trust.", "export SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt", "Point python at the system bundle behind the proxy."},
				{"{obj} serves an incomplete chain and certifi lacks the intermediate.", "pip install -U certifi", "Update certifi or pin the intermediate."},
				{"the machine's clock was a year off, so {obj}'s certificate looked not yet valid.", "sudo timedatectl set-ntp true", "Check the clock on certificate errors."},
			},
			objs: []*object{
				{name: "api.vendor.example", cause: "the corporate proxy re-signs TLS with its own CA and requests uses certifi's bundle, not the system store.", fix: "export REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt", learned: "Behind the proxy point REQUESTS_CA_BUNDLE at the system bundle.", stored: true, project: "sync", global: true,
					twin: &object{name: "api.vendor.example", cause: "on Windows the proxy CA is in the Windows cert store only; python does not read it.", fix: "pip install pip-system-certs", learned: "On Windows install pip-system-certs so python trusts the Windows store.", os: "windows"}},
				{name: "files.partner.example"},
			},
		},
	}
}

// allFamilies is every family, tune part first.
func allFamilies() []*family {
	return append(tuneFamilies(), heldOutFamilies()...)
}
