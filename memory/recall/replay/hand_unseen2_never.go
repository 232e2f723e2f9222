package replay

// unseen2NeverStored are failures of this part's projects no note is
// about, the two met near a note that describes no failure among them.
func unseen2NeverStored(h *hand) {
	h.ask("lumen-model-uri-unset", "lumen", "linux", "docker run --rm -p 8080:8080 lumen-infer:dev",
		"2025-06-20 09:14:02,117 INFO lumen.serve starting, workers=2\nTraceback (most recent call last):\n  File \"/app/lumen/serve/__main__.py\", line 14, in <module>\n    weights = fetch_weights(os.environ[\"MODEL_URI\"])\n                            ~~~~~~~~~~^^^^^^^^^^^^^\n  File \"<frozen os>\", line 714, in __getitem__\nKeyError: 'MODEL_URI'\n",
		"", "unseen2: a note that describes no failure")
	h.ask("wrangler-auth-laptop", "paperkite", "darwin", "npx wrangler deploy --env production",
		"\n ⛅️ wrangler 3.91.0\n-------------------\n\n✘ [ERROR] A request to the Cloudflare API (/accounts/9f8e7d6c5b4a39281706f5e4d3c2b1a0/workers/services/edge-auth) failed.\n\n  Authentication error [code: 10000]\n\n\n📎 It looks like you are authenticating Wrangler via a custom API token set in an environment variable.\nPlease ensure it has the correct permissions for this operation.\n\n",
		"", "unseen2: a note that describes no failure")
	h.ask("rust-borrow-twice", "switchyard", "darwin", "cargo build -p ledger-core",
		"   Compiling ledger-core v0.4.0 (/Users/kim/code/switchyard/crates/ledger-core)\nerror[E0499]: cannot borrow `*self` as mutable more than once at a time\n  --> crates/ledger-core/src/book.rs:88:17\n   |\n86 |         let entry = self.entries.get_mut(&id).unwrap();\n   |                     ------------ first mutable borrow occurs here\n87 |         entry.amount += delta;\n88 |         self.recompute_totals();\n   |         ^^^^ second mutable borrow occurs here\n89 |         entry.touched = true;\n   |         -------------------- first borrow later used here\n\nFor more information about this error, try `rustc --explain E0499`.\nerror: could not compile `ledger-core` (lib) due to 1 previous error\n",
		"", "unseen2: never stored")
	h.ask("cargo-missing-feature", "switchyard", "linux", "cargo build --release",
		"    Updating crates.io index\nerror: failed to select a version for `reqwest`.\n    ... required by package `ledger-sync v0.4.0 (/home/ci/build/switchyard/crates/ledger-sync)`\nversions that meet the requirements `^0.12` are: 0.12.9, 0.12.8, 0.12.7, 0.12.5, 0.12.4, 0.12.3, 0.12.2, 0.12.1, 0.12.0\n\nthe package `ledger-sync` depends on `reqwest`, with features: `rustls-tls-native` but `reqwest` does not have these features.\n\n\nfailed to select a version for `reqwest` which could resolve this conflict\n",
		"", "unseen2: never stored")
	h.ask("go-generic-instantiation", "switchyard", "linux", "go build ./...",
		"# github.com/switchyard/platform/internal/cache\ninternal/cache/lru.go:41:15: cannot use generic type List[T any] without instantiation\ninternal/cache/lru.go:57:9: cannot infer V (internal/cache/lru.go:12:16)\n",
		"", "unseen2: never stored")
	h.ask("consul-no-leader", "switchyard", "linux", "consul kv get config/orders/limits",
		"Error querying Consul agent: Unexpected response code: 500 (No cluster leader)\n",
		"", "unseen2: never stored")
	h.ask("prometheus-out-of-order", "switchyard", "linux", "kubectl -n monitoring logs prometheus-k8s-0 -c prometheus --tail 4",
		"ts=2024-05-07T11:02:41.512Z caller=scrape.go:1729 level=warn component=\"scrape manager\" scrape_pool=serviceMonitor/switchyard/orders/0 target=http://10.42.1.17:9090/metrics msg=\"Error on ingesting out-of-order samples\" num_dropped=212\nts=2024-05-07T11:03:11.509Z caller=scrape.go:1729 level=warn component=\"scrape manager\" scrape_pool=serviceMonitor/switchyard/orders/0 target=http://10.42.1.17:9090/metrics msg=\"Error on ingesting out-of-order samples\" num_dropped=212\n",
		"", "unseen2: never stored")
	h.ask("vault-permission-denied", "switchyard", "linux", "vault kv get secret/switchyard/orders",
		"Error reading secret/data/switchyard/orders: Error making API request.\n\nURL: GET https://vault.switchyard.internal:8200/v1/secret/data/switchyard/orders\nCode: 403. Errors:\n\n* 1 error occurred:\n\t* permission denied\n\n",
		"", "unseen2: never stored")
	h.ask("winget-no-package", "mosswood", "windows", "winget install Microsoft.DotNet.SDK.9",
		crlf("   - \n   \\ \n                                                                                                                        \nNo package found matching input criteria.\n"),
		"", "unseen2: never stored")
	h.ask("unity-license", "emberfall", "windows", "Unity.exe -batchmode -quit -projectPath . -executeMethod Build.Windows",
		crlf("[Licensing::Module] Trying to connect to existing licensing client channel...\n[Licensing::IpcConnector] Successfully connected to: \"LicenseClient-dev\" at \"2025-09-10T08:11:40.2211Z\"\n[Licensing::Client] Error: Code 404 while processing request\n[Licensing::Module] Error: Access token is unavailable; failed to update\nNo valid Unity Editor license found. Please activate your license.\n"),
		"", "unseen2: never stored")
	h.ask("gdscript-parse-error", "emberfall", "linux", "godot --headless --check-only -s scripts/enemy.gd",
		"Godot Engine v4.3.stable.official.77dcf97d8 - https://godotengine.org\n\nSCRIPT ERROR: Parse Error: Identifier \"velocity_y\" not declared in the current scope.\n          at: GDScript::reload (res://scripts/enemy.gd:42)\nERROR: Failed to load script \"res://scripts/enemy.gd\" with error \"Parse error\".\n   at: load (modules/gdscript/gdscript.cpp:2936)\n",
		"", "unseen2: never stored")
	h.ask("latex-undefined-cs", "quillmark", "darwin", "latexmk -pdf handbook.tex",
		"! Undefined control sequence.\nl.214 \\faGithubSquare\n                     \\ \\href{https://github.com/quillmark}{quillmark}\nThe control sequence at the end of the top line\nof your error message was never \\def'ed.\n\nLatexmk: Errors, so I did not complete making targets\nCollected error summary (may duplicate other messages):\n  pdflatex: Command for 'pdflatex' gave return code 1\n",
		"", "unseen2: never stored")
	h.ask("netlify-publish-dir", "quillmark", "linux", "npx netlify deploy --build --prod",
		"Netlify Build                                                 \n────────────────────────────────────────────────────────────────\n\n❯ Version\n  @netlify/build 29.36.1\n\n(build.command completed in 14.2s)\n\nDeploy site                                                   \n────────────────────────────────────────────────────────────────\n\n  Deploy did not succeed: Deploy directory 'site/_build' does not exist\n",
		"", "unseen2: never stored")
	h.ask("spark-executor-lost", "tidewater", "linux", "spark-submit --master yarn jobs/sessionize.py",
		"24/02/19 03:41:27 ERROR YarnScheduler: Lost executor 4 on ip-10-0-3-21.eu-west-1.compute.internal: Container killed by YARN for exceeding physical memory limits. 10.6 GB of 10 GB physical memory used. Consider boosting spark.executor.memoryOverhead.\n24/02/19 03:41:27 WARN TaskSetManager: Lost task 17.0 in stage 3.0 (TID 211) (ip-10-0-3-21.eu-west-1.compute.internal executor 4): ExecutorLostFailure (executor 4 exited caused by one of the running tasks) Reason: Container killed by YARN for exceeding physical memory limits.\n",
		"", "unseen2: never stored")
	h.ask("grpc-unavailable-tls", "switchyard", "darwin", "grpcurl inventory.switchyard.internal:443 list",
		"Failed to dial target host \"inventory.switchyard.internal:443\": tls: failed to verify certificate: x509: certificate is valid for *.svc.cluster.local, not inventory.switchyard.internal\n",
		"", "unseen2: never stored")
	h.ask("selinux-httpd-connect", "quillmark", "linux", "curl -sS -o /dev/null -w '%{http_code}\\n' https://docs.quillmark.dev/api/search && sudo tail -n 2 /var/log/nginx/error.log",
		"502\n2024/06/11 08:31:10 [crit] 1123#1123: *41 connect() to 127.0.0.1:8000 failed (13: Permission denied) while connecting to upstream, client: 10.0.0.4, server: docs.quillmark.dev, request: \"GET /api/search HTTP/1.1\", upstream: \"http://127.0.0.1:8000/api/search\", host: \"docs.quillmark.dev\"\n",
		"", "unseen2: never stored")
}
