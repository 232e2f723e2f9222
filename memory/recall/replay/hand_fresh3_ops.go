package replay

// The rest of the unseen part (see handFresh3): infrastructure, hosts,
// native builds, data and the web front end.

func unseenInfra(h *hand) {
	h.note(Note{ID: "tf-backend-changed", Project: "hollow", OS: "linux", Lang: "hcl", At: day(2024, 2, 13),
		Title:   "terraform init in CI: Backend configuration changed",
		What:    "init for prod fails with Error: Backend configuration changed, suggesting -migrate-state or -reconfigure.",
		Why:     "The runner reused .terraform/ from the staging job (the cache key didn't include the environment), so the saved backend config had staging's key; we pass the key per env with -backend-config.",
		Learned: "Never -migrate-state here: it would copy staging's state into prod's key. Use -reconfigure, and the cache key now includes the env.",
		Fix:     "terraform init -reconfigure -backend-config=env/prod.s3.tfbackend"})
	backend := "Initializing the backend...\n╷\n│ Error: Backend configuration changed\n│ \n│ A change in the backend configuration has been detected, which may require migrating existing state.\n│ \n│ If you wish to attempt automatic migration of the state, use \"terraform init -migrate-state\".\n│ If you wish to store the current configuration with no changes to the state, use \"terraform init -reconfigure\".\n╵\n"
	h.ask("tf-backend-changed/1", "hollow", "linux", "terraform init -input=false -backend-config=env/prod.s3.tfbackend", backend, "tf-backend-changed", "unseen: stored")
	h.ask("tf-backend-changed/meadow", "meadow", "linux", "terraform -chdir=infra init -input=false", backend, "", "unseen: another project's project note")
	h.ask("tf-core-version", "hollow", "linux", "terraform plan",
		"╷\n│ Error: Unsupported Terraform Core version\n│ \n│   on versions.tf line 2, in terraform:\n│    2:   required_version = \">= 1.7.0\"\n│ \n│ This configuration does not support Terraform version 1.5.7. To proceed, either choose another supported Terraform version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.\n╵\n",
		"", "unseen: never stored")

	h.note(Note{ID: "s3-acl-ownership", Project: "hollow", OS: "linux", Lang: "hcl", At: day(2024, 9, 10),
		Title:   "apply fails: AccessControlListNotSupported on the new artifacts bucket",
		What:    "terraform apply: creating S3 Bucket (hollow-artifacts) ACL ... api error AccessControlListNotSupported: The bucket does not allow ACLs",
		Why:     "New buckets default to Object Ownership = BucketOwnerEnforced since April 2023, which disables ACLs; our module still sets acl = \"private\" through aws_s3_bucket_acl.",
		Learned: "Add aws_s3_bucket_ownership_controls with object_ownership = \"ObjectWriter\" and make the ACL resource depend on it.",
		Fix:     "terraform apply -target=aws_s3_bucket_ownership_controls.artifacts && terraform apply"})
	h.note(Note{ID: "s3-acl-drop", Project: "hollow", OS: "linux", Lang: "hcl", At: day(2026, 3, 24), Supersedes: "s3-acl-ownership",
		Title: "S3 buckets: no ACLs at all, BucketOwnerEnforced stays",
		What:  "AccessControlListNotSupported: The bucket does not allow ACLs again, on the reports bucket this time.",
		Why: "Security now rejects any bucket with ObjectWriter ownership (it re-enables ACLs), so re-enabling ACLs is out. " +
			"Nothing of ours needs an ACL: access is all bucket policy and IAM.",
		Learned: "Delete the aws_s3_bucket_acl resources from the module, keep BucketOwnerEnforced, and grant access through the bucket policy.",
		Fix:     "terraform state rm module.reports.aws_s3_bucket_acl.this && terraform apply"})
	acl := func(bucket, line string) string {
		return "module." + bucket + ".aws_s3_bucket.this: Creation complete after 2s [id=hollow-" + bucket + "]\nmodule." + bucket + ".aws_s3_bucket_acl.this: Creating...\n╷\n│ Error: creating S3 Bucket (hollow-" + bucket + ") ACL: operation error S3: PutBucketAcl, https response error StatusCode: 400, RequestID: 7QK2M1V9XW3T4B0A, HostID: qS9n1wXy6lQ0aP2Vd7cE1k5tB3m=, api error AccessControlListNotSupported: The bucket does not allow ACLs\n│ \n│   with module." + bucket + ".aws_s3_bucket_acl.this,\n│   on modules/bucket/main.tf line " + line + ", in resource \"aws_s3_bucket_acl\" \"this\":\n│   " + line + ": resource \"aws_s3_bucket_acl\" \"this\" {\n│ \n╵\n"
	}
	h.ask("s3-acl/reports", "hollow", "linux", "terraform apply -auto-approve plan.bin", acl("reports", "12"), "s3-acl-drop", "unseen: superseded, declared", "s3-acl-ownership")
	h.ask("s3-acl/exports", "hollow", "darwin", "terraform apply", acl("exports", "12"), "s3-acl-drop", "unseen: superseded, declared, another bucket and system", "s3-acl-ownership")

	h.note(Note{ID: "kubectl-v1alpha1", Project: "hollow", OS: "darwin", Lang: "yaml", At: day(2022, 5, 10),
		Title:   "kubectl 1.24: exec plugin invalid apiVersion",
		What:    "After brew upgraded kubectl to 1.24 every command fails: error: exec plugin: invalid apiVersion \"client.authentication.k8s.io/v1alpha1\"",
		Why:     "1.24 dropped client.authentication v1alpha1, and our kubeconfig (written by aws-iam-authenticator years ago) still uses it.",
		Learned: "Pin kubectl to 1.23 until the kubeconfigs are regenerated.",
		Fix:     "brew unlink kubernetes-cli && curl -LO https://dl.k8s.io/release/v1.23.6/bin/darwin/arm64/kubectl && chmod +x kubectl && sudo mv kubectl /usr/local/bin/"})
	h.note(Note{ID: "kubectl-regen", Project: "hollow", OS: "darwin", Lang: "yaml", At: day(2023, 11, 7), ProseOver: "kubectl-v1alpha1",
		Title: "exec plugin: invalid apiVersion again — regenerate the kubeconfig",
		What:  "`invalid apiVersion \"client.authentication.k8s.io/v1alpha1\"` came back on my new laptop.",
		Why: "Pinning kubectl 1.23 (the old note) is not an option any more: EKS 1.27 supports kubectl within one minor version only. " +
			"The real cause is the kubeconfig entry, not kubectl.",
		Learned: "Regenerate the kubeconfig with AWS CLI v2, which writes v1beta1 (AWS CLI v1 before 1.24 writes v1alpha1 too).",
		Fix:     "aws eks update-kubeconfig --name hollow-prod --region eu-central-1"})
	h.ask("kubectl-v1alpha1/get", "hollow", "darwin", "kubectl get pods -n ingress",
		"error: exec plugin: invalid apiVersion \"client.authentication.k8s.io/v1alpha1\"\n",
		"kubectl-regen", "unseen: superseded in prose", "kubectl-v1alpha1")
	h.ask("kubectl-v1alpha1/helm", "hollow", "darwin", "helm list -A",
		"Error: Kubernetes cluster unreachable: Get \"https://4F1C2B9A7E3D.gr7.eu-central-1.eks.amazonaws.com/version\": getting credentials: exec plugin is configured to use API version client.authentication.k8s.io/v1alpha1, plugin returned version client.authentication.k8s.io/v1beta1\n",
		"kubectl-regen", "unseen: superseded in prose, another tool", "kubectl-v1alpha1")
	h.ask("kubectl-forbidden", "hollow", "darwin", "kubectl get pods -n ingress",
		"Error from server (Forbidden): pods is forbidden: User \"arn:aws:sts::123456789012:assumed-role/hollow-dev/kim\" cannot list resource \"pods\" in API group \"\" in the namespace \"ingress\"\n",
		"", "unseen: same tool, another error")

	h.note(Note{ID: "ansible-dead-mac", Project: "hollow", OS: "darwin", Lang: "yaml", At: day(2023, 1, 17),
		Title:   "ansible on the Mac: A worker was found in a dead state",
		What:    "ansible-playbook dies right after Gathering Facts: ERROR! A worker was found in a dead state",
		Why:     "macOS fork safety: the forked worker touches the Objective-C runtime (the system proxy lookup in urllib) and is killed.",
		Learned: "Disable the fork-safety check for ansible runs; no_proxy='*' avoids the proxy lookup as well.",
		Fix:     "export OBJC_DISABLE_INITIALIZE_FORK_SAFETY=YES no_proxy='*'"})
	h.note(Note{ID: "ansible-dead-linux", Project: "hollow", OS: "linux", Lang: "yaml", At: day(2024, 6, 25),
		Title:   "A worker was found in a dead state on the CI runner",
		What:    "Same 'A worker was found in a dead state' from ansible-playbook, but on the Linux runner; dmesg shows the OOM killer taking ansible-playbook workers.",
		Why:     "forks = 50 in ansible.cfg: 50 workers over the big inventory on a 2 GB runner run out of memory. Nothing to do with the macOS fork-safety problem.",
		Learned: "Lower forks on CI.",
		Fix:     "ansible-playbook -f 10 -i inventories/prod site.yml"})
	dead := "PLAY [webservers] **************************************************************\n\nTASK [Gathering Facts] *********************************************************\nERROR! A worker was found in a dead state\n"
	h.ask("ansible-dead/mac", "hollow", "darwin", "ansible-playbook -i inventories/staging site.yml", dead, "ansible-dead-mac", "unseen: twin on another system")
	h.ask("ansible-dead/linux", "hollow", "linux", "ansible-playbook -i inventories/prod site.yml", dead, "ansible-dead-linux", "unseen: twin on another system")
	h.ask("ansible-dead/linux-colour", "hollow", "linux", "ansible-playbook -i inventories/prod site.yml --limit 'web*'",
		"\x1b[0;32mok: [web-1]\x1b[0m\n\x1b[0;32mok: [web-2]\x1b[0m\n\x1b[0;32mok: [web-3]\x1b[0m\n\nTASK [nginx : render site config] **********************************************\n\x1b[0;33mchanged: [web-1]\x1b[0m\n\x1b[0;31mERROR! A worker was found in a dead state\x1b[0m\n",
		"ansible-dead-linux", "unseen: twin on another system, ANSI colours")

	h.note(Note{ID: "vault-wsl", Project: "hollow", OS: "linux", Lang: "yaml", At: day(2025, 1, 28),
		Title: "vault password ignored under WSL",
		What:  "From my WSL shell in /mnt/c/Users/dev/src/hollow: `ERROR! Attempting to decrypt but no vault secrets found`, although ansible.cfg sets vault_password_file.",
		Why: "Ansible ignores ansible.cfg in a world-writable directory, and everything under /mnt/c is 0777 in WSL. " +
			"It says so in a [WARNING] on the first line, easy to miss.",
		Learned: "Keep the checkout in the WSL filesystem (~/src), or name the config explicitly with ANSIBLE_CONFIG.",
		Fix:     "export ANSIBLE_CONFIG=/mnt/c/Users/dev/src/hollow/ansible.cfg"})
	h.note(Note{ID: "vault-ci", Project: "hollow", OS: "linux", Lang: "yaml", At: day(2025, 2, 4),
		Title:   "CI deploy job: no vault secrets found",
		What:    "The deploy job fails at the first encrypted var: ERROR! Attempting to decrypt but no vault secrets found",
		Why:     ".vault_pass is gitignored; in CI it has to be written from the VAULT_PASS secret, and the new job template didn't.",
		Learned: "Write the secret to a 0600 file and pass --vault-password-file.",
		Fix:     "install -m 600 /dev/null .vault_pass && printf '%s' \"$VAULT_PASS\" > .vault_pass && ansible-playbook --vault-password-file .vault_pass site.yml"})
	h.ask("vault/wsl", "hollow", "linux", "ansible-playbook -i inventories/staging site.yml",
		"[WARNING]: Ansible is being run in a world writable directory (/mnt/c/Users/dev/src/hollow), ignoring it as an ansible.cfg source. For more information see https://docs.ansible.com/ansible/devel/reference_appendices/config.html#cfg-in-world-writable-dir\nERROR! Attempting to decrypt but no vault secrets found\n",
		"vault-wsl", "unseen: same text, another cause")
	h.ask("vault/ci", "hollow", "linux", "gh run view 11822041923 --log-failed",
		"deploy\tRun ansible\t2025-02-18T14:03:51.2210941Z ##[group]Run ansible-playbook -i inventories/prod site.yml\ndeploy\tRun ansible\t2025-02-18T14:03:51.2211702Z \x1b[36;1mansible-playbook -i inventories/prod site.yml\x1b[0m\ndeploy\tRun ansible\t2025-02-18T14:03:51.2240012Z ##[endgroup]\ndeploy\tRun ansible\t2025-02-18T14:03:53.0081247Z ERROR! Attempting to decrypt but no vault secrets found\ndeploy\tRun ansible\t2025-02-18T14:03:53.1530110Z ##[error]Process completed with exit code 1.\n",
		"vault-ci", "unseen: same text, another cause")
	h.ask("ansible-sudo", "hollow", "linux", "ansible-playbook -i inventories/prod site.yml --limit db-1",
		"PLAY [databases] ***************************************************************\n\nTASK [Gathering Facts] *********************************************************\nfatal: [db-1]: FAILED! => {\"msg\": \"Missing sudo password\"}\n\nPLAY RECAP *********************************************************************\ndb-1                       : ok=0    changed=0    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0   \n",
		"", "unseen: never stored")

	h.note(Note{ID: "hollow-helmfile", Project: "hollow", OS: "linux", Lang: "yaml", At: day(2024, 4, 2), Type: "decision", NoFailure: true,
		Title:   "All cluster add-ons go through helmfile",
		What:    "No helm install by hand any more: every release is declared in helmfile.d/*.yaml and applied by the platform job with helmfile apply.",
		Why:     "Two releases had drifted from anything anyone could reproduce.",
		Learned: "helmfile diff before apply; chart versions are pinned."})
	h.ask("helm-name-in-use", "hollow", "linux", "helm install ingress-nginx ingress-nginx/ingress-nginx -n ingress",
		"Error: INSTALLATION FAILED: cannot re-use a name that is still in use\n",
		"", "unseen: a note that describes no failure")
	h.ask("helm-values-yaml", "hollow", "linux", "helmfile apply",
		"Building dependency release=grafana, chart=grafana/grafana\nComparing release=grafana, chart=grafana/grafana, namespace=observability\nin ./helmfile.d/observability.yaml: command \"/usr/local/bin/helm\" exited with non-zero status:\n\nERROR:\n  exit status 1\n\nEXIT STATUS\n  1\n\nSTDERR:\n  Error: Failed to render chart: exit status 1: Error: YAML parse error on grafana/templates/deployment.yaml: error converting YAML to JSON: yaml: line 14: did not find expected key\n",
		"", "unseen: generic names only (values and deployment yaml)")
}

func unseenOps(h *hand) {
	h.note(Note{ID: "nofile-limits-conf", Project: "oxbow", OS: "linux", Lang: "java", At: day(2022, 4, 12),
		Title:   "broker: Too many open files",
		What:    "kafka broker on oxbow-kafka-2 logged java.io.IOException: Too many open files and dropped out of the ISR.",
		Why:     "The default nofile soft limit is 1024; a broker with ~3000 segment files plus client sockets runs out.",
		Learned: "Raise nofile for the kafka user in limits.d.",
		Fix:     "echo 'kafka - nofile 100000' | sudo tee /etc/security/limits.d/kafka.conf"})
	h.note(Note{ID: "nofile-systemd", Project: "oxbow", OS: "linux", Lang: "java", At: day(2024, 9, 30), ProseOver: "nofile-limits-conf",
		Title: "Too many open files again after the move to systemd units",
		What:  "Same `Too many open files` from the brokers since we replaced the init script with kafka.service; /proc/<pid>/limits shows Max open files 1024 / 524288.",
		Why: "The limits.d entry from the old note does nothing now: pam_limits only applies to login sessions, " +
			"and a systemd service takes its limits from the unit.",
		Learned: "LimitNOFILE in a drop-in, daemon-reload, restart the brokers one at a time.",
		Fix:     "sudo mkdir -p /etc/systemd/system/kafka.service.d && printf '[Service]\\nLimitNOFILE=100000\\n' | sudo tee /etc/systemd/system/kafka.service.d/limits.conf && sudo systemctl daemon-reload && sudo systemctl restart kafka"})
	h.ask("nofile/journal", "oxbow", "linux", "journalctl -u kafka -n 40 --no-pager",
		"Oct 14 03:12:40 oxbow-kafka-1 kafka-server-start.sh[1822]: [2024-10-14 03:12:40,551] ERROR Error while accepting connection (kafka.network.DataPlaneAcceptor)\nOct 14 03:12:40 oxbow-kafka-1 kafka-server-start.sh[1822]: java.io.IOException: Too many open files\nOct 14 03:12:40 oxbow-kafka-1 kafka-server-start.sh[1822]:         at java.base/sun.nio.ch.Net.accept(Native Method)\nOct 14 03:12:40 oxbow-kafka-1 kafka-server-start.sh[1822]:         at java.base/sun.nio.ch.ServerSocketChannelImpl.implAccept(ServerSocketChannelImpl.java:425)\nOct 14 03:12:40 oxbow-kafka-1 kafka-server-start.sh[1822]:         at kafka.network.Acceptor.accept(SocketServer.scala:765)\n",
		"nofile-systemd", "unseen: superseded in prose", "nofile-limits-conf")
	h.ask("nofile/segment", "oxbow", "linux", "ssh oxbow-kafka-3 sudo tail -n 5 /var/log/kafka/server.log",
		"ogSegment$.open(LogSegment.scala:672)\n[2024-11-02 22:40:19,008] ERROR Error while creating log for orders-7 in dir /var/lib/kafka/data (kafka.server.LogDirFailureChannel)\njava.nio.file.FileSystemException: /var/lib/kafka/data/orders-7/00000000000004411203.index: Too many open files\n\tat java.base/sun.nio.fs.UnixException.translateToIOException(UnixException.java:100)\n[2024-11-02 22:40:19,010] ERROR Shutdown broker because all log dirs in /var/lib/kafka/data have failed (kafka.log.LogManager)\n",
		"nofile-systemd", "unseen: superseded in prose, cut at the start", "nofile-limits-conf")
	h.ask("emfile-watch-mac", "nettle", "darwin", "npx jest --watch",
		"node:internal/fs/watchers:247\n    const error = new UVException({\n                  ^\n\nError: EMFILE: too many open files, watch\n    at FSEvent.FSWatcher._handle.onchange (node:internal/fs/watchers:207:21)\nEmitted 'error' event on NodeWatcher instance at:\n    at NodeWatcher.checkedEmitError (/Users/kim/code/nettle/node_modules/sane/src/node_watcher.js:143:12)\n  errno: -24,\n  syscall: 'watch',\n  code: 'EMFILE',\n  filename: null\n}\n",
		"", "unseen: same message, another object")

	h.note(Note{ID: "nix-zshrc", Project: "oxbow", Scope: "global", OS: "darwin", Lang: "nix", At: day(2023, 11, 21),
		Title:   "nix gone after the macOS update",
		What:    "zsh: command not found: nix after updating macOS to Sonoma; nix-shell and direnv's use flake broke with it.",
		Why:     "macOS updates replace /etc/zshrc, which is where the multi-user installer put the lines that source nix-daemon.sh. The store and the daemon are fine.",
		Learned: "Re-add the hook to /etc/zshrc (the Determinate installer survives updates, for the next machine).",
		Fix:     "echo '. /nix/var/nix/profiles/default/etc/profile.d/nix-daemon.sh' | sudo tee -a /etc/zshrc"})
	h.ask("nix-zshrc/oxbow", "oxbow", "darwin", "nix develop",
		"zsh: command not found: nix\n", "nix-zshrc", "unseen: stored, short tail")
	h.ask("nix-zshrc/inkwell", "inkwell", "darwin", "direnv allow && direnv exec . cargo build",
		"direnv: loading ~/code/inkwell/.envrc\ndirenv: using flake\n./.envrc:1: nix: command not found\ndirenv: error exit status 127\n",
		"nix-zshrc", "unseen: global note, another project and tool")
	h.ask("nix-missing-ci", "oxbow", "linux", "nix flake check",
		"/home/runner/work/_temp/3f9c2a1e-0b7d-4c55-9e0f-41d8a7b2c610.sh: line 1: nix: command not found\nError: Process completed with exit code 127.\n",
		"", "unseen: same text, another cause")

	h.note(Note{ID: "flake-untracked", Project: "oxbow", OS: "linux", Lang: "nix", At: day(2024, 7, 9),
		Title:   "flake can't see the new module file",
		What:    "nix build .#oxbow-agent complained it couldn't get the status of the new nix file under /nix/store/…-source — 'No such file or directory', although the file is right there in the checkout.",
		Why:     "In a git repo a flake copies only tracked files into the store; the file was new and not git-added.",
		Learned: "git add new files (no commit needed) before nix build or nix develop.",
		Fix:     "git add nix/"})
	h.ask("flake-untracked/build", "oxbow", "linux", "nix build .#oxbow-agent",
		"warning: Git tree '/home/dev/src/oxbow' is dirty\nerror:\n       … while calling the 'import' builtin\n         at /nix/store/k2v8q0a1mzl3b8d5x7xw4yrq1f3s9c2h-source/flake.nix:31:43:\n           30|       nixosModules.agent = import ./nix/modules/agent.nix;\n           31|       packages.x86_64-linux.oxbow-agent = import ./nix/agent.nix { inherit pkgs; };\n             |                                           ^\n           32|     };\n\n       error: getting status of '/nix/store/k2v8q0a1mzl3b8d5x7xw4yrq1f3s9c2h-source/nix/agent.nix': No such file or directory\n",
		"flake-untracked", "unseen: stored, paraphrased note")
	h.ask("flake-untracked/develop", "oxbow", "linux", "nix develop .#ci",
		"e '/home/dev/src/oxbow' is dirty\nerror:\n       … while evaluating the attribute 'devShells.x86_64-linux.ci'\n       error: getting status of '/nix/store/9sxg1v2fzq0lq4w7v6yq2m9r1b3c8d4a-source/nix/shells/ci.nix': No such file or directory\n",
		"flake-untracked", "unseen: stored, another file, cut at the start")

	h.note(Note{ID: "compose-v1-pip", Project: "oxbow", OS: "linux", Lang: "docker", At: day(2021, 4, 20),
		Title:   "docker-compose: command not found on the new build hosts",
		What:    "The integration step fails with docker-compose: command not found on the freshly provisioned build hosts.",
		Why:     "The Docker packages don't include docker-compose; it's a separate Python tool.",
		Learned: "Install it with pip for the build user.",
		Fix:     "pip3 install --user docker-compose"})
	h.note(Note{ID: "compose-v2-plugin", Project: "oxbow", OS: "linux", Lang: "docker", At: day(2026, 2, 9), Supersedes: "compose-v1-pip",
		Title:   "docker-compose (v1) is gone: use the compose plugin",
		What:    "`docker-compose: command not found` again on the Ubuntu 24.04 build hosts, and where pip still installs it, it dies with ModuleNotFoundError: No module named 'distutils'.",
		Why:     "Compose v1 is end of life and doesn't run on Python 3.12 (distutils was removed). Compose v2 is a docker CLI plugin from Docker's apt repository.",
		Learned: "Install docker-compose-plugin and call `docker compose` (space) in every script; no pip.",
		Fix:     "sudo apt-get install -y docker-compose-plugin && sed -i 's/docker-compose /docker compose /g' scripts/*.sh"})
	h.ask("compose/not-found", "oxbow", "linux", "./scripts/integration.sh",
		"+ docker-compose -f docker/it.yml up -d --wait\n./scripts/integration.sh: line 14: docker-compose: command not found\n",
		"compose-v2-plugin", "unseen: superseded, declared", "compose-v1-pip")
	h.ask("compose/distutils", "oxbow", "linux", "docker-compose -f docker/it.yml up -d",
		"Traceback (most recent call last):\n  File \"/home/build/.local/bin/docker-compose\", line 5, in <module>\n    from compose.cli.main import main\n  File \"/home/build/.local/lib/python3.12/site-packages/compose/cli/main.py\", line 9, in <module>\n    from distutils.spawn import find_executable\nModuleNotFoundError: No module named 'distutils'\n",
		"compose-v2-plugin", "unseen: superseded, declared, the old fix's own error", "compose-v1-pip")

	h.note(Note{ID: "systemd-217-user", Project: "oxbow", OS: "linux", Lang: "bash", At: day(2022, 10, 18),
		Title:   "oxbow-agent.service: status=217/USER on fresh edge hosts",
		What:    "systemctl status: Main process exited, code=exited, status=217/USER",
		Why:     "The unit has User=oxbow, but on fresh hosts the Ansible role that creates the system user ran after the one that installs and starts the unit.",
		Learned: "Role order fixed; on an affected host create the user and restart.",
		Fix:     "sudo useradd --system --no-create-home --shell /usr/sbin/nologin oxbow && sudo systemctl restart oxbow-agent"})
	h.ask("systemd-217/1", "oxbow", "linux", "sudo journalctl -u oxbow-agent -b --no-pager",
		"Oct 24 11:02:03 edge-7 systemd[1]: Started Oxbow edge agent.\nOct 24 11:02:03 edge-7 (bow-agent)[912]: oxbow-agent.service: Failed to determine user credentials: No such process\nOct 24 11:02:03 edge-7 (bow-agent)[912]: oxbow-agent.service: Failed at step USER spawning /usr/local/bin/oxbow-agent: No such process\nOct 24 11:02:03 edge-7 systemd[1]: oxbow-agent.service: Main process exited, code=exited, status=217/USER\nOct 24 11:02:03 edge-7 systemd[1]: oxbow-agent.service: Failed with result 'exit-code'.\n",
		"systemd-217-user", "unseen: stored")
	h.ask("systemd-217/status", "oxbow", "linux", "sudo systemctl status oxbow-agent --no-pager",
		"× oxbow-agent.service - Oxbow edge agent\n     Loaded: loaded (/etc/systemd/system/oxbow-agent.service; enabled; preset: enabled)\n     Active: failed (Result: exit-code) since Mon 2022-10-24 11:02:03 UTC; 2min 10s ago\n    Process: 912 ExecStart=/usr/local/bin/oxbow-agent --config /etc/oxbow/agent.toml (code=exited, status=217/USER)\n   Main PID: 912 (code=exited, status=217/USER)\n        CPU: 3ms\n",
		"systemd-217-user", "unseen: stored, another tool")
	h.ask("systemd-203", "oxbow", "linux", "sudo journalctl -u oxbow-agent -b --no-pager",
		"Nov 02 08:15:40 edge-9 systemd[1]: Started Oxbow edge agent.\nNov 02 08:15:40 edge-9 (bow-agent)[1204]: oxbow-agent.service: Failed to locate executable /usr/local/bin/oxbow-agent: No such file or directory\nNov 02 08:15:40 edge-9 (bow-agent)[1204]: oxbow-agent.service: Failed at step EXEC spawning /usr/local/bin/oxbow-agent: No such file or directory\nNov 02 08:15:40 edge-9 systemd[1]: oxbow-agent.service: Main process exited, code=exited, status=203/EXEC\nNov 02 08:15:40 edge-9 systemd[1]: oxbow-agent.service: Failed with result 'exit-code'.\n",
		"", "unseen: same tool, another error")

	h.note(Note{ID: "lfs-hook-missing", Project: "oxbow", Scope: "global", OS: "darwin", Lang: "git", At: day(2024, 3, 26),
		Title:   "git-lfs was not found on your path (hooks)",
		What:    "Every checkout and commit printed: This repository is configured for Git LFS but 'git-lfs' was not found on your path.",
		Why:     "The clones came over with the migrated home directory, hooks included (written by git lfs install on the old Mac); the new Mac had no git-lfs.",
		Learned: "Install git-lfs instead of deleting the hooks; without them LFS files stay pointers.",
		Fix:     "brew install git-lfs && git lfs install"})
	h.ask("lfs-hook-missing/nettle", "nettle", "darwin", "git commit -m 'hero image v2'",
		"This repository is configured for Git LFS but 'git-lfs' was not found on your path. If you no longer wish to use Git LFS, remove this hook by deleting the 'post-commit' file in the hooks directory (set by 'core.hookspath'; usually '.git/hooks').\n",
		"lfs-hook-missing", "unseen: global note, another project")

	h.note(Note{ID: "locale-sendenv", Project: "oxbow", Scope: "global", OS: "darwin", Lang: "bash", At: day(2022, 7, 19),
		Title:   "perl: warning: Setting locale failed on every apt run over ssh",
		What:    "apt on the servers, run from my Mac's terminal, spams `perl: warning: Setting locale failed.` with LC_CTYPE = \"UTF-8\" in the list.",
		Why:     "macOS Terminal sets LC_CTYPE=UTF-8, which is no locale name on Linux, and ssh forwards it because /etc/ssh/ssh_config has SendEnv LANG LC_*.",
		Learned: "Stop forwarding LC_* from the Mac.",
		Fix:     "sudo sed -i '' 's/^ *SendEnv LANG LC_\\*/# &/' /etc/ssh/ssh_config"})
	h.note(Note{ID: "locale-container", Project: "oxbow", OS: "linux", Lang: "bash", At: day(2023, 5, 30),
		Title:   "locale warnings in the debian build container",
		What:    "`perl: warning: Setting locale failed.` from every dpkg call in the builder image, with LANG = \"en_US.UTF-8\" and that locale not installed.",
		Why:     "CI exports LANG=en_US.UTF-8, but debian:bookworm images only have C.UTF-8; en_US.UTF-8 was never generated.",
		Learned: "Use C.UTF-8 in containers (no locales package needed) rather than generating en_US.",
		Fix:     "export LANG=C.UTF-8 LC_ALL=C.UTF-8"})
	h.ask("locale/ssh", "oxbow", "darwin", "ssh admin@oxbow-kafka-1 sudo apt-get install -y jq",
		"perl: warning: Setting locale failed.\nperl: warning: Please check that your locale settings:\n\tLANGUAGE = (unset),\n\tLC_ALL = (unset),\n\tLC_CTYPE = \"UTF-8\",\n\tLANG = \"en_US.UTF-8\"\n    are supported and installed on your system.\nperl: warning: Falling back to a fallback locale (\"en_US.UTF-8\").\nlocale: Cannot set LC_CTYPE to default locale: No such file or directory\n",
		"locale-sendenv", "unseen: same text, another cause")
	h.ask("locale/container", "oxbow", "linux", "docker build -t oxbow-builder:dev -f docker/builder.Dockerfile .",
		"#7 [2/5] RUN apt-get update && apt-get install -y --no-install-recommends build-essential git\n#7 3.411 perl: warning: Setting locale failed.\n#7 3.411 perl: warning: Please check that your locale settings:\n#7 3.411 \tLANGUAGE = (unset),\n#7 3.411 \tLC_ALL = (unset),\n#7 3.411 \tLANG = \"en_US.UTF-8\"\n#7 3.411     are supported and installed on your system.\n#7 3.411 perl: warning: Falling back to the standard locale (\"C\").\n#7 3.590 debconf: delaying package configuration, since apt-utils is not installed\n",
		"locale-container", "unseen: same text, another cause")
}

func unseenNative(h *hand) {
	h.note(Note{ID: "cross-gcc", Project: "inkwell", OS: "linux", Lang: "rust", At: day(2022, 3, 15),
		Title:   "cross build for the Pi: linker aarch64-linux-gnu-gcc not found",
		What:    "cargo build --target aarch64-unknown-linux-gnu → error: linker `aarch64-linux-gnu-gcc` not found",
		Why:     "rustup target add only brings std; linking needs a cross gcc.",
		Learned: "Install the cross gcc and set linker = \"aarch64-linux-gnu-gcc\" under [target.aarch64-unknown-linux-gnu] in .cargo/config.toml.",
		Fix:     "sudo apt-get install -y gcc-aarch64-linux-gnu"})
	h.note(Note{ID: "cross-zigbuild", Project: "inkwell", OS: "linux", Lang: "rust", At: day(2024, 5, 21), ProseOver: "cross-gcc",
		Title: "Pi builds: cargo-zigbuild, not the apt cross gcc",
		What:  "After the runner image update `linker aarch64-linux-gnu-gcc not found` again, and the binaries the cross gcc did build had stopped running on the Pis: `GLIBC_2.34' not found`.",
		Why: "The apt cross gcc approach from the old note is obsolete for us: it links against the runner's glibc (2.35), newer than " +
			"Raspberry Pi OS bullseye's 2.31. zig lets us pick the glibc version, and needs no cross gcc at all.",
		Learned: "cargo zigbuild with the .2.31 suffix on the target; drop the linker line from .cargo/config.toml.",
		Fix:     "pip install ziglang && cargo install --locked cargo-zigbuild && cargo zigbuild --release --target aarch64-unknown-linux-gnu.2.31"})
	h.ask("cross/linker", "inkwell", "linux", "cargo build --release --target aarch64-unknown-linux-gnu",
		"\x1b[1m\x1b[32m   Compiling\x1b[0m inkwell-daemon v0.8.2 (/home/ci/build/inkwell/daemon)\n\x1b[0m\x1b[1m\x1b[38;5;9merror\x1b[0m\x1b[0m\x1b[1m: linker `aarch64-linux-gnu-gcc` not found\x1b[0m\n\x1b[0m  \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m|\x1b[0m\n\x1b[0m  \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m= \x1b[0m\x1b[0m\x1b[1mnote\x1b[0m\x1b[0m: No such file or directory (os error 2)\x1b[0m\n\n\x1b[1m\x1b[31merror\x1b[0m\x1b[1m:\x1b[0m could not compile `inkwell-daemon` (bin \"inkwell-daemon\") due to 1 previous error\n",
		"cross-zigbuild", "unseen: superseded in prose, ANSI colours", "cross-gcc")
	h.ask("cross/glibc", "inkwell", "linux", "ssh pi@inkwell-pi-3 ./inkwell-daemon --version",
		"./inkwell-daemon: /lib/aarch64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by ./inkwell-daemon)\n./inkwell-daemon: /lib/aarch64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found (required by ./inkwell-daemon)\n",
		"cross-zigbuild", "unseen: superseded in prose, the newer symptom", "cross-gcc")

	h.note(Note{ID: "msvc-link-exe", Project: "inkwell", Scope: "global", OS: "windows", Lang: "rust", At: day(2023, 8, 8),
		Title:   "rustup on a fresh Windows box: link.exe not found",
		What:    "First cargo build on the new Windows VM: error: linker `link.exe` not found, \"the msvc targets depend on the msvc linker but `link.exe` was not found\"",
		Why:     "rustup installs the x86_64-pc-windows-msvc toolchain but not the MSVC build tools, and the VM image has no Visual Studio.",
		Learned: "Install the VS 2022 Build Tools with the C++ workload (brings the Windows SDK too), then open a new shell.",
		Fix:     "winget install Microsoft.VisualStudio.2022.BuildTools --override \"--quiet --wait --add Microsoft.VisualStudio.Workload.VCTools --includeRecommended\""})
	link := "   Compiling proc-macro2 v1.0.79\n   Compiling unicode-ident v1.0.12\nerror: linker `link.exe` not found\n  |\n  = note: program not found\n\nnote: the msvc targets depend on the msvc linker but `link.exe` was not found\n\nnote: please ensure that Visual Studio 2017 or later, or Build Tools for Visual Studio were installed with the Visual C++ option.\n\nnote: VS Code is a different product, and is not sufficient.\n\nerror: could not compile `proc-macro2` (build script) due to 1 previous error\nwarning: build failed, waiting for other jobs to finish...\n"
	h.ask("msvc-link-exe/inkwell", "inkwell", "windows", "cargo build", crlf(link), "msvc-link-exe", "unseen: stored, CRLF")
	h.ask("msvc-link-exe/nettle", "nettle", "windows", "npm run tauri build",
		crlf("\n> nettle@0.9.0 tauri\n> tauri build\n\n        Info Looking up installed tauri packages to check mismatched versions...\n     Running beforeBuildCommand `npm run build`\n"+link+"       Error failed to build app: failed to build app\n"),
		"msvc-link-exe", "unseen: global note, another project and tool")
	h.ask("linker-cc", "inkwell", "linux", "docker build -t inkwell-daemon .",
		"#11 [builder 4/5] RUN cargo build --release\n#11 2.904    Compiling libc v0.2.153\n#11 2.911 error: linker `cc` not found\n#11 2.911   |\n#11 2.911   = note: No such file or directory (os error 2)\n#11 2.915 error: could not compile `libc` (build script) due to 1 previous error\n#11 ERROR: process \"/bin/sh -c cargo build --release\" did not complete successfully: exit code: 101\n",
		"", "unseen: same message, another object")

	h.note(Note{ID: "openssl-cmake-mac", Project: "inkwell", OS: "darwin", Lang: "cpp", At: day(2024, 1, 30),
		Title:   "cmake can't find OpenSSL on the Mac",
		What:    "cmake -S . -B build: Could NOT find OpenSSL, try to set the path to OpenSSL root folder in the system variable OPENSSL_ROOT_DIR (missing: OPENSSL_CRYPTO_LIBRARY OPENSSL_INCLUDE_DIR)",
		Why:     "macOS has no OpenSSL headers, and Homebrew's openssl@3 is keg-only, so FindOpenSSL never looks in /opt/homebrew/opt/openssl@3.",
		Learned: "Pass OPENSSL_ROOT_DIR from brew (CMakePresets.json has it for the mac preset now).",
		Fix:     "cmake -S . -B build -DOPENSSL_ROOT_DIR=$(brew --prefix openssl@3)"})
	h.note(Note{ID: "openssl-cmake-linux", Project: "inkwell", OS: "linux", Lang: "cpp", At: day(2024, 2, 6),
		Title:   "Could NOT find OpenSSL in the builder image",
		What:    "Same FindOpenSSL failure (missing: OPENSSL_CRYPTO_LIBRARY OPENSSL_INCLUDE_DIR) in the Ubuntu builder.",
		Why:     "The image has libssl3 (runtime) but not the -dev package with the headers and the .so symlink; OPENSSL_ROOT_DIR doesn't help there.",
		Learned: "Install libssl-dev in the builder.",
		Fix:     "sudo apt-get install -y libssl-dev"})
	findSSL := func(cc, modules string) string {
		return "-- The C compiler identification is " + cc + "\n-- The CXX compiler identification is " + cc + "\n-- Detecting C compiler ABI info\n-- Detecting C compiler ABI info - done\n-- Check for working C compiler: /usr/bin/cc - skipped\n-- Detecting CXX compile features - done\nCMake Error at " + modules + "/FindPackageHandleStandardArgs.cmake:230 (message):\n  Could NOT find OpenSSL, try to set the path to OpenSSL root folder in the\n  system variable OPENSSL_ROOT_DIR (missing: OPENSSL_CRYPTO_LIBRARY\n  OPENSSL_INCLUDE_DIR)\nCall Stack (most recent call first):\n  " + modules + "/FindPackageHandleStandardArgs.cmake:600 (_FPHSA_FAILURE_MESSAGE)\n  " + modules + "/FindOpenSSL.cmake:689 (find_package_handle_standard_args)\n  CMakeLists.txt:18 (find_package)\n\n\n-- Configuring incomplete, errors occurred!\n"
	}
	h.ask("openssl-cmake/mac", "inkwell", "darwin", "cmake -S . -B build -G Ninja",
		findSSL("AppleClang 15.0.0.15000100", "/opt/homebrew/Cellar/cmake/3.28.2/share/cmake/Modules"), "openssl-cmake-mac", "unseen: twin on another system")
	h.ask("openssl-cmake/linux", "inkwell", "linux", "cmake -S . -B build -G Ninja",
		findSSL("GNU 13.2.0", "/usr/share/cmake-3.28/Modules"), "openssl-cmake-linux", "unseen: twin on another system")

	h.note(Note{ID: "cmake4-policy", Project: "inkwell", Scope: "global", OS: "darwin", Lang: "cpp", At: day(2025, 4, 15),
		Title:   "CMake 4.0: Compatibility with CMake < 3.5 has been removed",
		What:    "brew upgraded cmake to 4.0 and configure fails inside third-party code: `Compatibility with CMake < 3.5 has been removed from CMake.`",
		Why:     "CMake 4 dropped the pre-3.5 policies, and old projects (our vendored libsamplerate, several FetchContent deps) still say cmake_minimum_required(VERSION 2.8).",
		Learned: "Until the deps are bumped, set the policy floor from outside; the env var reaches FetchContent deps and pip builds as well.",
		Fix:     "export CMAKE_POLICY_VERSION_MINIMUM=3.5"})
	h.ask("cmake4-policy/inkwell", "inkwell", "darwin", "cmake -S . -B build",
		"-- The CXX compiler identification is AppleClang 16.0.0.16000026\nCMake Error at third_party/libsamplerate/CMakeLists.txt:1 (cmake_minimum_required):\n  Compatibility with CMake < 3.5 has been removed from CMake.\n\n  Update the VERSION argument <min> value.  Or, use the <min>...<max> syntax\n  to tell CMake that the project requires at least <min> but has been updated\n  to work with policies introduced by <max> or earlier.\n\n  Or, add -DCMAKE_POLICY_VERSION_MINIMUM=3.5 to try configuring anyway.\n\n\n-- Configuring incomplete, errors occurred!\n",
		"cmake4-policy", "unseen: stored")
	h.ask("cmake4-policy/meadow-pip", "meadow", "linux", "pip install ./vendor/fastgeo",
		"Processing ./vendor/fastgeo\n  Installing build dependencies ... done\n  Getting requirements to build wheel ... done\n  Preparing metadata (pyproject.toml) ... error\n  error: subprocess-exited-with-error\n  \n  × Preparing metadata (pyproject.toml) did not run successfully.\n  │ exit code: 1\n  ╰─> [18 lines of output]\n      *** scikit-build-core 0.10.7 using CMake 4.0.2 (metadata_wheel)\n      *** Configuring CMake...\n      CMake Error at CMakeLists.txt:2 (cmake_minimum_required):\n        Compatibility with CMake < 3.5 has been removed from CMake.\n      \n        Or, add -DCMAKE_POLICY_VERSION_MINIMUM=3.5 to try configuring anyway.\n      \n      -- Configuring incomplete, errors occurred!\n      *** CMake configuration failed\n      [end of output]\n",
		"cmake4-policy", "unseen: global note, another project and tool")
	h.ask("cmake-no-source", "inkwell", "linux", "cmake build",
		"CMake Error: The source directory \"/home/ci/build/inkwell/build\" does not appear to contain CMakeLists.txt.\nSpecify --help for usage, or press the help button on the CMake GUI.\n",
		"", "unseen: generic names only (CMakeLists.txt)")

	h.note(Note{ID: "vcpkg-classic", Project: "inkwell", OS: "windows", Lang: "cpp", At: day(2025, 9, 9),
		Title:   "vcpkg in the VS Developer PowerShell: no classic mode instance",
		What:    "`vcpkg install` in the Developer PowerShell fails: error: Could not locate a manifest (vcpkg.json) above the current working directory. This vcpkg distribution does not have a classic mode instance.",
		Why:     "The Developer PowerShell puts Visual Studio's bundled vcpkg first on PATH, and that one does manifest mode only; our standalone C:\\vcpkg is the one with the classic tree.",
		Learned: "Call C:\\vcpkg\\vcpkg.exe, or set VCPKG_ROOT and put it first on PATH.",
		Fix:     "$env:VCPKG_ROOT='C:\\vcpkg'; $env:PATH=\"C:\\vcpkg;$env:PATH\"; vcpkg install zlib:x64-windows"})
	h.ask("vcpkg-classic/1", "inkwell", "windows", "vcpkg install zlib:x64-windows",
		crlf("**********************************************************************\n** Visual Studio 2022 Developer PowerShell v17.11.2\n** Copyright (c) 2022 Microsoft Corporation\n**********************************************************************\nerror: Could not locate a manifest (vcpkg.json) above the current working directory.\nThis vcpkg distribution does not have a classic mode instance.\n"),
		"vcpkg-classic", "unseen: stored, CRLF")
	h.ask("vcpkg-build-failed", "inkwell", "windows", "C:\\vcpkg\\vcpkg.exe install openssl:x64-windows",
		crlf("Building openssl:x64-windows...\n-- Using cached openssl-openssl-openssl-3.3.1.tar.gz.\n-- Configuring x64-windows-rel\nCMake Error at scripts/cmake/vcpkg_execute_required_process.cmake:127 (message):\n    Command failed: C:/vcpkg/downloads/tools/perl/5.38.0.1/perl/bin/perl.exe Configure VC-WIN64A\n    Working Directory: C:/vcpkg/buildtrees/openssl/x64-windows-rel\n    See logs for more information:\n      C:\\vcpkg\\buildtrees\\openssl\\configure-x64-windows-rel-out.log\n\nerror: building openssl:x64-windows failed with: BUILD_FAILED\n"),
		"", "unseen: same tool, another error")
}

func unseenData(h *hand) {
	h.note(Note{ID: "alembic-heads", Project: "meadow", OS: "linux", Lang: "python", At: day(2024, 10, 22),
		Title:   "alembic upgrade: Multiple head revisions after two merges",
		What:    "The deploy's migrate step: FAILED: Multiple head revisions are present for given argument 'head'; please specify a specific target revision ...",
		Why:     "Two PRs each added a migration on top of 4f2a9c1e7b30; both merged, so the history forked.",
		Learned: "Create a merge revision and commit it. Don't `alembic upgrade heads` in prod: the order then depends on the graph walk.",
		Fix:     "alembic merge heads -m 'merge 8c1d and b07e' && alembic upgrade head"})
	h.ask("alembic-heads/upgrade", "meadow", "linux", "alembic upgrade head",
		"INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\nINFO  [alembic.runtime.migration] Will assume transactional DDL.\nERROR [alembic.util.messaging] Multiple head revisions are present for given argument 'head'; please specify a specific target revision, '<branchname>@head' to narrow to a specific head, or 'heads' for all heads\n  FAILED: Multiple head revisions are present for given argument 'head'; please specify a specific target revision, '<branchname>@head' to narrow to a specific head, or 'heads' for all heads\n",
		"alembic-heads", "unseen: stored")
	h.ask("alembic-heads/revision", "meadow", "windows", "alembic revision --autogenerate -m \"add export table\"",
		crlf("INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\nINFO  [alembic.runtime.migration] Will assume transactional DDL.\nERROR [alembic.util.messaging] Multiple heads are present; please specify the head revision on which the new revision should be based, or perform a merge.\n  FAILED: Multiple heads are present; please specify the head revision on which the new revision should be based, or perform a merge.\n"),
		"alembic-heads", "unseen: stored, another command's wording, CRLF")
	h.ask("alembic-locate", "meadow", "linux", "alembic upgrade head",
		"INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\nINFO  [alembic.runtime.migration] Will assume transactional DDL.\nERROR [alembic.util.messaging] Can't locate revision identified by 'e91b5ad3c044'\n  FAILED: Can't locate revision identified by 'e91b5ad3c044'\n",
		"", "unseen: same tool, another error")

	h.ask("alembic-not-up-to-date", "meadow", "linux", "alembic revision --autogenerate -m 'add index on events.ts'",
		"INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\nINFO  [alembic.runtime.migration] Will assume transactional DDL.\nERROR [alembic.util.messaging] Target database is not up to date.\n  FAILED: Target database is not up to date.\n",
		"", "unseen: same tool, another error")

	h.note(Note{ID: "zoneinfo-windows", Project: "meadow", OS: "windows", Lang: "python", At: day(2022, 5, 3),
		Title:   "ZoneInfoNotFoundError on Windows",
		What:    "The daily report on my Windows laptop: zoneinfo._common.ZoneInfoNotFoundError: 'No time zone found with key Europe/Berlin'",
		Why:     "Windows has no IANA tz database, so zoneinfo needs the tzdata package from PyPI. Linux never needed it, so it wasn't in requirements.",
		Learned: "tzdata is in requirements-windows.txt now.",
		Fix:     "pip install tzdata"})
	h.note(Note{ID: "zoneinfo-slim", Project: "meadow", OS: "linux", Lang: "python", At: day(2023, 8, 15),
		Title: "No time zone found with key ... in the slim image",
		What:  "Same ZoneInfoNotFoundError ('No time zone found with key Europe/Berlin') from the worker in the python:3.11-slim based image.",
		Why: "slim images don't ship /usr/share/zoneinfo. We don't want the PyPI tzdata in the image (the OS package gets the updates through apt), " +
			"so the fix on Linux is the system package, not requirements-windows.txt.",
		Learned: "Install the OS tzdata package in the Dockerfile.",
		Fix:     "apt-get update && apt-get install -y --no-install-recommends tzdata"})
	zone := func(py, app, key string) string {
		return "Traceback (most recent call last):\n  File \"" + py + "zoneinfo/_common.py\", line 12, in load_tzdata\n    return importlib.resources.files(package_name).joinpath(resource_name).open(\"rb\")\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nModuleNotFoundError: No module named 'tzdata'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"" + app + "\", line 14, in <module>\n    TZ = ZoneInfo(\"" + key + "\")\n         ^^^^^^^^^^^^^^^^^^^^^^^^^\n  File \"" + py + "zoneinfo/_common.py\", line 24, in load_tzdata\n    raise ZoneInfoNotFoundError(f\"No time zone found with key {key}\")\nzoneinfo._common.ZoneInfoNotFoundError: 'No time zone found with key " + key + "'\n"
	}
	h.ask("zoneinfo/windows", "meadow", "windows", "python -m meadow.reports.daily",
		crlf(zone(`C:\Users\dev\AppData\Local\Programs\Python\Python311\Lib\`, `C:\Users\dev\src\meadow\meadow\reports\daily.py`, "Europe/Berlin")),
		"zoneinfo-windows", "unseen: twin on another system, Windows paths and CRLF")
	h.ask("zoneinfo/linux", "meadow", "linux", "docker compose run --rm worker python -m meadow.reports.daily",
		zone("/usr/local/lib/python3.11/", "/app/meadow/reports/daily.py", "Europe/Berlin"), "zoneinfo-slim", "unseen: twin on another system")
	h.ask("zoneinfo/linux-vienna", "meadow", "linux", "kubectl logs job/meadow-export-vienna -n meadow",
		zone("/usr/local/lib/python3.11/", "/app/meadow/exports/vienna.py", "Europe/Vienna"), "zoneinfo-slim", "unseen: twin on another system, another key")

	h.note(Note{ID: "pg-collation", Project: "meadow", OS: "linux", Lang: "sql", At: day(2025, 7, 1),
		Title: "collation version mismatch after the bookworm postgres image",
		What:  "After moving the postgres container from bullseye to bookworm every connection warns that database \"meadow\" has a collation version mismatch (2.31 vs 2.36).",
		Why: "glibc 2.36 sorts some strings differently; indexes on text columns built under 2.31 may now be in the wrong order. " +
			"It's only a warning, but a unique index in the wrong order can admit duplicates.",
		Learned: "Reindex, then record the new version. Don't just silence it with REFRESH COLLATION VERSION.",
		Fix:     "psql -d meadow -c 'REINDEX DATABASE meadow' -c 'ALTER DATABASE meadow REFRESH COLLATION VERSION'"})
	collation := func(db string) string {
		return "db-1  | 2025-07-03 08:12:44.912 UTC [87] WARNING:  database \"" + db + "\" has a collation version mismatch\ndb-1  | 2025-07-03 08:12:44.912 UTC [87] DETAIL:  The database was created using collation version 2.31, but the operating system provides version 2.36.\ndb-1  | 2025-07-03 08:12:44.912 UTC [87] HINT:  Rebuild all objects in this database that use the default collation and run ALTER DATABASE " + db + " REFRESH COLLATION VERSION, or build PostgreSQL with the right library version.\n"
	}
	h.ask("pg-collation/1", "meadow", "linux", "docker compose logs db --tail 30", collation("meadow"), "pg-collation", "unseen: stored")
	h.ask("pg-collation/lodestar", "lodestar", "linux", "docker compose logs db --tail 30", collation("lodestar"), "", "unseen: another project's project note")

	h.note(Note{ID: "pg-too-many-clients", Project: "meadow", OS: "linux", Lang: "python", At: day(2023, 4, 11),
		Title:   "pytest -n 8: FATAL sorry, too many clients already",
		What:    "The parallel test run in CI dies in setup with psycopg2.OperationalError ... FATAL:  sorry, too many clients already",
		Why:     "Each xdist worker builds the SQLAlchemy engine with pool_size=20, max_overflow=10; 8 workers × 30 is well over the service container's max_connections=100.",
		Learned: "Tests use NullPool: conftest sets poolclass=NullPool whenever PYTEST_XDIST_WORKER is set."})
	h.ask("pg-too-many-clients/1", "meadow", "linux", "pytest -n 8 tests/",
		"==================================== ERRORS ====================================\n____________ ERROR at setup of test_ingest_batch_dedupes[parquet] _____________\n[gw5] linux -- Python 3.11.4 /home/ci/build/meadow/.venv/bin/python\n\n    @pytest.fixture\n    def db(engine):\n>       with engine.connect() as conn:\n\ntests/conftest.py:38: \n_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \nE   sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at \"localhost\" (127.0.0.1), port 5432 failed: FATAL:  sorry, too many clients already\nE   \nE   (Background on this error at: https://sqlalche.me/e/20/e3q8)\n=========================== short test summary info ============================\nERROR tests/test_ingest.py::test_ingest_batch_dedupes[parquet] - sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at \"localhost\" (127.0.0.1), port 5432 failed: FATAL:  sorry, too many clients already\n================= 212 passed, 37 errors in 48.21s =================\n",
		"pg-too-many-clients", "unseen: stored")
	h.ask("pg-password", "meadow", "linux", "pytest -n 8 tests/",
		"E   sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at \"localhost\" (127.0.0.1), port 5432 failed: FATAL:  password authentication failed for user \"meadow\"\nE   \nE   (Background on this error at: https://sqlalche.me/e/20/e3q8)\n=========================== short test summary info ============================\nERROR tests/test_ingest.py::test_ingest_batch_dedupes[csv] - sqlalchemy.exc.OperationalError\n================= 0 passed, 249 errors in 12.02s =================\n",
		"", "unseen: same tool, another error")

	h.note(Note{ID: "py-charmap", Project: "meadow", Scope: "global", OS: "windows", Lang: "python", At: day(2024, 12, 3),
		Title:   "UnicodeEncodeError 'charmap' when the CLI prints a check mark",
		What:    "meadow-cli status | findstr ok crashes: UnicodeEncodeError: 'charmap' codec can't encode character '\\u2713' in position 0: character maps to <undefined>",
		Why:     "When stdout is piped or redirected on Windows, Python encodes it with the ANSI code page (cp1252), which has no ✓.",
		Learned: "Run Python in UTF-8 mode on the Windows machines (PYTHONUTF8=1, PEP 540); it also fixes open() without encoding=.",
		Fix:     "setx PYTHONUTF8 1"})
	h.ask("py-charmap/meadow", "meadow", "windows", "meadow-cli status > status.txt",
		crlf("Traceback (most recent call last):\n  File \"<frozen runpy>\", line 198, in _run_module_as_main\n  File \"<frozen runpy>\", line 88, in _run_code\n  File \"C:\\Users\\dev\\src\\meadow\\.venv\\Scripts\\meadow-cli.exe\\__main__.py\", line 7, in <module>\n  File \"C:\\Users\\dev\\src\\meadow\\meadow\\cli.py\", line 61, in main\n    print(f\"{CHECK} {name:<24} {state}\")\n  File \"C:\\Users\\dev\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\encodings\\cp1252.py\", line 19, in encode\n    return codecs.charmap_encode(input,self.errors,encoding_table)[0]\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nUnicodeEncodeError: 'charmap' codec can't encode character '\\u2713' in position 0: character maps to <undefined>\n"),
		"py-charmap", "unseen: stored, Windows paths and CRLF")
	h.ask("py-charmap/rookery", "rookery", "windows", "python scripts\\gen_icons.py > icons.txt",
		crlf("Traceback (most recent call last):\n  File \"C:\\Users\\dev\\src\\rookery\\scripts\\gen_icons.py\", line 33, in <module>\n    print(f\"{name} \\u2192 {target}\")\n  File \"C:\\Python311\\Lib\\encodings\\cp1252.py\", line 19, in encode\n    return codecs.charmap_encode(input,self.errors,encoding_table)[0]\nUnicodeEncodeError: 'charmap' codec can't encode character '\\u2192' in position 17: character maps to <undefined>\n"),
		"py-charmap", "unseen: global note, another project")

	h.note(Note{ID: "redis-readonly", Project: "meadow", OS: "linux", Lang: "python", At: day(2025, 3, 18),
		Title:   "READONLY You can't write against a read only replica after the failover",
		What:    "After the managed Redis failover at 03:00 every write failed with `READONLY You can't write against a read only replica.` until the pods were restarted.",
		Why:     "The workers kept pooled connections to the node that had become a replica; only new connections follow the primary endpoint's DNS change.",
		Learned: "redis-py: retry_on_error=[ReadOnlyError] plus health_check_interval=30 so the pool reconnects; restarting the deployment is the quick fix.",
		Fix:     "kubectl rollout restart deployment/meadow-worker -n meadow"})
	h.ask("redis-readonly/1", "meadow", "linux", "kubectl logs deploy/meadow-worker -n meadow --since=10m",
		"2025-04-22 03:01:12,418 ERROR meadow.tasks.ingest flush failed\nTraceback (most recent call last):\n  File \"/app/meadow/tasks/ingest.py\", line 88, in flush_batch\n    pipe.execute()\n  File \"/usr/local/lib/python3.11/site-packages/redis/client.py\", line 1478, in execute\n    return conn.retry.call_with_retry(\n  File \"/usr/local/lib/python3.11/site-packages/redis/client.py\", line 1315, in _execute_transaction\n    raise r\nredis.exceptions.ReadOnlyError: You can't write against a read only replica.\n",
		"redis-readonly", "unseen: stored")

	h.note(Note{ID: "gha-python37", Project: "meadow", OS: "linux", Lang: "python", At: day(2025, 1, 14),
		Title:   "setup-python can't find 3.7 on ubuntu-latest",
		What:    "The legacy-sdk job broke overnight: The version '3.7' with architecture 'x64' was not found for Ubuntu 24.04.",
		Why:     "ubuntu-latest moved to 24.04, and actions/python-versions has no 3.7 builds for it (3.7 is end of life).",
		Where:   ".github/workflows/legacy-sdk.yml",
		Learned: "runs-on: ubuntu-22.04 for that job until the SDK drops 3.7."})
	h.ask("gha-python37/1", "meadow", "linux", "gh run view 12781450021 --log-failed",
		"legacy-sdk (3.7)\tSet up Python\t2025-01-14T06:02:11.8841250Z ##[group]Run actions/setup-python@v5\nlegacy-sdk (3.7)\tSet up Python\t2025-01-14T06:02:11.8841790Z with:\nlegacy-sdk (3.7)\tSet up Python\t2025-01-14T06:02:11.8842010Z   python-version: 3.7\nlegacy-sdk (3.7)\tSet up Python\t2025-01-14T06:02:11.8842870Z ##[endgroup]\nlegacy-sdk (3.7)\tSet up Python\t2025-01-14T06:02:12.0711932Z Version 3.7 was not found in the local cache\nlegacy-sdk (3.7)\tSet up Python\t2025-01-14T06:02:12.4590112Z ##[error]The version '3.7' with architecture 'x64' was not found for Ubuntu 24.04.\nlegacy-sdk (3.7)\tSet up Python\t2025-01-14T06:02:12.4603395Z The list of all available versions can be found here: https://raw.githubusercontent.com/actions/python-versions/main/versions-manifest.json\n",
		"gha-python37", "unseen: stored, CI log with timestamps")
	h.ask("gha-python37/v4", "meadow", "linux", "gh run view 12790033218 --log-failed",
		"legacy-sdk (3.7)\tSet up Python\t2025-01-15T06:01:58.2231004Z ##[group]Run actions/setup-python@v4\nlegacy-sdk (3.7)\tSet up Python\t2025-01-15T06:01:58.6605120Z Version 3.7 was not found in the local cache\nlegacy-sdk (3.7)\tSet up Python\t2025-01-15T06:01:59.0419987Z ##[error]Version 3.7 with arch x64 not found\nThe list of all available versions can be found here: https://raw.githubusercontent.com/actions/python-versions/main/versions-manifest.json\n",
		"gha-python37", "unseen: stored, older action's wording")
	h.ask("gha-python314", "meadow", "linux", "gh run view 13990210455 --log-failed",
		"test (3.14)\tSet up Python\t2025-06-02T09:14:40.1022011Z ##[group]Run actions/setup-python@v5\ntest (3.14)\tSet up Python\t2025-06-02T09:14:40.1022561Z with:\ntest (3.14)\tSet up Python\t2025-06-02T09:14:40.1022790Z   python-version: 3.14\ntest (3.14)\tSet up Python\t2025-06-02T09:14:40.4101877Z Version 3.14 was not found in the local cache\ntest (3.14)\tSet up Python\t2025-06-02T09:14:40.7711020Z ##[error]The version '3.14' with architecture 'x64' was not found for Ubuntu 22.04.\n",
		"", "unseen: same message, another object")

	h.note(Note{ID: "precommit-venv", Project: "meadow", OS: "darwin", Lang: "python", At: day(2024, 2, 27),
		Title:   "git commit: `pre-commit` not found after recreating the venv",
		What:    "Every commit failed with \"`pre-commit` not found.  Did you forget to activate your virtualenv?\"",
		Why:     "The hook in .git/hooks/pre-commit hard-codes the interpreter of the venv it was installed from (INSTALL_PYTHON=.../.venv/bin/python3); I had recreated .venv with uv, without pre-commit in it.",
		Learned: "Install pre-commit once with pipx and reinstall the hook, so it doesn't depend on the project venv.",
		Fix:     "pipx install pre-commit && pre-commit install --overwrite"})
	h.ask("precommit-venv/mac", "meadow", "darwin", "git commit -m 'exports: vienna job'",
		"`pre-commit` not found.  Did you forget to activate your virtualenv?\n", "precommit-venv", "unseen: stored, short tail")
	h.ask("precommit-venv/windows", "meadow", "windows", "git commit -am \"fix daily report tz\"",
		crlf("`pre-commit` not found.  Did you forget to activate your virtualenv?\n"), "precommit-venv", "unseen: stored, another system, CRLF")
}
