package replay

// unseen3Infra: Pulumi, Argo CD, Nomad, Caddy, HAProxy, certbot and
// cloudflared, mostly in the palisade project.
func unseen3Infra(h *hand) {
	h.note(Note{ID: "pulumi-passphrase", Project: "palisade", OS: "linux", Lang: "typescript", At: day(2024, 2, 6),
		Title:   "pulumi preview in CI: passphrase must be set",
		What:    "New workflow for the staging stack fails at preview: error: getting secrets manager: passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables",
		Why:     "staging uses the passphrase secrets provider (self-managed S3 backend), the workflow only had AWS creds. The passphrase is in the org secret PALISADE_PULUMI_PASS.",
		Learned: "map it to PULUMI_CONFIG_PASSPHRASE in the job env. Locally I keep it in a file and export _FILE.",
		Fix:     "export PULUMI_CONFIG_PASSPHRASE_FILE=$HOME/.config/palisade/pulumi-pass"})
	h.ask("pulumi-passphrase/ci", "palisade", "linux", "pulumi preview --stack staging --diff",
		"Previewing update (staging):\n\n@ previewing update....\n    pulumi:pulumi:Stack palisade-staging  \nerror: getting secrets manager: passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables\nError: Process completed with exit code 255.\n",
		"pulumi-passphrase", "unseen3: stored")
	h.ask("pulumi-passphrase/config", "palisade", "darwin", "pulumi config set --secret dbPassword",
		"error: getting stack configuration: get stack secrets manager: passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables\n",
		"pulumi-passphrase", "unseen3: stored, another command")
	h.ask("pulumi-passphrase/corvid", "corvid", "linux", "pulumi up --yes --stack dev",
		"Updating (dev):\nerror: getting secrets manager: passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables\n",
		"", "unseen3: another project's project note")
	h.ask("pulumi-language-plugin", "palisade", "linux", "pulumi up --stack staging",
		"error: failed to load language plugin nodejs: could not read plugin [/usr/local/bin/pulumi-language-nodejs] stdout: EOF\n",
		"", "unseen3: same tool, another error")

	h.note(Note{ID: "pulumi-pending-export", Project: "palisade", OS: "linux", Lang: "typescript", At: day(2023, 4, 19),
		Title: "pulumi: resources with pending operations after a cancelled up",
		What: "Cancelled `pulumi up` mid-RDS-create (ctrl-c twice) and now every up says the current deployment has 1 resource(s) with pending operations, " +
			"interrupted while creating.",
		Why:     "the checkpoint still lists the create as pending; pulumi won't guess whether the RDS instance exists.",
		Learned: "export the stack, delete the entry from .deployment.pending_operations with jq, import. Check in the console first that the instance really isn't there.",
		Fix:     "pulumi stack export | jq 'del(.deployment.pending_operations)' > s.json && pulumi stack import --file s.json"})
	h.note(Note{ID: "pulumi-pending-refresh", Project: "palisade", OS: "darwin", Lang: "typescript", At: day(2025, 1, 13), ProseOver: "pulumi-pending-export",
		Title: "pending operations: refresh --clear-pending-creates, no more export/import",
		What: "Interrupted update again (laptop slept during `pulumi up`): `error: the current deployment has 2 resource(s) with pending operations`. " +
			"Please don't do the stack export | jq | import dance from the 2023 note anymore, someone imported a stale export last month and we lost two resources from state.",
		Why:     "Since 3.8x, `pulumi refresh` can resolve pending creates itself: it looks each one up in the provider and either imports it or drops it.",
		Learned: "refresh with --clear-pending-creates, read the diff, confirm. Works for interrupted deletes/updates too (they're just refreshed).",
		Fix:     "pulumi refresh --clear-pending-creates --stack staging"})
	pending := "Updating (staging):\n\n    pulumi:pulumi:Stack palisade-staging running \nerror: the current deployment has 1 resource(s) with pending operations:\n  * urn:pulumi:staging::palisade::aws:rds/instance:Instance::orders-db, interrupted while creating\n\nThese resources are in an unknown state because the Pulumi CLI was interrupted while\nwaiting for changes to these resources to complete. You should confirm whether or not the\noperations listed completed successfully by checking the state of the appropriate provider.\nFor example, if you are using AWS, you can confirm using the AWS Console.\n\nOnce you have confirmed the status of the interrupted operations, you can repair your stack\nusing `pulumi refresh` which will refresh the state from the provider you are using and\nclear the pending operations if there are any.\n\nNote that `pulumi refresh` will need to be run interactively to clear pending CREATE operations.\n"
	h.ask("pulumi-pending/up", "palisade", "linux", "pulumi up --stack staging", pending,
		"pulumi-pending-refresh", "unseen3: superseded in prose", "pulumi-pending-export")
	h.ask("pulumi-pending/win", "palisade", "windows", "pulumi up --stack staging", crlf(pending),
		"pulumi-pending-refresh", "unseen3: superseded in prose, CRLF", "pulumi-pending-export")

	h.note(Note{ID: "argocd-repo-creds", Project: "palisade", OS: "linux", Lang: "yaml", At: day(2024, 9, 2),
		Title:   "argocd sync: authentication required (deploy token rotated)",
		What:    "argocd app sync payments → rpc error: code = Unknown desc = authentication required, while resolving repo revision. All apps from the deploy repo show ComparisonError.",
		Why:     "The GitLab deploy token used by the repo secret expired on 1 Sept (1-year tokens). Nothing else changed.",
		Learned: "new deploy token (read_repository), then re-add the repo with --upsert so the secret is replaced. Calendar reminder set for next August.",
		Fix:     "argocd repo add https://gitlab.palisade.dev/platform/deploy.git --username argocd --password \"$DEPLOY_TOKEN\" --upsert"})
	h.ask("argocd-repo-creds/sync", "palisade", "linux", "argocd app sync payments --timeout 120",
		"\x1b[31mFATA\x1b[0m[0003] rpc error: code = FailedPrecondition desc = error resolving repo revision: rpc error: code = Unknown desc = authentication required\n",
		"argocd-repo-creds", "unseen3: stored, ANSI colours")
	h.ask("argocd-repo-creds/get", "palisade", "darwin", "argocd app get payments",
		"Name:               argocd/payments\nProject:            default\nServer:             https://kubernetes.default.svc\nNamespace:          payments\nURL:                https://argocd.palisade.dev/applications/payments\nSource:\n- Repo:             https://gitlab.palisade.dev/platform/deploy.git\n  Target:           main\n  Path:             apps/payments\nSyncWindow:         Sync Allowed\nSync Policy:        Automated (Prune)\nSync Status:        Unknown\nHealth Status:      Healthy\n\nCONDITION         MESSAGE                                                                                                                   LAST TRANSITION\nComparisonError   Failed to load target state: failed to generate manifest for source 1 of 1: rpc error: code = Unknown desc = authentication required  2024-09-02 08:11:47 +0200 CEST\n",
		"argocd-repo-creds", "unseen3: stored, error at the end of a table")
	h.ask("argocd-auth/url-suffix", "palisade", "linux", "argocd app sync billing",
		"level=info msg=\"repository https://gitlab.palisade.dev/platform/billing-deploy matched credential template https://gitlab.palisade.dev/platform/* (no .git suffix) - template not applied\"\nFATA[0002] rpc error: code = FailedPrecondition desc = error resolving repo revision: rpc error: code = Unknown desc = authentication required\n",
		"", "unseen3: same text, another cause")

	h.note(Note{ID: "argocd-hard-refresh", Project: "palisade", OS: "linux", Lang: "yaml", At: day(2025, 4, 28),
		Title: "Argo keeps showing the old helm error after the fix (cached)",
		What: "Fixed the chart's kubeVersion constraint and pushed, but the app still said " +
			"`Manifest generation error (cached): ... Error: chart requires kubeVersion: >=1.27.0-0 which is incompatible with Kubernetes v1.26.9`.",
		Why:     "\"(cached)\" is the repo-server replaying a failed generation from its cache for the same revision+params; a normal refresh reuses it.",
		Learned: "hard refresh. If it's the cluster that was too old (not the chart), upgrade the cluster, no Argo setting helps.",
		Fix:     "argocd app get ingress-nginx --hard-refresh"})
	h.ask("argocd-hard-refresh/app", "palisade", "linux", "argocd app sync ingress-nginx",
		"FATA[0004] rpc error: code = Unknown desc = Manifest generation error (cached): `helm template . --name-template ingress-nginx --namespace ingress-nginx --kube-version 1.26 --values /tmp/a1b2c3/values-prod.yaml <api versions removed> --include-crds` failed exit status 1: Error: chart requires kubeVersion: >=1.27.0-0 which is incompatible with Kubernetes v1.26.9\n",
		"argocd-hard-refresh", "unseen3: stored")

	h.note(Note{ID: "nomad-missing-drivers", Project: "palisade", OS: "linux", Lang: "hcl", At: day(2023, 10, 10),
		Title:   "nomad job won't place: missing drivers",
		What:    "`nomad job run api.nomad.hcl` → Placement Failures ... Constraint \"missing drivers\": 3 nodes excluded by filter",
		Why:     "docker was installed on the new clients by the ansible role AFTER nomad had started, so the docker driver fingerprinted as undetected. `nomad node status -verbose <id>` shows docker: Detected=false.",
		Learned: "restart nomad on the clients after installing docker (role now notifies the handler).",
		Fix:     "sudo systemctl restart nomad"})
	h.ask("nomad-missing-drivers/run", "palisade", "linux", "nomad job run deploy/api.nomad.hcl",
		"==> 2023-11-02T09:14:20Z: Monitoring evaluation \"5c1e9a7b\"\n    2023-11-02T09:14:20Z: Evaluation triggered by job \"api\"\n    2023-11-02T09:14:21Z: Evaluation within deployment: \"0f3d2c1b\"\n    2023-11-02T09:14:21Z: Evaluation status changed: \"pending\" -> \"complete\"\n==> 2023-11-02T09:14:21Z: Evaluation \"5c1e9a7b\" finished with status \"complete\" but failed to place all allocations:\n    2023-11-02T09:14:21Z: Task Group \"api\" (failed to place 3 allocations):\n      * Class \"general\": 3 nodes excluded by filter\n      * Constraint \"missing drivers\": 3 nodes excluded by filter\n    2023-11-02T09:14:21Z: Evaluation \"b7a6e5d4\" waiting for additional capacity to place remainder\n",
		"nomad-missing-drivers", "unseen3: stored")
	h.ask("nomad-job-parse", "palisade", "darwin", "nomad job run deploy/worker.nomad.hcl",
		"Error getting job struct: Error parsing job file from deploy/worker.nomad.hcl:\nworker.nomad.hcl:31,9-19: Unsupported argument; An argument named \"memory_max\" is not expected here.\n",
		"", "unseen3: same tool, another error")

	h.note(Note{ID: "nomad-token", Project: "palisade", OS: "darwin", Lang: "hcl", At: day(2024, 3, 27),
		Title:   "403 Permission denied from nomad on the laptop",
		What:    "Error submitting job: Unexpected response code: 403 (Permission denied)",
		Why:     "ACLs got enabled on the prod cluster; my shell had no NOMAD_TOKEN (the old anonymous policy allowed submit).",
		Learned: "tokens come from Vault's nomad secrets engine now, 1h TTL.",
		Fix:     "export NOMAD_TOKEN=$(vault read -field=secret_id nomad/creds/deployer)"})
	h.ask("nomad-token/plan", "palisade", "darwin", "nomad job plan deploy/api.nomad.hcl",
		"Error during plan: Unexpected response code: 403 (Permission denied)\n",
		"nomad-token", "unseen3: stored, another subcommand")

	h.note(Note{ID: "caddy-acme-firewall", Project: "palisade", OS: "linux", Lang: "caddyfile", At: day(2024, 5, 21),
		Title: "caddy can't get a cert: Timeout during connect (likely firewall problem)",
		What: "New edge VM, caddy logs loop on `could not get certificate from issuer` with " +
			"urn:ietf:params:acme:error:connection ... Timeout during connect (likely firewall problem)",
		Why:     "the cloud security group only opened 443. HTTP-01 validation comes in on port 80, and TLS-ALPN on 443 was disabled in our global options.",
		Learned: "open 80 to the world on every edge box (caddy redirects it anyway).",
		Fix:     "sudo ufw allow 80/tcp"})
	acme := "{\"level\":\"info\",\"ts\":1716301811.42,\"logger\":\"tls.obtain\",\"msg\":\"acquiring lock\",\"identifier\":\"%[1]s\"}\n{\"level\":\"info\",\"ts\":1716301812.01,\"logger\":\"http.acme_client\",\"msg\":\"trying to solve challenge\",\"identifier\":\"%[1]s\",\"challenge_type\":\"http-01\",\"ca\":\"https://acme-v02.api.letsencrypt.org/directory\"}\n%[2]s{\"level\":\"error\",\"ts\":1716301823.77,\"logger\":\"http.acme_client\",\"msg\":\"challenge failed\",\"identifier\":\"%[1]s\",\"challenge_type\":\"http-01\",\"problem\":{\"type\":\"urn:ietf:params:acme:error:connection\",\"title\":\"\",\"detail\":\"203.0.113.40: Timeout during connect (likely firewall problem)\",\"instance\":\"\",\"subproblems\":[]}}\n{\"level\":\"error\",\"ts\":1716301823.77,\"logger\":\"tls.obtain\",\"msg\":\"could not get certificate from issuer\",\"identifier\":\"%[1]s\",\"issuer\":\"acme-v02.api.letsencrypt.org-directory\",\"error\":\"HTTP 400 urn:ietf:params:acme:error:connection - 203.0.113.40: Timeout during connect (likely firewall problem)\"}\n"
	h.ask("caddy-acme/edge", "palisade", "linux", "journalctl -u caddy -n 40 --no-pager", sprintf(acme, "edge-2.palisade.dev", ""),
		"caddy-acme-firewall", "unseen3: stored, JSON logs")
	h.ask("caddy-acme/ipv6", "palisade", "linux", "journalctl -u caddy -n 40 --no-pager",
		sprintf(acme, "status.palisade.dev", "{\"level\":\"warn\",\"ts\":1716301812.3,\"logger\":\"http\",\"msg\":\"AAAA record status.palisade.dev -> 2001:db8::40 points at the old load balancer; Let's Encrypt prefers IPv6\"}\n"),
		"", "unseen3: same text, another cause")

	h.note(Note{ID: "caddy-header-up", Project: "palisade", OS: "windows", Lang: "caddyfile", At: day(2026, 8, 8),
		Title:   "Caddyfile: unrecognized directive header_up",
		What:    "caddy.exe run on the dev box: Error: adapting config using caddyfile: Caddyfile:14: unrecognized directive: header_up",
		Why:     "header_up is a subdirective of reverse_proxy; I had put it at the site level next to it.",
		Learned: "move it inside the reverse_proxy { } block. `caddy fmt --overwrite` makes the nesting obvious.",
		Fix:     ""})
	h.ask("caddy-header-up/win", "palisade", "windows", `caddy.exe run --config C:\Users\dev\src\palisade\dev\Caddyfile`,
		crlf("2026/08/08 09:41:03.118\tINFO\tusing config from file\t{\"file\": \"C:\\\\Users\\\\dev\\\\src\\\\palisade\\\\dev\\\\Caddyfile\"}\nError: adapting config using caddyfile: C:\\Users\\dev\\src\\palisade\\dev\\Caddyfile:14: unrecognized directive: header_up\n"),
		"caddy-header-up", "unseen3: stored, Windows paths and CRLF")

	h.note(Note{ID: "haproxy-pem", Project: "palisade", Scope: "global", OS: "linux", Lang: "haproxy", At: day(2023, 3, 9),
		Title:   "haproxy: unable to load SSL private key from PEM file",
		What:    "haproxy -c fails: 'bind *:443' in section 'frontend' : unable to load SSL private key from PEM file '/etc/haproxy/certs/site.pem'.",
		Why:     "haproxy wants cert chain AND key in one file; certbot writes fullchain.pem and privkey.pem separately and I'd pointed at fullchain only.",
		Learned: "concatenate them (deploy hook does it on every renewal now, see certbot note).",
		Fix:     "cat /etc/letsencrypt/live/palisade.dev/fullchain.pem /etc/letsencrypt/live/palisade.dev/privkey.pem > /etc/haproxy/certs/site.pem"})
	h.ask("haproxy-pem/check", "palisade", "linux", "haproxy -c -f /etc/haproxy/haproxy.cfg",
		"[NOTICE]   (48211) : haproxy version is 2.8.3-1ppa1~jammy\n[NOTICE]   (48211) : path to executable is /usr/sbin/haproxy\n[ALERT]    (48211) : config : parsing [/etc/haproxy/haproxy.cfg:41] : 'bind *:443' in section 'frontend' : unable to load SSL private key from PEM file '/etc/haproxy/certs/site.pem'.\n[ALERT]    (48211) : config : Error(s) found in configuration file : /etc/haproxy/haproxy.cfg\n[ALERT]    (48211) : config : Fatal errors found in configuration.\n",
		"haproxy-pem", "unseen3: stored")
	h.ask("haproxy-pem/corvid", "corvid", "linux", "systemctl reload haproxy && journalctl -u haproxy -n 5",
		"Job for haproxy.service failed because the control process exited with error code.\nSee \"systemctl status haproxy.service\" and \"journalctl -xeu haproxy.service\" for details.\nMar 02 11:20:31 lb-1 haproxy[9912]: [ALERT]    (9912) : config : parsing [/etc/haproxy/haproxy.cfg:22] : 'bind :::443' in section 'frontend' : unable to load SSL private key from PEM file '/etc/ssl/corvid/mesh-gw.pem'.\nMar 02 11:20:31 lb-1 systemd[1]: haproxy.service: Control process exited, code=exited, status=1/FAILURE\n",
		"haproxy-pem", "unseen3: global note, another project")
	h.ask("haproxy-unknown-keyword", "palisade", "linux", "haproxy -c -f /etc/haproxy/haproxy.cfg",
		"[NOTICE]   (50102) : haproxy version is 2.8.3-1ppa1~jammy\n[ALERT]    (50102) : config : parsing [/etc/haproxy/haproxy.cfg:58] : unknown keyword 'http-reuse-strategy' in 'backend' section\n[ALERT]    (50102) : config : Error(s) found in configuration file : /etc/haproxy/haproxy.cfg\n",
		"", "unseen3: same tool, another error")

	h.note(Note{ID: "certbot-port-80", Project: "palisade", OS: "linux", Lang: "shell", At: day(2023, 3, 10),
		Title:   "certbot renew: could not bind TCP port 80 (haproxy on it)",
		What:    "certbot renew --dry-run → Could not bind TCP port 80 because it is already in use by another process on this system (such as a web server).",
		Why:     "the cert was issued with --standalone before haproxy existed on that box. Now haproxy owns :80.",
		Learned: "run standalone on 8888 and have haproxy route /.well-known/acme-challenge/ to 127.0.0.1:8888 (acl in haproxy.cfg).",
		Fix:     "certbot renew --http-01-port 8888"})
	h.note(Note{ID: "certbot-dns01", Project: "palisade", OS: "linux", Lang: "shell", At: day(2025, 2, 3), ProseOver: "certbot-port-80",
		Title: "certbot: moved to dns-01 via Cloudflare, forget the port 8888 trick",
		What: "After the LB rework :80 is only proxy-protocol from the cloud LB, so the acme-challenge acl never matches and renewals died with the old " +
			"`Could not bind TCP port 80` / then timeouts on 8888. The http-01-port 8888 workaround from 2023 is dead.",
		Why:     "dns-01 doesn't need any inbound port; certbot-dns-cloudflare with a scoped token (Zone:DNS:Edit on palisade.dev only).",
		Where:   "/etc/letsencrypt/renewal/palisade.dev.conf, /root/.secrets/cloudflare.ini",
		Learned: "reissue once with the plugin; renewal conf then remembers the authenticator.",
		Fix:     "certbot certonly --dns-cloudflare --dns-cloudflare-credentials /root/.secrets/cloudflare.ini -d palisade.dev -d '*.palisade.dev' --force-renewal"})
	h.ask("certbot/renew", "palisade", "linux", "certbot renew --dry-run",
		"Saving debug log to /var/log/letsencrypt/letsencrypt.log\n\n- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -\nProcessing /etc/letsencrypt/renewal/palisade.dev.conf\n- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -\nSimulating renewal of an existing certificate for palisade.dev and www.palisade.dev\n\nCould not bind TCP port 80 because it is already in use by another process on\nthis system (such as a web server). Please stop the program in question and\nthen try again.\nFailed to renew certificate palisade.dev with error: Could not bind TCP port 80 because it is already in use by another process on this system (such as a web server). Please stop the program in question and then try again.\n\n- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -\nAll simulated renewals failed. The following certificates could not be renewed:\n  /etc/letsencrypt/live/palisade.dev/fullchain.pem (failure)\n",
		"certbot-dns01", "unseen3: superseded in prose", "certbot-port-80")
	h.ask("certbot/8888-timeout", "palisade", "linux", "certbot renew --http-01-port 8888",
		"Processing /etc/letsencrypt/renewal/palisade.dev.conf\nSimulating renewal of an existing certificate for palisade.dev\n\nCertbot failed to authenticate some domains (authenticator: standalone). The Certificate Authority reported these problems:\n  Domain: palisade.dev\n  Type:   connection\n  Detail: 198.51.100.7: Fetching http://palisade.dev/.well-known/acme-challenge/Xq3..._k: Timeout during connect (likely firewall problem)\n\nHint: The Certificate Authority failed to download the challenge files from the temporary standalone webserver started by Certbot on port 8888. Ensure that the listed domains point to this machine and that it can accept inbound connections from the internet.\n",
		"certbot-dns01", "unseen3: superseded in prose, the old fix's own error", "certbot-port-80")

	h.note(Note{ID: "cloudflared-origincert", Project: "palisade", Scope: "global", OS: "darwin", Lang: "shell", At: day(2025, 5, 14),
		Title:   "cloudflared tunnel run: Cannot determine default origin certificate path",
		What:    "cloudflared tunnel run dev-kim → ERR Couldn't start tunnel error=\"Cannot determine default origin certificate path. No file cert.pem in [~/.cloudflared ...]\"",
		Why:     "running a named tunnel by name needs the account cert from `cloudflared tunnel login`; we create tunnels from the dashboard, so nobody has cert.pem.",
		Learned: "use the tunnel's token instead of the name (dashboard → tunnel → install connector shows it). No cert.pem needed at all.",
		Fix:     "cloudflared tunnel run --token \"$TUNNEL_TOKEN\""})
	h.ask("cloudflared/mac", "palisade", "darwin", "cloudflared tunnel run dev-kim",
		"2025-05-14T08:02:11Z INF Starting tunnel tunnelID=\n2025-05-14T08:02:11Z ERR Couldn't start tunnel error=\"Cannot determine default origin certificate path. No file cert.pem in [~/.cloudflared ~/.cloudflare-warp ~/cloudflare-warp /etc/cloudflared /usr/local/etc/cloudflared]. You need to specify the origin certificate path by specifying the origincert option in the configuration file, or set TUNNEL_ORIGIN_CERT environment variable originCertPath=\"\n",
		"cloudflared-origincert", "unseen3: stored")
	h.ask("cloudflared/win-gannet", "gannet", "windows", "cloudflared.exe tunnel run gannet-preview",
		crlf("2025-09-30T12:44:09Z ERR Couldn't start tunnel error=\"Cannot determine default origin certificate path. No file cert.pem in [~\\.cloudflared ~\\.cloudflare-warp ~\\cloudflare-warp C:\\Program Files (x86)\\cloudflared]. You need to specify the origin certificate path by specifying the origincert option in the configuration file, or set TUNNEL_ORIGIN_CERT environment variable originCertPath=\"\n"),
		"cloudflared-origincert", "unseen3: global note, another project and OS")
}

// unseen3Data: Cassandra, ClickHouse and mamba in the sluice project,
// k3s and nerdctl in corvid.
func unseen3Data(h *hand) {
	h.note(Note{ID: "cassandra-allow-filtering", Project: "sluice", OS: "linux", Lang: "cql", At: day(2023, 6, 27),
		Title: "cassandra: 'might involve data filtering', do NOT add ALLOW FILTERING",
		What: "The new report query (events by customer_id) fails with InvalidRequest: Error from server: code=2200 [Invalid query] " +
			"message=\"Cannot execute this query as it might involve data filtering and thus may have unpredictable performance. If you want to execute this query despite the performance unpredictability, use ALLOW FILTERING\"",
		Why: "customer_id isn't in the partition key of events (that's (tenant, day)). ALLOW FILTERING 'works' in dev with 10k rows and does a full scan in prod; " +
			"it took the cluster down in 2021 per the postmortem.",
		Learned: "Write a second table keyed by the query (events_by_customer, PRIMARY KEY ((tenant, customer_id), ts)) and dual-write from the consumer. Backfill with dsbulk.",
		Fix:     ""})
	h.ask("cassandra-filtering/cqlsh", "sluice", "linux", "cqlsh -f reports/by_customer.cql",
		"reports/by_customer.cql:4:InvalidRequest: Error from server: code=2200 [Invalid query] message=\"Cannot execute this query as it might involve data filtering and thus may have unpredictable performance. If you want to execute this query despite the performance unpredictability, use ALLOW FILTERING\"\n",
		"cassandra-allow-filtering", "unseen3: stored, fix only in prose")
	h.ask("cassandra-filtering/driver", "sluice", "darwin", "python -m sluice.reports.customer --tenant acme",
		"Traceback (most recent call last):\n  File \"/Users/kim/code/sluice/sluice/reports/customer.py\", line 52, in run\n    rows = session.execute(stmt, (tenant, customer_id))\n  File \"cassandra/cluster.py\", line 2618, in cassandra.cluster.Session.execute\n  File \"cassandra/cluster.py\", line 4901, in cassandra.cluster.ResponseFuture.result\ncassandra.InvalidRequest: Error from server: code=2200 [Invalid query] message=\"Cannot execute this query as it might involve data filtering and thus may have unpredictable performance. If you want to execute this query despite the performance unpredictability, use ALLOW FILTERING\"\n",
		"cassandra-allow-filtering", "unseen3: stored, stack trace")

	h.note(Note{ID: "clickhouse-memory-groupby", Project: "sluice", OS: "linux", Lang: "sql", At: day(2024, 10, 15),
		Title:   "ClickHouse MEMORY_LIMIT_EXCEEDED on the monthly rollup",
		What:    "Code: 241. DB::Exception: Memory limit (for query) exceeded: would use 9.31 GiB ... While executing AggregatingTransform. (MEMORY_LIMIT_EXCEEDED)",
		Why:     "GROUP BY user_id, session_id over a month is ~400M keys; the hash table doesn't fit the 10 GB per-query limit.",
		Learned: "let it spill: max_bytes_before_external_group_by at about half the limit. Slower (4 min vs 1) but finishes. Set it in the rollup's SETTINGS clause, not globally.",
		Fix:     "clickhouse-client --max_bytes_before_external_group_by=5000000000 --queries-file sql/rollup_monthly.sql"})
	h.ask("clickhouse-memory/rollup", "sluice", "linux", "clickhouse-client --queries-file sql/rollup_monthly.sql",
		"Received exception from server (version 24.8.4):\nCode: 241. DB::Exception: Received from localhost:9000. DB::Exception: Memory limit (for query) exceeded: would use 9.31 GiB (attempt to allocate chunk of 4194304 bytes), current RSS 11.02 GiB, maximum: 9.31 GiB.: (avg_value_size_hint = 66, avg_chars_size = 69.6, limit = 8192): (while reading column user_agent): (while reading from part /var/lib/clickhouse/store/3f1/3f1c2d9e-8a7b-4c6d-9e0f-1a2b3c4d5e6f/202410_1_812_6/ in table sluice.events (3f1c2d9e-8a7b-4c6d-9e0f-1a2b3c4d5e6f) located on disk default of type local, from mark 1024 with max_rows_to_read = 8192): While executing AggregatingTransform. (MEMORY_LIMIT_EXCEEDED)\n(query: INSERT INTO sluice.rollup_monthly SELECT toStartOfMonth(ts) AS month, user_id, session_id, count() ...)\n",
		"clickhouse-memory-groupby", "unseen3: stored")
	h.ask("clickhouse-memory/corvid", "corvid", "linux", "clickhouse-client -q \"SELECT trace_id, count() FROM otel.spans GROUP BY trace_id\"",
		"Code: 241. DB::Exception: Received from localhost:9000. DB::Exception: Memory limit (for query) exceeded: would use 9.31 GiB (attempt to allocate chunk of 8388608 bytes), maximum: 9.31 GiB.: While executing AggregatingTransform. (MEMORY_LIMIT_EXCEEDED)\n",
		"", "unseen3: another project's project note")
	h.ask("clickhouse-unknown-table", "sluice", "linux", "clickhouse-client --queries-file sql/rollup_daily.sql",
		"Received exception from server (version 24.8.4):\nCode: 60. DB::Exception: Received from localhost:9000. DB::Exception: Table sluice.events_v2 does not exist. Maybe you meant sluice.events?. (UNKNOWN_TABLE)\n(query: INSERT INTO sluice.rollup_daily SELECT ...)\n",
		"", "unseen3: same tool, another error")

	h.note(Note{ID: "clickhouse-too-many-parts", Project: "sluice", OS: "linux", Lang: "sql", At: day(2025, 7, 1),
		Title:   "TOO_MANY_PARTS from the ingest service",
		What:    "ingest starts getting `Code: 252. DB::Exception: Too many parts (300). Merges are processing significantly slower than inserts. (TOO_MANY_PARTS)` at peak.",
		Why:     "the new ingest pods insert one small batch per HTTP request (~200 inserts/s), each one a new part.",
		Learned: "server-side batching: async_insert on the ingest user. Proper fix is batching in the service, ticket SLU-318.",
		Fix:     "clickhouse-client -q \"ALTER USER ingest SETTINGS async_insert = 1, wait_for_async_insert = 1\""})
	h.ask("clickhouse-parts/ingest", "sluice", "linux", "kubectl logs deploy/ingest --since=10m | grep -m3 Exception",
		"2025-07-01T18:02:41.201Z ERROR ingest/writer.go:88 insert failed {\"batch\": 37, \"rows\": 212, \"error\": \"code: 252, message: Too many parts (300 with average size of 41.31 KiB) in table 'sluice.events (3f1c2d9e-8a7b-4c6d-9e0f-1a2b3c4d5e6f)'. Merges are processing significantly slower than inserts\"}\n2025-07-01T18:02:41.388Z ERROR ingest/writer.go:88 insert failed {\"batch\": 38, \"rows\": 190, \"error\": \"code: 252, message: Too many parts (301 with average size of 41.2 KiB) in table 'sluice.events (3f1c2d9e-8a7b-4c6d-9e0f-1a2b3c4d5e6f)'. Merges are processing significantly slower than inserts\"}\n",
		"clickhouse-too-many-parts", "unseen3: stored, paraphrased in the log")

	h.note(Note{ID: "mamba-osx-arm64", Project: "sluice", OS: "darwin", Lang: "python", At: day(2023, 9, 5),
		Title: "mamba env create on M2: tensorflow 2.10 does not exist",
		What: "mamba env create -f environment.yml → Could not solve for environment specs ... tensorflow 2.10.* does not exist (perhaps a typo or a missing channel). " +
			"Works on the linux boxes.",
		Why:     "conda-forge has no osx-arm64 build of tensorflow 2.10 (first arm64 builds are much later). The channel is fine, it's the platform.",
		Learned: "create that env as osx-64 and let Rosetta run it. Slow but it's only for the legacy model.",
		Fix:     "CONDA_SUBDIR=osx-64 mamba env create -f environment.yml"})
	h.note(Note{ID: "mamba-channel-linux", Project: "sluice", OS: "linux", Lang: "python", At: day(2023, 9, 6),
		Title:   "linux: same 'does not exist (perhaps a typo or a missing channel)' — it IS the channel",
		What:    "On the new GPU box the same solver error for tensorflow 2.10.* as on the Mac, but here it's not the platform.",
		Why:     "miniforge on that box was installed with a .condarc that only has `defaults`, and environment.yml didn't list conda-forge under channels.",
		Where:   "environment.yml",
		Learned: "always list channels in environment.yml explicitly (conda-forge first, nodefaults).",
		Fix:     "mamba env create -f environment.yml -c conda-forge --override-channels"})
	solve := "conda-forge/%[1]s                                   Using cache\nconda-forge/noarch                                  Using cache\nCould not solve for environment specs\nThe following package could not be installed\n\u2514\u2500 tensorflow 2.10.* does not exist (perhaps a typo or a missing channel).\n"
	h.ask("mamba/mac", "sluice", "darwin", "mamba env create -f environment.yml", sprintf(solve, "osx-arm64"),
		"mamba-osx-arm64", "unseen3: twin on another system")
	h.ask("mamba/linux", "sluice", "linux", "mamba env create -f environment.yml",
		"pkgs/main/linux-64                                  Using cache\npkgs/main/noarch                                    Using cache\nCould not solve for environment specs\nThe following package could not be installed\n\u2514\u2500 tensorflow 2.10.* does not exist (perhaps a typo or a missing channel).\n",
		"mamba-channel-linux", "unseen3: twin on another system")

	h.note(Note{ID: "k3s-memory-cgroup", Project: "corvid", Scope: "global", OS: "linux", Lang: "shell", At: day(2023, 12, 2),
		Title:   "k3s on Raspberry Pi: failed to find memory cgroup (v2)",
		What:    "k3s won't start on the Pi 4 nodes, journal says level=fatal msg=\"failed to find memory cgroup (v2)\"",
		Why:     "Raspberry Pi OS boots with the memory cgroup controller disabled.",
		Learned: "append cgroup_memory=1 cgroup_enable=memory to the single line in /boot/firmware/cmdline.txt (older images: /boot/cmdline.txt), reboot.",
		Fix:     "sudo sed -i '$ s/$/ cgroup_memory=1 cgroup_enable=memory/' /boot/firmware/cmdline.txt && sudo reboot"})
	h.ask("k3s-cgroup/pi", "corvid", "linux", "journalctl -u k3s -b --no-pager | tail -4",
		"Dec 02 19:11:40 pi-node-2 k3s[1187]: time=\"2023-12-02T19:11:40Z\" level=info msg=\"Starting k3s v1.28.4+k3s2 (6ba6c1b6)\"\nDec 02 19:11:40 pi-node-2 k3s[1187]: time=\"2023-12-02T19:11:40Z\" level=fatal msg=\"failed to find memory cgroup (v2)\"\nDec 02 19:11:40 pi-node-2 systemd[1]: k3s.service: Main process exited, code=exited, status=1/FAILURE\nDec 02 19:11:40 pi-node-2 systemd[1]: k3s.service: Failed with result 'exit-code'.\n",
		"k3s-memory-cgroup", "unseen3: stored")
	h.ask("k3s-cgroup/agent-palisade", "palisade", "linux", "curl -sfL https://get.k3s.io | K3S_URL=https://10.0.0.2:6443 K3S_TOKEN=*** sh -",
		"[INFO]  Finding release for channel stable\n[INFO]  Using v1.30.2+k3s1 as release\n[INFO]  Downloading hash https://github.com/k3s-io/k3s/releases/download/v1.30.2+k3s1/sha256sum-arm64.txt\n[INFO]  Installing k3s to /usr/local/bin/k3s\n[INFO]  systemd: Starting k3s-agent\nJob for k3s-agent.service failed because the control process exited with error code.\nSee \"systemctl status k3s-agent.service\" and \"journalctl -xeu k3s-agent.service\" for details.\n$ journalctl -xeu k3s-agent.service | grep fatal\nJul 14 07:30:02 edge-pi k3s[2210]: time=\"2024-07-14T07:30:02Z\" level=fatal msg=\"failed to find memory cgroup (v2)\"\n",
		"k3s-memory-cgroup", "unseen3: global note, another project")

	h.note(Note{ID: "nerdctl-privileged-port", Project: "corvid", OS: "linux", Lang: "shell", At: day(2026, 4, 8),
		Title:   "rootless nerdctl can't publish :80",
		What:    "nerdctl run -p 80:80 fails in rootless containerd: cannot expose privileged port 80",
		Why:     "rootlesskit can't bind below ip_unprivileged_port_start (1024 by default) without privileges.",
		Learned: "lower the sysctl (persist in /etc/sysctl.d/99-rootless.conf), or just publish 8080. We did the sysctl on the dev VMs only.",
		Fix:     "sudo sysctl -w net.ipv4.ip_unprivileged_port_start=80"})
	h.ask("nerdctl-port/run", "corvid", "linux", "nerdctl run -d --name edge -p 80:80 -p 443:443 caddy:2",
		"\x1b[31mFATA\x1b[0m[0001] failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: time=\"2026-04-08T10:20:44Z\" level=fatal msg=\"failed to call rootlessKit API: cannot expose privileged port 80, you can add 'net.ipv4.ip_unprivileged_port_start=80' to /etc/sysctl.conf (currently 1024), or set CAP_NET_BIND_SERVICE on rootlesskit binary, or choose a larger port number (>= 1024): listen tcp4 0.0.0.0:80: bind: permission denied\": unknown\n",
		"nerdctl-privileged-port", "unseen3: stored, ANSI colours")
}
