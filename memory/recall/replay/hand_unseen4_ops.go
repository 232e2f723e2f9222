package replay

// Provisioning, clusters and clouds of the fourth unseen part: Ansible,
// Packer, Vagrant, Helm, minikube, Podman, AWS CDK and SAM, gcloud,
// Firebase, Vercel, Netlify.
func unseen4Ops(h *hand) {
	h.note(Note{ID: "ansible-sudo-password", Project: "sable-infra", OS: "linux", Lang: "yaml", At: day(2023, 3, 7),
		Title:   "site.yml fails on the new web hosts",
		What:    "fatal: [web-03]: FAILED! => {\"msg\": \"Missing sudo password\"}",
		Why:     "web-03/04 were built from the new base image where the deploy user is no longer NOPASSWD in sudoers (CIS hardening).",
		Where:   "inventories/prod, roles/base",
		Learned: "Run with --ask-become-pass until the vault has become passwords for the new hosts.",
		Fix:     "ansible-playbook -i inventories/prod site.yml --limit web -K"})
	h.ask("ansible-sudo-password/1", "sable-infra", "linux", "ansible-playbook -i inventories/prod site.yml --limit web",
		tty(`
PLAY [web] *********************************************************************

TASK [Gathering Facts] *********************************************************
\e[0;32mok: [web-01]\e[0m
\e[0;32mok: [web-02]\e[0m
\e[0;31mfatal: [web-04]: FAILED! => {"msg": "Missing sudo password"}\e[0m
\e[0;31mfatal: [web-03]: FAILED! => {"msg": "Missing sudo password"}\e[0m

TASK [base : install packages] *************************************************
\e[0;32mok: [web-01]\e[0m
\e[0;32mok: [web-02]\e[0m

PLAY RECAP *********************************************************************
\e[0;32mweb-01\e[0m                     : \e[0;32mok=31  \e[0m changed=0    unreachable=0    failed=0    skipped=4    rescued=0    ignored=0
\e[0;31mweb-03\e[0m                     : ok=0    changed=0    unreachable=0    \e[0;31mfailed=1   \e[0m skipped=0    rescued=0    ignored=0
\e[0;31mweb-04\e[0m                     : ok=0    changed=0    unreachable=0    \e[0;31mfailed=1   \e[0m skipped=0    rescued=0    ignored=0
`), "ansible-sudo-password", "hand: stored, coloured")
	h.ask("ansible-unreachable", "sable-infra", "linux", "ansible-playbook -i inventories/prod site.yml --limit db",
		`PLAY [db] **********************************************************************

TASK [Gathering Facts] *********************************************************
fatal: [db-02]: UNREACHABLE! => {"changed": false, "msg": "Failed to connect to the host via ssh: ssh: connect to host 10.0.4.12 port 22: Connection timed out", "unreachable": true}
ok: [db-01]

PLAY RECAP *********************************************************************
db-01                      : ok=18   changed=1    unreachable=0    failed=0    skipped=2    rescued=0    ignored=0
db-02                      : ok=0    changed=0    unreachable=1    failed=0    skipped=0    rescued=0    ignored=0
`, "", "same tool, another error: an unreachable host")

	h.note(Note{ID: "ansible-macos-fork", Project: "sable-infra", Scope: "global", OS: "darwin", Lang: "yaml", At: day(2022, 10, 3),
		Title:   "ansible on macOS: A worker was found in a dead state",
		What:    "Any playbook with more than a couple of hosts dies on my Mac with ERROR! A worker was found in a dead state; with -vvv there's the objc line about initialize may have been in progress in another thread when fork() was called.",
		Why:     "macOS's Objective-C runtime kills forked children that touch certain classes; ansible forks a worker per host. Nothing to do with the hosts.",
		Where:   "macOS control machine",
		Learned: "Set the env var in the shell profile (or forks=1, but that's slow).",
		Fix:     "export OBJC_DISABLE_INITIALIZE_FORK_SAFETY=YES"})
	h.ask("ansible-macos-fork/elsewhere", "quokka-app", "darwin", "ansible-playbook -i ci/hosts.ini ci/mac-builders.yml",
		`PLAY [mac_builders] ************************************************************

TASK [Gathering Facts] *********************************************************
objc[71244]: +[__NSCFConstantString initialize] may have been in progress in another thread when fork() was called.
objc[71244]: +[__NSCFConstantString initialize] may have been in progress in another thread when fork() was called. We cannot safely call it or ignore it in the fork() child process. Crashing instead. Set a breakpoint on objc_initializeAfterForkError to debug.
ERROR! A worker was found in a dead state
`, "ansible-macos-fork", "global note, another project: the macOS fork note met in quokka-app")

	// Packer: two notes on one tool.
	h.note(Note{ID: "packer-ssh-timeout", Project: "sable-infra", OS: "linux", Lang: "hcl", At: day(2024, 1, 16),
		Title:   "packer AMI build: Timeout waiting for SSH",
		What:    "amazon-ebs.ubuntu errored after ~10 minutes: `Timeout waiting for SSH.` Instance boots fine.",
		Why:     "The build VPC's subnet has no public IPs and packer tried the public address; the temporary security group was fine.",
		Where:   "packer/ubuntu.pkr.hcl",
		Learned: "ssh_interface = \"private_ip\" (we build from the CI runner inside the VPC) and associate_public_ip_address = false. Code change."})
	h.ask("packer-ssh-timeout/1", "sable-infra", "linux", "packer build -var-file=prod.pkrvars.hcl packer/",
		`amazon-ebs.ubuntu: output will be in this color.

==> amazon-ebs.ubuntu: Prevalidating any provided VPC information
==> amazon-ebs.ubuntu: Prevalidating AMI Name: base-ubuntu-22.04-20240611
    amazon-ebs.ubuntu: Found Image ID: ami-0a3c14e1ddbe7f23c
==> amazon-ebs.ubuntu: Creating temporary security group for this instance: packer_66684c1e-2f0d-8b44-1a1e-5f3f3c9f1e4a
==> amazon-ebs.ubuntu: Launching a source AWS instance...
    amazon-ebs.ubuntu: Instance ID: i-0f4e9d2c1b8a7e6d5
==> amazon-ebs.ubuntu: Waiting for instance (i-0f4e9d2c1b8a7e6d5) to become ready...
==> amazon-ebs.ubuntu: Using SSH communicator to connect: 10.20.7.143
==> amazon-ebs.ubuntu: Waiting for SSH to become available...
==> amazon-ebs.ubuntu: Timeout waiting for SSH.
==> amazon-ebs.ubuntu: Terminating the source AWS instance...
==> amazon-ebs.ubuntu: Cleaning up any extra volumes...
==> amazon-ebs.ubuntu: Deleting temporary security group...
Build 'amazon-ebs.ubuntu' errored after 12 minutes 3 seconds: Timeout waiting for SSH.

==> Wait completed after 12 minutes 3 seconds

==> Some builds didn't complete successfully and had errors:
--> amazon-ebs.ubuntu: Timeout waiting for SSH.
`, "packer-ssh-timeout", "hand: stored")
	h.note(Note{ID: "packer-missing-plugins", Project: "sable-infra", OS: "windows", Lang: "hcl", At: day(2025, 2, 3),
		Title:   "packer on a fresh Windows box: Missing plugins",
		What:    "packer validate says the amazon plugin is required but not installed and asks whether I ran packer init.",
		Why:     "Plugins aren't bundled since Packer 1.10; they're installed per machine into %APPDATA%\\packer.d\\plugins.",
		Where:   "packer/ (required_plugins block)",
		Learned: "Run init once per machine/CI image; it reads required_plugins.",
		Fix:     "packer init packer/"})
	h.ask("packer-missing-plugins/1", "sable-infra", "windows", "packer build packer/",
		crlf(`Error: Missing plugins

The following plugins are required, but not installed:

github.com/hashicorp/amazon ~> 1

Did you run packer init for this project ?

`), "packer-missing-plugins", "hand: the other Packer note")

	h.note(Note{ID: "vagrant-vtx-hyperv", Project: "sable-infra", OS: "windows", Lang: "ruby", At: day(2022, 12, 12),
		Title:   "vagrant up dies with VERR_VMX_NO_VMX",
		What:    "vagrant up on my Windows laptop: VBoxManage.exe: error: VT-x is not available (VERR_VMX_NO_VMX) — VT-x is on in the BIOS.",
		Why:     "Hyper-V (turned on by Docker Desktop/WSL2) grabs VT-x, and VirtualBox 6 can't share it.",
		Where:   "Windows host",
		Learned: "Either switch hypervisor launch off (breaks WSL2 until you turn it back on) or use the hyperv provider. Reboot needed.",
		Fix:     "bcdedit /set hypervisorlaunchtype off"})
	h.ask("vagrant-vtx-hyperv/1", "sable-infra", "windows", "vagrant up db",
		crlf(`Bringing machine 'db' up with 'virtualbox' provider...
==> db: Importing base box 'ubuntu/jammy64'...
==> db: Matching MAC address for NAT networking...
==> db: Setting the name of the VM: sable-infra_db_1671028834518_40211
==> db: Booting VM...
There was an error while executing §VBoxManage§, a CLI used by Vagrant
for controlling VirtualBox. The command and stderr is shown below.

Command: ["startvm", "8e0b3c5a-2d1f-4e7a-9c6b-0f1e2d3c4b5a", "--type", "headless"]

Stderr: VBoxManage.exe: error: VT-x is not available (VERR_VMX_NO_VMX)
VBoxManage.exe: error: Details: code E_FAIL (0x80004005), component ConsoleWrap, interface IConsole
`), "vagrant-vtx-hyperv", "hand: stored")

	// Helm: the pending-operation fix said obsolete in prose; the ownership note.
	h.note(Note{ID: "helm-pending-secret", Project: "sable-infra", OS: "linux", Lang: "yaml", At: day(2023, 8, 29),
		Title:   "helm: another operation is in progress",
		What:    "`Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress` on the api release after a cancelled deploy job",
		Why:     "the cancelled job left the release in pending-upgrade",
		Where:   "prod cluster, release api",
		Learned: "delete the pending release secret and re-run",
		Fix:     "kubectl -n prod delete secret -l owner=helm,name=api,status=pending-upgrade"})
	h.note(Note{ID: "helm-pending-rollback", Project: "sable-infra", OS: "linux", Lang: "yaml", At: day(2025, 5, 6),
		Title: "stuck helm release: roll back, don't delete secrets", ProseOver: "helm-pending-secret",
		What:    "Release api stuck again (`another operation (install/upgrade/rollback) is in progress`). The older note says delete the pending-upgrade secret — that no longer works for us and is a bad idea: since we run helm 3.14 with --atomic the pending secret deletion left the release history inconsistent and the next upgrade diffed against the wrong revision.",
		Why:     "The deploy job gets cancelled mid-upgrade by the CI timeout; helm leaves the last revision pending.",
		Where:   "prod cluster, deploy workflow",
		Learned: "Roll back to the last deployed revision (helm history shows it), then upgrade again. The CI timeout is now longer than helm's --timeout.",
		Fix:     "helm -n prod rollback api $(helm -n prod history api -o json | jq '[.[] | select(.status==\"deployed\")][-1].revision') --wait"})
	h.ask("helm-pending-rollback/1", "sable-infra", "linux", "helm upgrade --install api ./charts/api -n prod -f values/prod.yaml --atomic --timeout 10m",
		`2025-07-22T14:03:51.118Z | Run helm upgrade --install api ./charts/api -n prod -f values/prod.yaml --atomic --timeout 10m
2025-07-22T14:03:52.640Z | Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress
2025-07-22T14:03:52.655Z | ##[error]Process completed with exit code 1.
`, "helm-pending-rollback", "superseded in prose: deleting the secret said to no longer work", "helm-pending-secret")
	h.note(Note{ID: "helm-adopt-resource", Project: "sable-infra", OS: "darwin", Lang: "yaml", At: day(2024, 10, 17),
		Title:   "helm install can't adopt the hand-made ServiceAccount",
		What:    "Installing the new worker chart: rendered manifests contain a resource that already exists ... ServiceAccount \"worker\" in namespace \"prod\" exists and cannot be imported into the current release: invalid ownership metadata.",
		Why:     "The SA was created by hand with kubectl months ago for an IRSA test; helm only adopts resources carrying its managed-by label and release annotations.",
		Where:   "prod namespace",
		Learned: "Label and annotate the existing object so helm adopts it instead of deleting it (deleting breaks the running pods' tokens).",
		Fix:     "kubectl -n prod label sa worker app.kubernetes.io/managed-by=Helm && kubectl -n prod annotate sa worker meta.helm.sh/release-name=worker meta.helm.sh/release-namespace=prod"})
	h.ask("helm-adopt-resource/1", "sable-infra", "darwin", "helm install worker ./charts/worker -n prod -f values/prod.yaml",
		`Error: INSTALLATION FAILED: Unable to continue with install: ServiceAccount "worker" in namespace "prod" exists and cannot be imported into the current release: invalid ownership metadata; label validation error: missing key "app.kubernetes.io/managed-by": must be set to "Helm"; annotation validation error: missing key "meta.helm.sh/release-name": must be set to "worker"; annotation validation error: missing key "meta.helm.sh/release-namespace": must be set to "prod"
`, "helm-adopt-resource", "hand: stored")
	h.ask("helm-name-in-use", "sable-infra", "linux", "helm install api ./charts/api -n staging",
		`Error: INSTALLATION FAILED: cannot re-use a name that is still in use
`, "", "same tool, another error: a release name in use")

	// minikube out of disk: Linux and macOS, two fixes.
	h.note(Note{ID: "minikube-disk-linux", Project: "juniper", OS: "linux", Lang: "go", At: day(2023, 6, 13),
		Title:   "minikube start: RSRC_DOCKER_STORAGE on the dev VM",
		What:    "minikube start exits with RSRC_DOCKER_STORAGE, Docker is out of disk space (/var at 98%).",
		Why:     "With the docker driver on Linux minikube's node is a container on the host's docker, so it's the host /var that's full — old build cache from skaffold dev loops.",
		Where:   "dev VM /var/lib/docker",
		Learned: "Linux: prune the host's builder cache and images, minikube ssh doesn't help here.",
		Fix:     "docker builder prune -af && docker image prune -af"})
	h.note(Note{ID: "minikube-disk-darwin", Project: "juniper", OS: "darwin", Lang: "go", At: day(2023, 9, 26),
		Title:   "macOS: minikube out of disk space even after prune",
		What:    "Same RSRC_DOCKER_STORAGE from minikube start on the Mac; pruning freed ~3 GB and it still said /var was at 97%.",
		Why:     "On macOS the disk in question is the Docker Desktop VM's virtual disk (64 GB default), mostly minikube's own node image and the kind images I'd loaded.",
		Where:   "Docker Desktop > Settings > Resources",
		Learned: "Raise the virtual disk limit and delete the old minikube profile, whose node container keeps its own /var.",
		Fix:     "minikube delete --all --purge && minikube start --driver=docker --disk-size=40g"})
	minikubeDisk := `😄  minikube v1.31.2 on %s
✨  Using the docker driver based on existing profile
👍  Starting control plane node minikube in cluster minikube
🚜  Pulling base image ...

❌  Exiting due to RSRC_DOCKER_STORAGE: Docker is out of disk space! (/var is at 98%% of capacity). You can pass '--force' to skip this check.
💡  Suggestion:

    Try one or more of the following to free up space on the device:

    1. Run "docker system prune" to remove unused Docker data (optionally with "-a")
    2. Increase the storage allocated to Docker for Desktop by clicking on:
    Docker icon > Preferences > Resources > Disk Image Size
    3. Run "minikube ssh -- docker system prune" if using the Docker container runtime
🍿  Related issue: https://github.com/kubernetes/minikube/issues/9024

`
	h.ask("minikube-disk/linux", "juniper", "linux", "minikube start", sprintf(minikubeDisk, "Ubuntu 22.04"),
		"minikube-disk-linux", "twin on another system: the docker driver on Linux")
	h.ask("minikube-disk/darwin", "juniper", "darwin", "minikube start", sprintf(minikubeDisk, "Darwin 14.1 (arm64)"),
		"minikube-disk-darwin", "twin on another system: Docker Desktop on macOS")

	// Podman: two notes on one tool.
	h.note(Note{ID: "podman-short-name", Project: "juniper", OS: "linux", Lang: "go", At: day(2024, 3, 28),
		Title:   "podman refuses postgres:16",
		What:    "podman run postgres:16 → Error: short-name \"postgres:16\" did not resolve to an alias and no unqualified-search registries are defined in \"/etc/containers/registries.conf\"",
		Why:     "Fedora's podman has no default search registry, so short names like in our compose file don't resolve.",
		Where:   "compose.yaml, /etc/containers/registries.conf",
		Learned: "Use fully qualified names in compose.yaml (docker.io/library/postgres:16) — works for docker users too. Code change."})
	h.ask("podman-short-name/1", "juniper", "linux", "podman compose up -d",
		`>>>> Executing external compose provider "/usr/bin/podman-compose". Please refer to the documentation for details. <<<<

podman-compose version: 1.0.6
['podman', '--version', '']
using podman version: 4.9.4
** excluding:  set()
['podman', 'ps', '--filter', 'label=io.podman.compose.project=juniper', '-a', '--format', '{{ index .Labels "io.podman.compose.config-hash"}}']
podman pod create --name=pod_juniper --infra=false --share=
Error: short-name "redis:7-alpine" did not resolve to an alias and no unqualified-search registries are defined in "/etc/containers/registries.conf"
exit code: 125
`, "podman-short-name", "hand: another image, through podman-compose")
	h.note(Note{ID: "podman-machine-stopped", Project: "juniper", OS: "darwin", Lang: "go", At: day(2025, 4, 8),
		Title: "Cannot connect to Podman (mac)",
		What:  "every podman command after a reboot: Cannot connect to Podman. Please verify your connection to the Linux system using `podman system connection list`...",
		Why:   "on macOS podman talks to a VM (podman machine), which doesn't autostart",
		Where: "Mac", Learned: "start the machine; there's no launchd agent for it by default",
		Fix: "podman machine start"})
	h.ask("podman-machine-stopped/1", "juniper", "darwin", "podman ps",
		tty(`Cannot connect to Podman. Please verify your connection to the Linux system using §podman system connection list§, or try §podman machine init§ and §podman machine start§ to manage a new Linux VM
Error: unable to connect to Podman socket: failed to connect: dial tcp 127.0.0.1:53719: connect: connection refused
`), "podman-machine-stopped", "hand: the other Podman note")

	// AWS CDK and SAM.
	h.note(Note{ID: "cdk-bootstrap", Project: "canopy", Scope: "global", OS: "linux", Lang: "typescript", At: day(2023, 5, 2),
		Title:   "cdk deploy to a new account/region: bootstrap first",
		What:    "First deploy into eu-west-1: `This stack uses assets, so the toolkit stack must be deployed to the environment (Run \"cdk bootstrap aws://123456789012/eu-west-1\")`",
		Why:     "Every account+region pair needs the CDKToolkit stack (asset bucket, ECR repo, deploy roles) once.",
		Where:   "any CDK app, new environment",
		Learned: "Bootstrap once per account/region with the admin profile, then deploy normally.",
		Fix:     "npx cdk bootstrap aws://123456789012/eu-west-1 --profile admin"})
	h.ask("cdk-bootstrap/1", "canopy", "linux", "npx cdk deploy CanopyApiStack",
		`✨  Synthesis time: 6.21s

CanopyApiStack:  start: Building 5c1e7b0d9a2f:123456789012-ap-southeast-2
CanopyApiStack:  success: Built 5c1e7b0d9a2f:123456789012-ap-southeast-2
 ❌ Deployment failed: Error: CanopyApiStack: SSM parameter /cdk-bootstrap/hnb659fds/version not found. Has the environment been bootstrapped? Please run 'cdk bootstrap' (see https://docs.aws.amazon.com/cdk/latest/guide/bootstrapping.html)
    at Deployments.validateBootstrapStackVersion (/home/ci/build/canopy/node_modules/aws-cdk/lib/index.js:446:12365)
`, "cdk-bootstrap", "hand: newer CDK words it another way")
	h.ask("cdk-bootstrap/elsewhere", "driftwood", "darwin", "npx cdk deploy --all",
		`✨  Synthesis time: 3.88s

DriftwoodEdgeStack: deploying... [1/1]
 ❌  DriftwoodEdgeStack failed: Error: This stack uses assets, so the toolkit stack must be deployed to the environment (Run "cdk bootstrap aws://123456789012/us-east-1")
    at Deployments.resolveEnvironment (/Users/kim/code/driftwood/infra/node_modules/aws-cdk/lib/index.js:443:10210)
`, "cdk-bootstrap", "global note, another project: bootstrap met in driftwood")
	h.ask("cdk-assume-role", "canopy", "linux", "npx cdk deploy CanopyApiStack",
		`current credentials could not be used to assume 'arn:aws:iam::123456789012:role/cdk-hnb659fds-deploy-role-123456789012-eu-west-1', but are for the right account. Proceeding anyway.
CanopyApiStack: deploying... [1/1]
 ❌  CanopyApiStack failed: AccessDenied: User: arn:aws:sts::123456789012:assumed-role/ci-runner/i-0a1b2c3d is not authorized to perform: cloudformation:DescribeStacks on resource: arn:aws:cloudformation:eu-west-1:123456789012:stack/CanopyApiStack/* because no identity-based policy allows the cloudformation:DescribeStacks action
`, "", "same tool, another error: the deploy role can't be assumed")
	h.note(Note{ID: "sam-python-runtime", Project: "canopy", OS: "darwin", Lang: "python", At: day(2024, 7, 30),
		Title:   "sam build: Binary validation failed for python",
		What:    "sam build on the mac: PythonPipBuilder:ResolveDependencies - Binary validation failed for python ... which did not satisfy constraints for runtime: python3.12",
		Why:     "template says Runtime: python3.12, my PATH python is the system 3.9; SAM looks for the exact runtime version locally.",
		Where:   "sam/template.yaml",
		Learned: "Build in the Lambda image instead of installing every runtime locally.",
		Fix:     "sam build --use-container"})
	h.ask("sam-python-runtime/1", "canopy", "darwin", "sam build",
		`Building codeuri: /Users/kim/code/canopy/functions/ingest runtime: python3.12 metadata: {} architecture: arm64 functions: IngestFunction
Build Failed
Error: PythonPipBuilder:ResolveDependencies - Binary validation failed for python, searched for python in following locations  : ['/usr/bin/python3', '/Library/Developer/CommandLineTools/usr/bin/python3'] which did not satisfy constraints for runtime: python3.12. Do you have python for runtime: python3.12 on your PATH?
`, "sam-python-runtime", "hand: stored")

	// gcloud: two notes, two errors.
	h.note(Note{ID: "gcloud-actas", Project: "ridgeline", OS: "linux", Lang: "go", At: day(2025, 8, 5),
		Title:   "Cloud Run deploy from CI: actAs denied",
		What:    "gcloud run deploy in the new pipeline: PERMISSION_DENIED: Permission 'iam.serviceaccounts.actAs' denied on service account ridgeline-run@ridgeline-prod.iam.gserviceaccount.com",
		Why:     "The CI deployer SA has run.admin but deploying a service that runs as another SA also needs Service Account User on that runtime SA.",
		Where:   "ridgeline-prod IAM",
		Learned: "Grant roles/iam.serviceAccountUser on the runtime SA only (not project-wide).",
		Fix:     "gcloud iam service-accounts add-iam-policy-binding ridgeline-run@ridgeline-prod.iam.gserviceaccount.com --member=serviceAccount:ci-deployer@ridgeline-prod.iam.gserviceaccount.com --role=roles/iam.serviceAccountUser"})
	h.ask("gcloud-actas/1", "ridgeline", "linux", "gcloud run deploy ridgeline-api --image=europe-docker.pkg.dev/ridgeline-prod/app/api:4f1c2e9 --region=europe-west1 --service-account=ridgeline-run@ridgeline-prod.iam.gserviceaccount.com",
		`Deploying container to Cloud Run service [ridgeline-api] in project [ridgeline-prod] region [europe-west1]
Deploying...
Deployment failed
ERROR: (gcloud.run.deploy) PERMISSION_DENIED: Permission 'iam.serviceaccounts.actAs' denied on service account ridgeline-run@ridgeline-prod.iam.gserviceaccount.com (or it may not exist).
`, "gcloud-actas", "hand: stored")
	h.note(Note{ID: "gcloud-adc-invalid-grant", Project: "ridgeline", OS: "darwin", Lang: "go", At: day(2023, 12, 4),
		Title:   "local tools: invalid_grant from google auth",
		What:    "The seed script and terraform both fail locally with `google: could not find default credentials`? no — it was `oauth2: \"invalid_grant\" \"reauth related error (invalid_rapt)\"`, i.e. ADC token refresh rejected.",
		Why:     "Workspace session policy forces reauth every 16h; application-default credentials are separate from `gcloud auth login`, so logging in again with gcloud doesn't fix them.",
		Where:   "~/.config/gcloud/application_default_credentials.json",
		Learned: "Refresh ADC specifically.",
		Fix:     "gcloud auth application-default login"})
	h.ask("gcloud-adc-invalid-grant/1", "ridgeline", "darwin", "go run ./cmd/seed -project ridgeline-dev",
		`2024-03-11T09:02:17+01:00 INF connecting to firestore project=ridgeline-dev
2024-03-11T09:02:18+01:00 FTL seed failed error="rpc error: code = Unauthenticated desc = transport: per-RPC creds failed due to error: oauth2: \"invalid_grant\" \"reauth related error (invalid_rapt)\" \"https://support.google.com/a/answer/9368756\""
exit status 1
`, "gcloud-adc-invalid-grant", "hand: the other gcloud note")

	// Firebase, Vercel, Netlify.
	h.note(Note{ID: "firebase-emulator-port", Project: "quokka-app", OS: "darwin", Lang: "dart", At: day(2024, 9, 18),
		Title: "firestore emulator: port taken",
		What:  "firebase emulators:start → `Could not start Firestore Emulator, port taken.`",
		Why:   "A previous emulators:start (killed with the terminal tab) left its java process listening on 8080.",
		Where: "local", Learned: "Kill the leftover java on 8080; or move firestore to 8181 in firebase.json so it doesn't fight other dev servers.",
		Fix: "lsof -ti tcp:8080 | xargs kill"})
	h.ask("firebase-emulator-port/1", "quokka-app", "darwin", "firebase emulators:start --only auth,firestore",
		`i  emulators: Starting emulators: auth, firestore
⚠  firestore: Port 8080 is not open on localhost (127.0.0.1,::1), could not start Firestore Emulator.
⚠  firestore: To select a different host/port, specify that host/port in a firebase.json config file:
      {
        // ...
        "emulators": {
          "firestore": {
            "host": "HOST",
            "port": "PORT"
          }
        }
      }
i  emulators: Shutting down emulators.
i  auth: Stopping Authentication Emulator

Error: Could not start Firestore Emulator, port taken.
`, "firebase-emulator-port", "hand: stored")
	h.note(Note{ID: "vercel-output-dir", Project: "mosaic", OS: "linux", Lang: "typescript", At: day(2025, 10, 7),
		Title:   "docs site deploy on Vercel: no output directory",
		What:    "Build succeeds, then: Error: No Output Directory named \"public\" found after the Build completed.",
		Why:     "The project was created with the 'Other' preset, which expects public/; our docs build writes to docs/.vitepress/dist.",
		Where:   "vercel.json",
		Learned: "Set outputDirectory in vercel.json so it's in the repo, not only in project settings. Code change."})
	h.ask("vercel-output-dir/1", "mosaic", "linux", "vercel build --prod",
		`Vercel CLI 37.4.2
Running "vercel build"
Running "install" command: §yarn install§...
➤ YN0000: · Yarn 4.1.1
➤ YN0000: ┌ Resolution step
➤ YN0000: └ Completed
➤ YN0000: · Done with warnings in 5s 311ms
Running "yarn docs:build"
  vitepress v1.0.2

- building client + server bundles...
✓ building client + server bundles...
- rendering pages...
✓ rendering pages...
build complete in 9.84s.
Error: No Output Directory named "public" found after the Build completed. You can configure the Output Directory in your Project Settings.
Learn More: https://vercel.link/missing-public-directory
`, "vercel-output-dir", "hand: stored")
	h.note(Note{ID: "netlify-publish-dir", Project: "lumen-cli", OS: "darwin", Lang: "typescript", At: day(2022, 4, 26),
		Title: "netlify deploy: deploy directory does not exist",
		What:  "netlify deploy --prod said Deploy directory 'dist' does not exist — after the site moved to Astro",
		Why:   "netlify.toml still says publish = \"dist\" at the repo root; astro writes site/dist",
		Where: "netlify.toml", Learned: "publish is relative to base; set base = \"site\" and publish = \"dist\"",
		Fix: "netlify deploy --prod --dir=site/dist"})
	h.ask("netlify-publish-dir/1", "lumen-cli", "darwin", "netlify deploy --prod",
		`Deploy path:        /Users/kim/code/lumen-cli/dist
Functions path:     /Users/kim/code/lumen-cli/netlify/functions
Configuration path: /Users/kim/code/lumen-cli/netlify.toml
 ›   Error: No such directory /Users/kim/code/lumen-cli/dist! Did you forget to run a build?
`, "netlify-publish-dir", "hand: newer CLI words it another way")
}
