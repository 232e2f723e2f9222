package replay

import "strings"

// unseen3Mesh: Istio, Linkerd, Envoy and the OpenTelemetry collector in
// the corvid project.
func unseen3Mesh(h *hand) {
	h.note(Note{ID: "istio-host-namespace", Project: "corvid", OS: "linux", Lang: "yaml", At: day(2024, 1, 9),
		Title:   "istioctl analyze IST0101 Referenced host not found",
		What:    "Error [IST0101] (VirtualService orders/orders-vs) Referenced host not found: \"orders.default.svc.cluster.local\"",
		Why:     "the service moved to the orders namespace in the split, the VirtualService still had the default namespace FQDN.",
		Learned: "use the short name + namespace or the right FQDN; run istioctl analyze -A in CI (added to the deploy job).",
		Fix:     "sed -i 's/orders.default.svc.cluster.local/orders.orders.svc.cluster.local/' k8s/orders/virtualservice.yaml"})
	h.ask("istio-host/analyze", "corvid", "linux", "istioctl analyze -n orders",
		"Error [IST0101] (VirtualService orders/orders-vs) Referenced host not found: \"orders.default.svc.cluster.local\"\nWarning [IST0103] (Pod orders/orders-7d9f8c6b5-x2kq9) The pod orders/orders-7d9f8c6b5-x2kq9 is missing the Istio proxy. This can often be resolved by restarting or redeploying the workload.\nError: Analyzers found issues when analyzing namespace: orders.\nSee https://istio.io/v1.20/docs/reference/config/analysis for more information about causes and resolutions.\n",
		"istio-host-namespace", "unseen3: stored")
	h.ask("istio-host/payments", "corvid", "darwin", "istioctl analyze -n payments",
		"Error [IST0101] (VirtualService payments/payments-vs) Referenced host not found: \"ledger.default.svc.cluster.local\"\nError: Analyzers found issues when analyzing namespace: payments.\nSee https://istio.io/v1.22/docs/reference/config/analysis for more information about causes and resolutions.\n",
		"istio-host-namespace", "unseen3: stored, another object")

	h.note(Note{ID: "istio-wrong-version-number", Project: "corvid", OS: "linux", Lang: "yaml", At: day(2024, 11, 20),
		Title: "upstream connect error ... TLS error ... WRONG_VERSION_NUMBER to legacy-billing",
		What: "Calls from orders to legacy-billing (VM outside the mesh, ServiceEntry) fail with:\n\n" +
			"    upstream connect error or disconnect/reset before headers. reset reason: connection failure, transport failure reason: TLS error: 268435703:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER\n\n" +
			"Everything else in the mesh is fine.",
		Why:     "The mesh-wide DestinationRule sets ISTIO_MUTUAL for *.local and the ServiceEntry host is billing.legacy.local — so the sidecar speaks mTLS to a plain-HTTP VM.",
		Learned: "a DestinationRule for that host with tls.mode DISABLE (more specific host wins).",
		Fix:     "kubectl apply -n orders -f k8s/mesh/legacy-billing-dr.yaml"})
	h.ask("istio-wrong-version/curl", "corvid", "linux", "kubectl exec deploy/orders -c orders -- curl -s -o /dev/null -w '%{http_code}' http://billing.legacy.local:8080/health; kubectl logs deploy/orders -c istio-proxy --tail=2",
		"503\n[2024-11-20T10:02:11.872Z] \"GET /health HTTP/1.1\" 503 UF,URX upstream_reset_before_response_started{connection_failure,TLS_error:_268435703:SSL_routines:OPENSSL_internal:WRONG_VERSION_NUMBER} - \"-\" 0 91 12 - \"-\" \"curl/8.4.0\" \"8f1e...\" \"billing.legacy.local:8080\" \"10.20.0.14:8080\" outbound|8080||billing.legacy.local - 10.20.0.14:8080 10.244.1.33:41220 - default\nupstream connect error or disconnect/reset before headers. reset reason: connection failure, transport failure reason: TLS error: 268435703:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER\n",
		"istio-wrong-version-number", "unseen3: stored, access log")
	h.ask("envoy-wrong-version/front", "corvid", "linux", "curl -sv https://front.corvid.dev/api/v1/ping",
		"< HTTP/2 503 \n< content-length: 190\n< content-type: text/plain\n< date: Tue, 04 Mar 2025 09:12:44 GMT\n< server: envoy\n<\n* Connection #0 to host front.corvid.dev left intact\nupstream connect error or disconnect/reset before headers. reset reason: connection failure, transport failure reason: TLS error: 268435703:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER\n",
		"", "unseen3: same text, another cause")

	h.note(Note{ID: "linkerd-issuer-step", Project: "corvid", OS: "darwin", Lang: "shell", At: day(2023, 9, 14),
		Title: "linkerd check: issuer certificate expired -> rotate with step",
		What: "All meshed pods started failing identity; linkerd check: × issuer cert is within its validity period / issuer certificate is not valid anymore. " +
			"Expired on 2023-09-14T08:12:03Z. We'd created it with step a year ago and forgot.",
		Why:     "the issuer cert was 8760h; linkerd doesn't rotate the issuer itself.",
		Learned: "make a new issuer from the (still valid) trust anchor and push it with linkerd upgrade. Anchor expires 2032.",
		Fix:     "step certificate create identity.linkerd.cluster.local issuer.crt issuer.key --profile intermediate-ca --not-after 8760h --no-password --insecure --ca ca.crt --ca-key ca.key && linkerd upgrade --identity-issuer-certificate-file=issuer.crt --identity-issuer-key-file=issuer.key | kubectl apply -f -"})
	h.note(Note{ID: "linkerd-issuer-certmanager", Project: "corvid", OS: "linux", Lang: "yaml", At: day(2025, 9, 15), Supersedes: "linkerd-issuer-step",
		Title:   "linkerd issuer now rotated by cert-manager",
		What:    "It expired AGAIN (linkerd check: issuer certificate is not valid anymore) because the manual step rotation from 2023 was a once-a-year chore nobody owned.",
		Why:     "cert-manager can own the issuer: a Certificate for linkerd-identity-issuer signed by a CA Issuer holding the trust anchor, 48h duration, renewed at 25h.",
		Where:   "k8s/linkerd/cert-manager-issuer.yaml",
		Learned: "apply the cert-manager objects, then restart linkerd-identity once; no more step commands.",
		Fix:     "kubectl apply -f k8s/linkerd/cert-manager-issuer.yaml && kubectl -n linkerd rollout restart deploy/linkerd-identity"})
	lcheck := "linkerd-existence\n-----------------\n\u221a 'linkerd-config' config map exists\n\u221a heartbeat ServiceAccount exist\n\u221a control plane replica sets are ready\n\u221a no unschedulable pods\n\u221a control plane pods are ready\n\nlinkerd-identity\n----------------\n\u221a certificate config is valid\n\u221a trust anchors are using supported crypto algorithm\n\u221a trust anchors are within their validity period\n\u221a trust anchors are valid for at least 60 days\n\u221a issuer cert is using supported crypto algorithm\n\u00d7 issuer cert is within its validity period\n    issuer certificate is not valid anymore. Expired on %s\n    see https://linkerd.io/2/checks/#l5d-identity-issuer-cert-is-time-valid for hints\n\nStatus check results are \u00d7\n"
	h.ask("linkerd-issuer/check", "corvid", "linux", "linkerd check --proxy=false", sprintf(lcheck, "2025-09-14T08:12:03Z"),
		"linkerd-issuer-certmanager", "unseen3: superseded, declared", "linkerd-issuer-step")
	h.ask("linkerd-issuer/check-mac", "corvid", "darwin", "linkerd check", colourChecks(sprintf(lcheck, "2026-03-02T11:40:00Z")),
		"linkerd-issuer-certmanager", "unseen3: superseded, declared, ANSI colours", "linkerd-issuer-step")

	h.note(Note{ID: "envoy-v2-hosts", Project: "corvid", OS: "linux", Lang: "yaml", At: day(2022, 8, 30),
		Title: "envoy 1.2x rejects old front.yaml: unknown field hosts",
		What: "Bumped the envoy image and it exits at start: error initializing configuration '/etc/envoy/front.yaml': Protobuf message (type envoy.config.bootstrap.v3.Bootstrap reason " +
			"INVALID_ARGUMENT:static_resources.clusters[0]: Cannot find field.) has unknown fields",
		Why:     "`hosts:` on a cluster is v2 API, gone since v3-only envoy. The endpoint list has to be a load_assignment (ClusterLoadAssignment) now.",
		Learned: "rewrote clusters[].hosts into load_assignment.endpoints[].lb_endpoints[].endpoint.address; `envoy --mode validate -c` in CI catches it before the rollout.",
		Fix:     ""})
	h.ask("envoy-v2/validate", "corvid", "linux", "docker run --rm -v $PWD/envoy:/etc/envoy envoyproxy/envoy:v1.24.0 --mode validate -c /etc/envoy/front.yaml",
		"[2022-08-30 11:02:14.281][1][info][main] [source/server/server.cc:390] initializing epoch 0 (base id=0, hot restart version=11.104)\n[2022-08-30 11:02:14.281][1][info][main] [source/server/server.cc:392] statically linked extensions:\n[2022-08-30 11:02:14.281][1][info][main] [source/server/server.cc:394]   envoy.filters.http: envoy.bandwidth_limit, envoy.buffer, envoy.cors, envoy.csrf, envoy.ext_authz, ...\n[2022-08-30 11:02:14.287][1][critical][main] [source/server/server.cc:117] error initializing configuration '/etc/envoy/front.yaml': Protobuf message (type envoy.config.bootstrap.v3.Bootstrap reason INVALID_ARGUMENT:static_resources.clusters[0]: Cannot find field.) has unknown fields\n[2022-08-30 11:02:14.287][1][info][main] [source/server/server.cc:950] exiting\n",
		"envoy-v2-hosts", "unseen3: stored, fix only in prose")

	h.note(Note{ID: "otel-logging-exporter", Project: "corvid", Scope: "global", OS: "linux", Lang: "yaml", At: day(2024, 10, 24),
		Title:   "otelcol: 'exporters' unknown type \"logging\"",
		What:    "collector 0.111 won't start:\n```\nError: failed to get config: cannot unmarshal the configuration: decoding failed due to the following error(s):\n\n'exporters' unknown type: \"logging\" for id: \"logging\"\n```",
		Why:     "the logging exporter was deprecated for a year and removed in 0.111.0; its replacement is the debug exporter (same idea, verbosity instead of loglevel).",
		Learned: "rename logging → debug in exporters AND in service.pipelines.*.exporters, and loglevel: debug → verbosity: detailed.",
		Fix:     "sed -i 's/\\blogging\\b/debug/; s/loglevel: debug/verbosity: detailed/' /etc/otelcol-contrib/config.yaml"})
	otelLog := "Error: failed to get config: cannot unmarshal the configuration: decoding failed due to the following error(s):\n\n'exporters' unknown type: \"logging\" for id: \"logging\" (valid values: [nop otlp kafka zipkin debug otlphttp file opencensus prometheus prometheusremotewrite loadbalancing awsxray clickhouse datadog elasticsearch googlecloud loki splunk_hec])\n2024/10/24 09:40:11 collector server run finished with error: failed to get config: cannot unmarshal the configuration: decoding failed due to the following error(s):\n\n'exporters' unknown type: \"logging\" for id: \"logging\" (valid values: [nop otlp kafka zipkin debug otlphttp file ...])\n"
	h.ask("otel-logging/corvid", "corvid", "linux", "otelcol-contrib --config /etc/otelcol-contrib/config.yaml", otelLog,
		"otel-logging-exporter", "unseen3: stored")
	h.ask("otel-logging/win-sluice", "sluice", "windows", `& "C:\Program Files\OpenTelemetry Collector\otelcol-contrib.exe" --config C:\ProgramData\otelcol\config.yaml`,
		crlf(otelLog), "otel-logging-exporter", "unseen3: global note, another project and OS, CRLF")

	h.note(Note{ID: "otel-grpc-to-http-port", Project: "corvid", OS: "darwin", Lang: "go", At: day(2025, 2, 11),
		Title: "traces dropped: unknown service opentelemetry.proto.collector.trace.v1.TraceService",
		What: "My service exported nothing; collector-side nothing either. The SDK logged " +
			"`traces export: rpc error: code = Unimplemented desc = unknown service opentelemetry.proto.collector.trace.v1.TraceService`.",
		Why:     "OTEL_EXPORTER_OTLP_ENDPOINT pointed at :4318 (OTLP/HTTP) while the Go exporter was otlptracegrpc. Something on 4318 answers HTTP/2 but doesn't have the gRPC service.",
		Learned: "gRPC → 4317, HTTP → 4318. Or set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf and use otlptracehttp.",
		Fix:     "export OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4317"})
	h.ask("otel-grpc-port/run", "corvid", "darwin", "go run ./cmd/orders",
		"2025/02/11 14:20:01 orders listening on :8080\n2025/02/11 14:20:06 traces export: rpc error: code = Unimplemented desc = unknown service opentelemetry.proto.collector.trace.v1.TraceService\n2025/02/11 14:20:11 traces export: rpc error: code = Unimplemented desc = unknown service opentelemetry.proto.collector.trace.v1.TraceService\nsignal: interrupt\n",
		"otel-grpc-to-http-port", "unseen3: stored")
	h.ask("otel-grpc-port/collector", "corvid", "linux", "kubectl logs deploy/otel-agent --tail=3",
		"2025-03-01T07:00:12.114Z\terror\texporterhelper/queue_sender.go:101\tExporting failed. Dropping data.\t{\"kind\": \"exporter\", \"data_type\": \"traces\", \"name\": \"otlp/gateway\", \"error\": \"not retryable error: Permanent error: rpc error: code = Unimplemented desc = unknown service opentelemetry.proto.collector.trace.v1.TraceService\", \"dropped_items\": 512}\n",
		"otel-grpc-to-http-port", "unseen3: stored, another tool")
}

// unseen3CI: GitLab runners, Jenkins, CircleCI, Buildkite and Tekton in
// the trellis project.
func unseen3CI(h *hand) {
	h.note(Note{ID: "gitlab-dind-tls", Project: "trellis", OS: "linux", Lang: "yaml", At: day(2023, 3, 22),
		Title: "dind service: Cannot connect to the Docker daemon at tcp://docker:2375",
		What: "image build job on the new runner: `error during connect: Get \"http://docker:2375/v1.24/info\": dial tcp: lookup docker on 10.0.0.2:53: no such host` in one job, " +
			"`Cannot connect to the Docker daemon at tcp://docker:2375. Is the docker daemon running?` in the next.",
		Why: "docker:24-dind enables TLS by default and listens on 2376 only; our .gitlab-ci.yml still said DOCKER_HOST tcp://docker:2375 and DOCKER_TLS_CERTDIR \"\". " +
			"(The 'no such host' one was the runner's network_mode, fixed separately.)",
		Where:   ".gitlab-ci.yml",
		Learned: "use TLS: DOCKER_HOST=tcp://docker:2376, DOCKER_TLS_CERTDIR=/certs, DOCKER_TLS_VERIFY=1, DOCKER_CERT_PATH=/certs/client, and the runner must mount /certs/client as a volume.",
		Fix:     ""})
	h.ask("gitlab-dind/build", "trellis", "linux", "gitlab-runner exec docker build-image",
		"Running with gitlab-runner 16.9.1 (782c6ecb)\n  on trellis-docker-2 xQ3t9Zk1, system ID: s_4e0f7d2c9a1b\nPreparing the \"docker\" executor\nUsing Docker executor with image docker:24 ...\nStarting service docker:24-dind ...\nWaiting for services to be up and running (timeout 30 seconds)...\n*** WARNING: Service runner-xq3t9zk1-project-41-concurrent-0-docker-0 probably didn't start properly.\nHealth check error:\nservice \"runner-xq3t9zk1-project-41-concurrent-0-docker-0-wait-for-service\" timeout\nHealth check container logs:\n2024-03-02T10:11:12.000000000Z waiting for TCP connection to 172.17.0.3 on [2375 2376]...\nService container logs:\n2024-03-02T10:11:14.417Z time=\"2024-03-02T10:11:14.417\" level=info msg=\"API listen on [::]:2376\"\n*********\n$ docker info\nCannot connect to the Docker daemon at tcp://docker:2375. Is the docker daemon running?\nERROR: Job failed: exit code 1\n",
		"gitlab-dind-tls", "unseen3: stored, long log")

	h.note(Note{ID: "gitlab-pwsh", Project: "trellis", OS: "windows", Lang: "powershell", At: day(2024, 2, 14),
		Title:   "Windows runner: exec: \"pwsh\": executable file not found in %PATH%",
		What:    "after upgrading gitlab-runner on the Windows build box every job fails in prepare: ERROR: Job failed (system failure): prepare environment: failed to start process: exec: \"pwsh\": executable file not found in %PATH%.",
		Why:     "runner 16+ uses pwsh (PowerShell 7) as the default shell for new registrations; that box only has Windows PowerShell 5.1. Re-registration wrote shell = \"pwsh\".",
		Where:   `C:\GitLab-Runner\config.toml`,
		Learned: "either install PowerShell 7 or set shell = \"powershell\" in config.toml and restart the service. Did the latter.",
		Fix:     `(Get-Content C:\GitLab-Runner\config.toml) -replace 'shell = "pwsh"','shell = "powershell"' | Set-Content C:\GitLab-Runner\config.toml; gitlab-runner restart`})
	h.ask("gitlab-pwsh/job", "trellis", "windows", "gitlab-runner run",
		crlf("Running with gitlab-runner 16.8.0 (c72a09b6)\n  on win-build-01 Tz8pQ1aB, system ID: s_9a8b7c6d5e4f\nPreparing the \"shell\" executor\nUsing Shell (pwsh) executor...\nPreparing environment\nERROR: Job failed (system failure): prepare environment: failed to start process: exec: \"pwsh\": executable file not found in %PATH%. Check https://docs.gitlab.com/runner/shells/index.html#shell-profile-loading for more information\n"),
		"gitlab-pwsh", "unseen3: stored, CRLF")

	h.note(Note{ID: "jenkins-agent-java17", Project: "trellis", Scope: "global", OS: "linux", Lang: "java", At: day(2024, 6, 4),
		Title: "jenkins agents offline after controller upgrade (class file version 61.0)",
		What: "After the LTS upgrade all the ssh agents are offline, agent log:\n" +
			"java.lang.UnsupportedClassVersionError: hudson/remoting/Launcher has been compiled by a more recent version of the Java Runtime (class file version 61.0), this version of the Java Runtime only recognizes class file versions up to 55.0",
		Why:     "Jenkins 2.463+ requires Java 17 on agents too (remoting is built for 17); the agents ran the distro's openjdk-11.",
		Learned: "install 17 on the agents and set the agent's JavaPath (Node → Advanced) or update-alternatives. Do agents before the controller next time.",
		Fix:     "sudo apt-get install -y openjdk-17-jre-headless && sudo update-alternatives --set java /usr/lib/jvm/java-17-openjdk-amd64/bin/java"})
	h.ask("jenkins-java17/agent", "trellis", "linux", "ssh build-agent-3 'tail -n 12 /var/lib/jenkins/agent.log'",
		"[06/04/24 09:12:40] [SSH] Checking java version of java\n[06/04/24 09:12:40] [SSH] java -version returned 11.0.23.\n[06/04/24 09:12:40] [SSH] Starting sftp client.\n[06/04/24 09:12:40] [SSH] Copying latest remoting.jar...\n[06/04/24 09:12:41] [SSH] Copied 1,398,812 bytes.\nExpanded the channel window size to 4MB\n[06/04/24 09:12:41] [SSH] Starting agent process: cd \"/var/lib/jenkins\" && java  -jar remoting.jar -workDir /var/lib/jenkins -jar-cache /var/lib/jenkins/remoting/jarCache\nError: A JNI error has occurred, please check your installation and try again\nException in thread \"main\" java.lang.UnsupportedClassVersionError: hudson/remoting/Launcher has been compiled by a more recent version of the Java Runtime (class file version 61.0), this version of the Java Runtime only recognizes class file versions up to 55.0\n\tat java.base/java.lang.ClassLoader.defineClass1(Native Method)\n\tat java.base/java.lang.ClassLoader.defineClass(ClassLoader.java:1022)\nAgent JVM has terminated. Exit code=1\n",
		"jenkins-agent-java17", "unseen3: stored")
	h.ask("jenkins-java17/palisade", "palisade", "linux", "java -jar agent.jar -url https://ci.palisade.dev/ -secret @secret-file -name infra-1 -workDir /srv/jenkins",
		"Exception in thread \"main\" java.lang.UnsupportedClassVersionError: hudson/remoting/jnlp/Main has been compiled by a more recent version of the Java Runtime (class file version 61.0), this version of the Java Runtime only recognizes class file versions up to 55.0\n\tat java.base/java.lang.ClassLoader.defineClass1(Native Method)\n",
		"jenkins-agent-java17", "unseen3: global note, another project")
	h.ask("jenkins-java17/own-code", "trellis", "linux", "java -jar build/libs/trellis-reporter-all.jar --since 7d",
		"Error: LinkageError occurred while loading main class dev.trellis.reporter.MainKt\n\tjava.lang.UnsupportedClassVersionError: dev/trellis/reporter/MainKt has been compiled by a more recent version of the Java Runtime (class file version 65.0), this version of the Java Runtime only recognizes class file versions up to 61.0\n",
		"", "unseen3: same text, another cause")

	h.note(Note{ID: "jenkins-script-approval", Project: "trellis", OS: "linux", Lang: "groovy", At: day(2022, 6, 13),
		Title: "Jenkinsfile: RejectedAccessException JsonSlurperClassic",
		What: "Pipeline dies at the parse step with org.jenkinsci.plugins.scriptsecurity.sandbox.RejectedAccessException: " +
			"Scripts not permitted to use new groovy.json.JsonSlurperClassic",
		Why:     "sandboxed pipeline; JsonSlurperClassic isn't whitelisted. An admin could approve the signature but that's per-controller state nobody remembers.",
		Learned: "don't approve it: use readJSON from pipeline-utility-steps (already installed) — `def cfg = readJSON text: out`. Fix is in the Jenkinsfile, no command.",
		Fix:     ""})
	h.ask("jenkins-approval/build", "trellis", "linux", "jenkins-cli build trellis/main -s -v",
		"Started trellis » main #482\n[Pipeline] Start of Pipeline\n[Pipeline] node\nRunning on build-agent-2 in /var/lib/jenkins/workspace/trellis_main\n[Pipeline] {\n[Pipeline] stage\n[Pipeline] { (Plan)\n[Pipeline] sh\n+ ./ci/plan.sh --json\n[Pipeline] }\n[Pipeline] // stage\n[Pipeline] }\n[Pipeline] // node\n[Pipeline] End of Pipeline\nScripts not permitted to use new groovy.json.JsonSlurperClassic. Administrators can decide whether to approve or reject this signature.\norg.jenkinsci.plugins.scriptsecurity.sandbox.RejectedAccessException: Scripts not permitted to use new groovy.json.JsonSlurperClassic\n\tat org.jenkinsci.plugins.scriptsecurity.sandbox.whitelists.StaticWhitelist.rejectNew(StaticWhitelist.java:271)\n\tat org.jenkinsci.plugins.scriptsecurity.sandbox.groovy.SandboxInterceptor.onNewInstance(SandboxInterceptor.java:177)\n...\nFinished: FAILURE\n",
		"jenkins-script-approval", "unseen3: stored, fix only in prose")

	h.note(Note{ID: "circleci-resource-class", Project: "trellis", OS: "darwin", Lang: "yaml", At: day(2023, 7, 19),
		Title:   "circleci config validate: extraneous key [resource-class]",
		What:    "circleci config validate → [#/jobs/test] extraneous key [resource-class] is not permitted",
		Why:     "it's resource_class with an underscore. The schema error is awful (\"only 1 subschema matches out of 2\") but that's all it was.",
		Learned: "read the 'Passed keys' list against 'Permitted keys'.",
		Fix:     "sed -i '' 's/resource-class:/resource_class:/' .circleci/config.yml"})
	h.ask("circleci-resource-class/validate", "trellis", "darwin", "circleci config validate",
		"Error: ERROR IN CONFIG FILE:\n[#/jobs/test] only 1 subschema matches out of 2\n1. [#/jobs/test] 0 subschemas matched instead of one\n|   1. [#/jobs/test] extraneous key [resource-class] is not permitted\n|   |   Permitted keys:\n|   |     - description\n|   |     - parallelism\n|   |     - macos\n|   |     - resource_class\n|   |     - docker\n|   |     - steps\n|   |     - working_directory\n|   |     - circleci_ip_ranges\n|   |     - machine\n|   |     - environment\n|   |     - executor\n|   |     - shell\n|   |     - parameters\n|   |   Passed keys:\n|   |     - docker\n|   |     - resource-class\n|   |     - steps\n|   2. [#/jobs/test] expected type: String, found: Mapping\n|   |   Job may be a string reference to another job\n",
		"circleci-resource-class", "unseen3: stored")
	h.ask("circleci-orb-not-found", "trellis", "linux", "circleci config validate",
		"Error: config compilation contains errors: config compilation contains errors:\n\t- Error calling workflow: 'main'\n\t- Error calling job: 'deploy'\n\t- Cannot find a definition for command named aws-cli/setup\n",
		"", "unseen3: same tool, another error")

	h.note(Note{ID: "buildkite-compose-linux", Project: "trellis", OS: "linux", Lang: "yaml", At: day(2025, 1, 8),
		Title:   "buildkite docker-compose plugin v5: docker: 'compose' is not a docker command",
		What:    "after bumping docker-compose-buildkite-plugin to v5 every step on the linux agents: docker: 'compose' is not a docker command. → the plugin's command hook exited with status 1",
		Why:     "v5 dropped docker-compose v1 and calls `docker compose`; the agent AMI only had the old python docker-compose binary, no compose v2 CLI plugin.",
		Learned: "install docker-compose-plugin from docker's apt repo in the agent bootstrap.",
		Fix:     "sudo apt-get install -y docker-compose-plugin"})
	h.note(Note{ID: "buildkite-compose-mac", Project: "trellis", OS: "darwin", Lang: "yaml", At: day(2025, 1, 9),
		Title: "mac agents: same 'compose' is not a docker command, apt fix doesn't apply",
		What: "The mac mini agents (colima, no Docker Desktop) hit the same `docker: 'compose' is not a docker command.` from the compose plugin v5. " +
			"brew install docker-compose alone didn't help.",
		Why:     "brew puts the plugin in $(brew --prefix)/lib/docker/cli-plugins, which the docker CLI doesn't search unless told to.",
		Learned: "add cliPluginsExtraDirs to the buildkite-agent user's ~/.docker/config.json.",
		Fix:     "brew install docker-compose && jq '.cliPluginsExtraDirs=[\"/opt/homebrew/lib/docker/cli-plugins\"]' ~/.docker/config.json | sponge ~/.docker/config.json"})
	bk := "~~~ Running plugin docker-compose command hook\n$ /var/lib/buildkite-agent/plugins/github-com-buildkite-plugins-docker-compose-buildkite-plugin-v5-0-0/hooks/command\n:docker: Building services app\ndocker: 'compose' is not a docker command.\nSee 'docker --help'\n\U0001F6A8 Error: The plugin docker-compose command hook exited with status 1\n"
	h.ask("buildkite-compose/linux", "trellis", "linux", "buildkite-agent start", bk,
		"buildkite-compose-linux", "unseen3: twin on another system")
	h.ask("buildkite-compose/mac", "trellis", "darwin", "buildkite-agent start",
		"~~~ Preparing plugins\n# Plugin \"github.com/buildkite-plugins/docker-compose-buildkite-plugin#v5.0.0\" already checked out (1a2b3c4)\n~~~ Running plugin docker-compose command hook\n$ /Users/buildkite/.buildkite-agent/plugins/github-com-buildkite-plugins-docker-compose-buildkite-plugin-v5-0-0/hooks/command\n:docker: Building services app\ndocker: 'compose' is not a docker command.\nSee 'docker --help'\n\U0001F6A8 Error: The plugin docker-compose command hook exited with status 1\n",
		"buildkite-compose-mac", "unseen3: twin on another system")
	h.ask("buildkite-compose/gannet", "gannet", "linux", "buildkite-agent start", bk,
		"", "unseen3: another project's project note")

	h.note(Note{ID: "tekton-kaniko-push", Project: "trellis", OS: "linux", Lang: "yaml", At: day(2026, 1, 19),
		Title: "tekton build-image: kaniko UNAUTHORIZED checking push permissions",
		What: "pipelinerun fails in step-build: error checking push permissions -- make sure you entered the correct tag name, and that you are authenticated correctly, and try again: " +
			"checking push permission for \"registry.trellis.dev/trellis/api:...\": ... UNAUTHORIZED: authentication required",
		Why:     "the new `pipeline` ServiceAccount in the ci namespace had no registry secret; kaniko reads creds from the SA's secrets via Tekton's credential init.",
		Learned: "attach the docker-registry secret (with the tekton.dev/docker-0 annotation) to the SA the PipelineRun uses.",
		Fix:     "kubectl -n ci patch serviceaccount pipeline -p '{\"secrets\":[{\"name\":\"registry-creds\"}]}'"})
	h.ask("tekton-kaniko/logs", "trellis", "linux", "tkn pipelinerun logs build-api-r7x2k -n ci",
		"[fetch-source : clone] + git clone https://git.trellis.dev/trellis/api.git .\n[fetch-source : clone] Cloning into '.'...\n[fetch-source : clone] + git checkout 9e1f2a3\n[build-image : build] INFO[0000] Retrieving image manifest golang:1.23-alpine\n[build-image : build] INFO[0001] Retrieving image golang:1.23-alpine from registry index.docker.io\n[build-image : build] error checking push permissions -- make sure you entered the correct tag name, and that you are authenticated correctly, and try again: checking push permission for \"registry.trellis.dev/trellis/api:9e1f2a3\": POST https://registry.trellis.dev/v2/trellis/api/blobs/uploads/: UNAUTHORIZED: authentication required; [map[Action:pull Class: Name:trellis/api Type:repository] map[Action:push Class: Name:trellis/api Type:repository]]\n\nfailed to get logs for task build-image : container step-build has failed  : [{\"key\":\"StartedAt\",\"value\":\"2026-01-19T12:04:51.112Z\",\"type\":\"InternalTektonResult\"}]\n",
		"tekton-kaniko-push", "unseen3: stored")
	h.ask("tekton-not-found", "trellis", "linux", "tkn pipelinerun logs build-api-9pq4z -n ci",
		"Error: pipelineruns.tekton.dev \"build-api-9pq4z\" not found\n",
		"", "unseen3: same tool, another error")
}

// unseen3Signing: git commit signing with GPG fails with the same two
// lines on every system, for a different reason on each.
func unseen3Signing(h *hand) {
	h.note(Note{ID: "gpg-tty-linux", Project: "trellis", Scope: "global", OS: "linux", Lang: "shell", At: day(2022, 2, 8),
		Title:   "git commit -S: gpg failed to sign the data (ssh session)",
		What:    "over ssh on the build VM: error: gpg failed to sign the data / fatal: failed to write commit object",
		Why:     "pinentry-curses has no terminal to draw on: GPG_TTY isn't set in non-login shells and gpg-agent doesn't know where to prompt.",
		Learned: "export GPG_TTY=$(tty) in ~/.bashrc (not .profile). `echo test | gpg --clearsign` shows the real error.",
		Fix:     "export GPG_TTY=$(tty) && gpg-connect-agent updatestartuptty /bye"})
	h.note(Note{ID: "gpg-pinentry-mac", Project: "trellis", Scope: "global", OS: "darwin", Lang: "shell", At: day(2023, 5, 30),
		Title: "macOS: gpg failed to sign the data — pinentry-mac",
		What: "Signing from VS Code / Tower on the Mac: `error: gpg failed to sign the data` + `fatal: failed to write commit object`. " +
			"GPG_TTY is set, doesn't matter: GUI apps have no tty at all.",
		Why:     "brew's gnupg uses pinentry-curses by default; from a GUI there's nowhere to ask for the passphrase.",
		Learned: "install pinentry-mac, point gpg-agent at it, kill the agent. Keychain can remember the passphrase then.",
		Fix:     "brew install pinentry-mac && echo \"pinentry-program $(brew --prefix)/bin/pinentry-mac\" >> ~/.gnupg/gpg-agent.conf && gpgconf --kill gpg-agent"})
	h.note(Note{ID: "gpg-program-windows", Project: "trellis", Scope: "global", OS: "windows", Lang: "shell", At: day(2024, 8, 22),
		Title:   "Windows: git can't sign, uses the wrong gpg",
		What:    "Git for Windows: gpg failed to sign the data, fatal: failed to write commit object. Key is in Kleopatra and `gpg --list-secret-keys` in PowerShell shows it.",
		Why:     "Git for Windows runs its own bundled gpg (usr/bin/gpg.exe in Git's MSYS tree) with a separate, empty keyring. The key lives in Gpg4win's keyring.",
		Learned: "point git at Gpg4win's gpg.exe.",
		Fix:     `git config --global gpg.program "C:\Program Files (x86)\GnuPG\bin\gpg.exe"`})
	sign := "error: gpg failed to sign the data\nfatal: failed to write commit object\n"
	h.ask("gpg-sign/linux", "trellis", "linux", "git commit -S -m 'ci: bump runner image'", sign,
		"gpg-tty-linux", "unseen3: twin on another system, two lines")
	h.ask("gpg-sign/mac", "trellis", "darwin", "git commit -S -m 'docs: signing'", sign,
		"gpg-pinentry-mac", "unseen3: twin on another system, two lines")
	h.ask("gpg-sign/windows", "trellis", "windows", "git commit -S -m \"fix: path handling\"", crlf(sign),
		"gpg-program-windows", "unseen3: twin on another system, CRLF")
	h.ask("gpg-sign/sluice-linux", "sluice", "linux", "git commit -m 'load: retry on 503'",
		"hint: Waiting for your editor to close the file... \nerror: gpg failed to sign the data\nfatal: failed to write commit object\n",
		"gpg-tty-linux", "unseen3: global note, another project")
	h.ask("gpg-sign/gannet-mac", "gannet", "darwin", "git rebase -i --exec 'git commit --amend --no-edit -S' main",
		"Executing: git commit --amend --no-edit -S\nerror: gpg failed to sign the data\nfatal: failed to write commit object\nwarning: execution failed: git commit --amend --no-edit -S\nYou can fix the problem, and then run\n\n  git rebase --continue\n\n",
		"gpg-pinentry-mac", "unseen3: global note, another project")
	h.ask("gpg-no-secret-key", "trellis", "linux", "git -c core.pager=cat commit -S -m wip",
		"gpg: skipped \"3AA5C34371567BD2\": No secret key\ngpg: signing failed: No secret key\nerror: gpg failed to sign the data\nfatal: failed to write commit object\n",
		"", "unseen3: same text, another cause")
	h.ask("gpg-expired-key", "sluice", "darwin", "git tag -s v2.3.0 -m v2.3.0",
		"gpg: skipped \"kim@sluice.dev\": Unusable secret key\ngpg: signing failed: Unusable secret key\nerror: gpg failed to sign the data\nerror: unable to sign the tag\n",
		"", "unseen3: same text, another cause")
}

// colourChecks colours linkerd check's marks the way a terminal shows them.
func colourChecks(s string) string {
	return strings.NewReplacer("\u221a", "\x1b[32m\u221a\x1b[0m", "\u00d7", "\x1b[31m\u00d7\x1b[0m").Replace(s)
}
