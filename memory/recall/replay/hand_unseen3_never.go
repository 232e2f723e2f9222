package replay

// unseen3Plain: notes that describe no failure, and notes whose only
// shared words with many failures are generic file names (Makefile,
// go.mod, package.json).
func unseen3Plain(h *hand) {
	h.note(Note{ID: "anneal-release-tags", Project: "anneal", OS: "linux", Lang: "c++", At: day(2024, 2, 1), Type: "decision", NoFailure: true,
		Title: "how anneal releases are cut",
		What: "The version lives in meson.build's project() call only; the Makefile's `release` target reads it with meson introspect and tags vX.Y.Z. " +
			"Release branches are release/X.Y, fixes land on main first and get cherry-picked.",
		Why:     "two sources of truth for the version (meson.build and a VERSION file) drifted twice in 2023.",
		Learned: "make release VERSION=... is gone, don't pass VERSION."})
	h.note(Note{ID: "palisade-dns-owners", Project: "palisade", OS: "darwin", Lang: "shell", At: day(2025, 3, 4), Type: "decision", NoFailure: true,
		Title: "DNS: who owns which zone",
		What: "palisade.dev and its subdomains are on Cloudflare (terraform in dns/, the certbot dns-01 token is scoped to it). *.internal.palisade.dev is Route 53 private, " +
			"managed by the pulumi stack `network`. Never add records by hand in either console.",
		Why:     "records added by hand were overwritten by the next apply and took status.palisade.dev down for an hour.",
		Learned: "ask in #infra before touching the network stack."})
	h.note(Note{ID: "trellis-runner-tags", Project: "trellis", OS: "linux", Lang: "yaml", At: day(2026, 6, 1), Type: "pattern", NoFailure: true,
		Title:   "runner tags we use",
		What:    "linux-docker (privileged, dind allowed), linux-shell (deploy only), windows-shell, macos-arm. Every job in .gitlab-ci.yml must name exactly one of them; untagged jobs are rejected by the runner config.",
		Why:     "shared untagged runners picked up deploy jobs from forks once.",
		Learned: "new job? copy the tags from a neighbour, and keep package.json scripts runnable outside CI."})

	h.note(Note{ID: "anneal-makefile-no-builddir", Project: "anneal", OS: "linux", Lang: "c++", At: day(2024, 9, 17),
		Title:   "make: ninja: error: loading 'build.ninja': No such file or directory",
		What:    "`make test` in a fresh clone → ninja: error: loading 'build.ninja': No such file or directory, Makefile:12: recipe for target 'test' failed",
		Why:     "the Makefile is only a thin wrapper around `ninja -C build`; it doesn't run meson setup itself, so in a fresh clone there's no build/ dir.",
		Learned: "meson setup first (once). Or make bootstrap, which does the same with our default options.",
		Fix:     "meson setup build --buildtype=debugoptimized && make test"})
	h.ask("anneal-makefile/test", "anneal", "linux", "make test",
		"ninja -C build test\nninja: Entering directory `build'\nninja: error: loading 'build.ninja': No such file or directory\nmake: *** [Makefile:12: test] Error 1\n",
		"anneal-makefile-no-builddir", "unseen3: stored, generic file name")
	h.ask("anneal-makefile/docs", "anneal", "linux", "make docs",
		"make: *** No rule to make target 'docs/api.md', needed by 'docs'.  Stop.\n",
		"", "unseen3: generic file name, another error")

	h.note(Note{ID: "corvid-gomod-replace", Project: "corvid", OS: "linux", Lang: "go", At: day(2025, 4, 2),
		Title: "docker build of orders: replacement directory ../otelx does not exist",
		What: "`docker build -f orders/Dockerfile orders` fails at `go mod download`: go: github.com/corvid/otelx@v0.0.0-00010101000000-000000000000: " +
			"replacement directory ../otelx does not exist",
		Why:     "orders/go.mod has `replace github.com/corvid/otelx => ../otelx` for local work; the docker context is orders/ so ../otelx isn't in it.",
		Where:   "orders/go.mod, orders/Dockerfile",
		Learned: "build with the repo root as context (the Dockerfile COPYs both dirs), or use a go.work locally and drop the replace. We did the go.work.",
		Fix:     "docker build -f orders/Dockerfile ."})
	h.ask("corvid-gomod/build", "corvid", "linux", "docker build -f orders/Dockerfile orders",
		"#11 [build 4/7] RUN go mod download\n#11 0.204 go: github.com/corvid/otelx@v0.0.0-00010101000000-000000000000: replacement directory ../otelx does not exist\n#11 ERROR: process \"/bin/sh -c go mod download\" did not complete successfully: exit code: 1\n------\n > [build 4/7] RUN go mod download:\n0.204 go: github.com/corvid/otelx@v0.0.0-00010101000000-000000000000: replacement directory ../otelx does not exist\n------\nDockerfile:9\n--------------------\n   7 |     WORKDIR /src\n   8 |     COPY go.mod go.sum ./\n   9 | >>> RUN go mod download\n  10 |     COPY . .\n--------------------\nERROR: failed to solve: process \"/bin/sh -c go mod download\" did not complete successfully: exit code: 1\n",
		"corvid-gomod-replace", "unseen3: stored, generic file name")
	h.ask("corvid-gomod/notfound", "corvid", "linux", "docker build -f billing/Dockerfile billing",
		"#9 [build 3/6] RUN go build -o /out/billing ./cmd/billing\n#9 0.311 go: go.mod file not found in current directory or any parent directory; see 'go help modules'\n#9 ERROR: process \"/bin/sh -c go build -o /out/billing ./cmd/billing\" did not complete successfully: exit code: 1\n",
		"", "unseen3: generic file name, another error")
	h.ask("gannet-no-package-json", "gannet", "linux", "pnpm --filter admin install",
		"\u2009ERR_PNPM_NO_IMPORTER_MANIFEST_FOUND\u2009 No package.json (or package.yaml, or package.json5) was found in \"/home/ci/build/gannet/apps/admin\".\n",
		"", "unseen3: generic file name, another error")
}

// unseen3NeverStored: failures of the same tools and projects that no
// note is about.
func unseen3NeverStored(h *hand) {
	const kind = "unseen3: never stored: another failure"
	h.ask("never/meson-glib", "anneal", "linux", "meson setup build",
		"Program glib-compile-resources found: NO\n\nui/meson.build:3:6: ERROR: Program 'glib-compile-resources' not found or not executable\n\nA full log can be found at /home/ci/build/anneal/build/meson-logs/meson-log.txt\n", "", kind)
	h.ask("never/conan-prebuilt", "anneal", "darwin", "conan install . --output-folder=build",
		"======== Computing necessary packages ========\nopenssl/3.2.1: Main binary package '5e7b1f0c2d9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c' missing\nopenssl/3.2.1: Checking 4 compatible configurations\nopenssl/3.2.1: Compatible configurations not found in cache, checking servers\nERROR: Missing prebuilt package for 'openssl/3.2.1'. You can try:\n    - List all available packages using 'conan list \"openssl/3.2.1:*\" -r=remote'\n    - Explain missing binaries: replace 'conan install ...' with 'conan graph explain ...'\n    - Try to build locally from sources using the '--build=openssl/3.2.1' argument\n\nMore Info at 'https://docs.conan.io/2/knowledge/faq.html#error-missing-prebuilt-package'\n", "", kind)
	h.ask("never/rebar3-tls", "bivalve", "linux", "rebar3 get-deps",
		"===> Verifying dependencies...\n===> Fetching cowlib v2.12.1\n===> Failed to fetch and copy dep: {pkg,<<\"cowlib\">>,<<\"2.12.1\">>,\n                                   <<\"A9FA9A625F1D2025FE6B462CB865881329B5CAFF8F1854D1CBC9F9533F00E1E1\">>,\n                                   <<\"163B73F6367A7341B33C794C4E88E7DBFE6498AC42DCD69EF44C5BC5507C8DB0\">>,\n                                   #{}}\n===> Failed to update package cowlib from repo hexpm: {error,{failed_connect,[{to_address,{\"repo.hex.pm\",443}},\n                          {inet,[inet],{tls_alert,{unknown_ca,\"TLS client: In state certify at ssl_handshake.erl:2111 generated CLIENT ALERT: Fatal - Unknown CA\\n\"}}}]}}\n", "", kind)
	h.ask("never/crystal-undefined", "bivalve", "darwin", "crystal spec",
		"Showing last frame. Use --error-trace for full trace.\n\nIn src/relay/payload.cr:22:17\n\n 22 | body = params.to_json\n                   ^------\nError: undefined method 'to_json' for Hash(String, String)\n\nDid you mean to require \"json\"?\n", "", kind)
	h.ask("never/luarocks-lua54", "bivalve", "linux", "luarocks install lua-resty-template",
		"Error: No results matching query were found for Lua 5.4.\nTo check if it is available for other Lua versions, use --check-lua-versions.\n", "", kind)
	h.ask("never/cpanm-module", "bivalve", "linux", "cpanm Net::SSLeay::Handle",
		"! Finding Net::SSLeay::Handle on cpanmetadb failed.\n--> Working on Net::SSLeay::Handle\nFetching http://www.cpan.org/modules/02packages.details.txt.gz ... OK\n! Couldn't find module or a distribution Net::SSLeay::Handle\n", "", kind)
	h.ask("never/dart-headline6", "gannet", "darwin", "flutter analyze",
		"Analyzing gannet...                                             \n\n  error \u2022 The getter 'headline6' isn't defined for the type 'TextTheme' \u2022 lib/widgets/order_card.dart:41:52 \u2022 undefined_getter\n  error \u2022 The getter 'bodyText2' isn't defined for the type 'TextTheme' \u2022 lib/widgets/order_card.dart:57:48 \u2022 undefined_getter\n\n2 issues found. (ran in 3.9s)\n", "", kind)
	h.ask("never/turbo-remote-cache", "gannet", "linux", "pnpm turbo run build --summarize",
		"\x1b[33m WARNING \x1b[0m failed to contact remote cache: Error making HTTP request: HTTP status client error (403 Forbidden) for url (https://api.vercel.com/v8/artifacts/7c1d0e2f4a3b?slug=gannet)\nweb:build: cache miss, executing 7c1d0e2f4a3b\nweb:build: \nweb:build: > web@0.0.0 build /home/ci/build/gannet/apps/web\nweb:build: > next build\nweb:build: \nweb:build: Error: Cannot find module 'next/dist/compiled/@next/font'\nweb:build:  ELIFECYCLE  Command failed with exit code 1.\nweb:build: ERROR: command finished with error: command (/home/ci/build/gannet/apps/web) /usr/local/bin/pnpm run build exited (1)\n", "", kind)
	h.ask("never/pulumi-conflict", "palisade", "linux", "pulumi up --stack prod --yes",
		"error: [409] Conflict: Another update is currently in progress.\nTo learn more about possible reasons and resolution, visit https://www.pulumi.com/docs/common-errors/#conflict\n", "", kind)
	h.ask("never/argocd-rbac", "palisade", "linux", "argocd app sync payments --grpc-web",
		"FATA[0001] rpc error: code = PermissionDenied desc = permission denied: applications, sync, default/payments, sub: ci-bot, iat: 2025-06-02T07:11:40Z\n", "", kind)
	h.ask("never/nomad-leader", "palisade", "linux", "nomad job status api",
		"Error querying job: Unexpected response code: 500 (rpc error: No cluster leader)\n", "", kind)
	h.ask("never/caddy-bind", "palisade", "linux", "caddy run --config /etc/caddy/Caddyfile",
		"2024/05/22 07:01:11.420\tINFO\tusing config from file\t{\"file\": \"/etc/caddy/Caddyfile\"}\n2024/05/22 07:01:11.431\tINFO\tadapted config to JSON\t{\"adapter\": \"caddyfile\"}\nError: loading initial config: loading new config: http app module: start: listening on :443: listen tcp :443: bind: permission denied\n", "", kind)
	h.ask("never/haproxy-resolve", "palisade", "linux", "haproxy -c -f /etc/haproxy/haproxy.cfg",
		"[ALERT]    (51877) : config : parsing [/etc/haproxy/haproxy.cfg:77] : 'server app1' : could not resolve address 'app-1.internal.palisade.dev'.\n[ALERT]    (51877) : config : Failed to initialize server(s) addr.\n", "", kind)
	h.ask("never/cloudflared-origin", "palisade", "darwin", "cloudflared tunnel run --token ***",
		"2025-05-15T09:30:22Z INF Registered tunnel connection connIndex=0 connection=8c1f... event=0 ip=198.41.200.23 location=fra08 protocol=quic\n2025-05-15T09:30:31Z ERR  error=\"Unable to reach the origin service. The service may be down or it may not be responding to traffic from cloudflared: dial tcp [::1]:8080: connect: connection refused\" connIndex=0 event=1 ingressRule=0 originService=http://localhost:8080\n2025-05-15T09:30:31Z ERR Request failed error=\"Unable to reach the origin service. The service may be down or it may not be responding to traffic from cloudflared: dial tcp [::1]:8080: connect: connection refused\" connIndex=0 dest=https://dev-kim.palisade.dev/ event=0 ip=198.41.200.23 type=http\n", "", kind)
	h.ask("never/nodetool-jmx", "sluice", "linux", "nodetool status",
		"nodetool: Failed to connect to '127.0.0.1:7199' - ConnectException: 'Connection refused (Connection refused)'.\n", "", kind)
	h.ask("never/clickhouse-auth", "sluice", "darwin", "clickhouse-client --host ch.sluice.internal --user analyst",
		"ClickHouse client version 24.8.4.13 (official build).\nConnecting to ch.sluice.internal:9000 as user analyst.\nCode: 516. DB::Exception: Received from ch.sluice.internal:9000. DB::Exception: analyst: Authentication failed: password is incorrect, or there is no user with such name.. (AUTHENTICATION_FAILED)\n", "", kind)
	h.ask("never/mamba-prefix-win", "sluice", "windows", "mamba activate sluice",
		crlf("critical libmamba Cannot activate, prefix does not exist at: 'C:\\Users\\dev\\miniforge3\\envs\\sluice'\n"), "", kind)
	h.ask("never/istio-tag", "corvid", "linux", "istioctl install --set revision=1-22 -y",
		"\u2714 Istio core installed\n\u2714 Istiod installed\n\u2718 Installation failed\nError: failed to install manifests: errors occurred during operation: creating default tag would conflict:\nError [IST0139] (MutatingWebhookConfiguration istio-sidecar-injector-1-20 ) Webhook overlaps with others: [istio-revision-tag-default/namespace.sidecar-injector.istio.io]. This may cause injection to occur twice.\n", "", kind)
	h.ask("never/linkerd-destination", "corvid", "linux", "linkerd check",
		"linkerd-existence\n-----------------\n\u221a 'linkerd-config' config map exists\n\u221a heartbeat ServiceAccount exist\n\u221a control plane replica sets are ready\n\u221a no unschedulable pods\n\u00d7 control plane pods are ready\n    No running pods for \"linkerd-destination\"\n    see https://linkerd.io/2/checks/#l5d-api-control-ready for hints\n\nStatus check results are \u00d7\n", "", kind)
	h.ask("never/otel-processor", "corvid", "linux", "otelcol-contrib validate --config /etc/otelcol-contrib/config.yaml",
		"Error: invalid configuration: service::pipelines::traces: references processor \"batch/traces\" which is not configured\n2025/03/12 10:04:40 collector server run finished with error: invalid configuration: service::pipelines::traces: references processor \"batch/traces\" which is not configured\n", "", kind)
	h.ask("never/k3s-registry-ca", "corvid", "linux", "kubectl -n corvid describe pod orders-6c9d8b7f5-m2zq8 | tail -6",
		"  Normal   Pulling    14s (x3 over 58s)  kubelet            Pulling image \"registry.corvid.lan/orders:1.8.2\"\n  Warning  Failed     14s (x3 over 58s)  kubelet            Failed to pull image \"registry.corvid.lan/orders:1.8.2\": failed to pull and unpack image \"registry.corvid.lan/orders:1.8.2\": failed to resolve reference \"registry.corvid.lan/orders:1.8.2\": failed to do request: Head \"https://registry.corvid.lan/v2/orders/manifests/1.8.2\": tls: failed to verify certificate: x509: certificate signed by unknown authority\n  Warning  Failed     14s (x3 over 58s)  kubelet            Error: ErrImagePull\n  Normal   BackOff    1s (x4 over 57s)   kubelet            Back-off pulling image \"registry.corvid.lan/orders:1.8.2\"\n  Warning  Failed     1s (x4 over 57s)   kubelet            Error: ImagePullBackOff\n", "", kind)
	h.ask("never/nerdctl-rootless-down", "corvid", "linux", "nerdctl ps",
		"FATA[0000] rootless containerd not running? (hint: use `containerd-rootless-setuptool.sh install` to start rootless containerd): stat /run/user/1000/containerd-rootless: no such file or directory\n", "", kind)
	h.ask("never/jenkins-no-revision", "trellis", "linux", "jenkins-cli console trellis/release -n 212",
		"Started by timer\nRunning as SYSTEM\nBuilding on the built-in node in workspace /var/lib/jenkins/workspace/trellis_release\nThe recommended git tool is: NONE\nusing credential gitlab-ci-ro\n > git rev-parse --resolve-git-dir /var/lib/jenkins/workspace/trellis_release/.git # timeout=10\nFetching changes from the remote Git repository\n > git config remote.origin.url https://git.trellis.dev/trellis/api.git # timeout=10\n > git rev-parse origin/release/2.x^{commit} # timeout=10\nERROR: Couldn't find any revision to build. Verify the repository and branch configuration for this job.\nFinished: FAILURE\n", "", kind)
	h.ask("never/gitlab-win-path", "trellis", "windows", "gitlab-runner run",
		crlf("Running with gitlab-runner 16.9.1 (782c6ecb)\n  on win-build-01 Tz8pQ1aB, system ID: s_9a8b7c6d5e4f\nPreparing the \"shell\" executor\nUsing Shell (powershell) executor...\nGetting source from Git repository\n$ cd \"C:\\GitLab-Runner\\builds\\Tz8pQ1aB\\0\\trellis\\desktop\"\nSet-Location : Cannot find path 'C:\\GitLab-Runner\\builds\\Tz8pQ1aB\\0\\trellis\\desktop' because it does not exist.\nAt C:\\Windows\\TEMP\\build_script3126543210\\script.ps1:196 char:1\n+ Set-Location \"C:\\GitLab-Runner\\builds\\Tz8pQ1aB\\0\\trellis\\desktop\"\n+ ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n    + CategoryInfo          : ObjectNotFound: (C:\\GitLab-Runne...trellis\\desktop:String) [Set-Location], ItemNotFoundException\n    + FullyQualifiedErrorId : PathNotFound,Microsoft.PowerShell.Commands.SetLocationCommand\nERROR: Job failed: exit status 1\n"), "", kind)
	h.ask("never/gpg-keyserver", "trellis", "linux", "gpg --keyserver keys.openpgp.org --recv-keys 3AA5C34371567BD2",
		"gpg: keyserver receive failed: No data\n", "", kind)
	h.ask("never/tekton-webhook", "trellis", "linux", "kubectl apply -f ci/tekton/tasks/build-image.yaml",
		"Error from server (BadRequest): error when creating \"ci/tekton/tasks/build-image.yaml\": admission webhook \"validation.webhook.pipeline.tekton.dev\" denied the request: validation failed: expected exactly one, got both: spec.steps[0].args, spec.steps[0].script\n", "", kind)
	h.ask("never/buck2-cycle", "burrow", "linux", "buck2 build //lib/...",
		"Command failed: \nError running analysis for `root//lib/codec:codec (prelude//platforms:default#904931f735703749)`\n\nCaused by:\n    Cycle detected when computing configured target node:\n      root//lib/codec:codec (prelude//platforms:default#904931f735703749) ->\n      root//lib/io:io (prelude//platforms:default#904931f735703749) ->\n      root//lib/codec:codec (prelude//platforms:default#904931f735703749)\n", "", kind)
	h.ask("never/nox-no-session", "sluice", "linux", "nox -s docs",
		"Usage: nox [-h] [--version] [-l] [--json] [-s [SESSIONS ...]] [-p [PYTHONS ...]] [-k KEYWORDS] [-t [TAGS ...]] ...\nnox > Sessions not found: docs\n", "", kind)
}
