package replay

import "strings"

func unseen2Ops(h *hand) {
	h.note(Note{ID: "selinux-volume-z", Project: "switchyard", OS: "linux", Lang: "shell", At: day(2022, 5, 30),
		Title:   "Fedora: bind-mounted data dir Permission denied in the postgres container",
		What:    "On the Fedora box `docker compose up db` loops on `chmod: changing permissions of '/var/lib/postgresql/data': Permission denied`; the same compose file works on Ubuntu.",
		Why:     "SELinux is enforcing on Fedora and the host dir ./data/pg has the user_home_t label, so the container (container_t) can't touch it. ausearch -m avc shows the denial.",
		Learned: "Add :Z to the bind mount so Docker relabels it for this container (:z if several containers share it). Don't setenforce 0.",
		Fix:     "sed -i 's#./data/pg:/var/lib/postgresql/data#./data/pg:/var/lib/postgresql/data:Z#' docker-compose.yml"})
	h.ask("selinux-volume-z/fedora", "switchyard", "linux", "docker compose up db",
		"[+] Running 1/0\n ✔ Container switchyard-db-1  Created                                        0.0s\nAttaching to db-1\ndb-1  | chmod: changing permissions of '/var/lib/postgresql/data': Permission denied\ndb-1  | The files belonging to this database system will be owned by user \"postgres\".\ndb-1  | This user must also own the server process.\ndb-1  | \ndb-1  | initdb: error: could not change permissions of directory \"/var/lib/postgresql/data\": Operation not permitted\ndb-1 exited with code 1\n",
		"selinux-volume-z", "unseen2: stored")
	h.ask("selinux-volume-z/rootless", "switchyard", "linux", "docker compose up db",
		"$ docker info --format '{{.SecurityOptions}}'\n[name=seccomp,profile=builtin name=rootless name=cgroupns]\n$ docker compose up db\nAttaching to db-1\ndb-1  | chmod: changing permissions of '/var/lib/postgresql/data': Permission denied\ndb-1  | initdb: error: could not change permissions of directory \"/var/lib/postgresql/data\": Operation not permitted\ndb-1 exited with code 1\n",
		"", "unseen2: same text, another cause")

	h.note(Note{ID: "snap-docker-apparmor", Project: "switchyard", OS: "linux", Lang: "shell", At: day(2023, 3, 21),
		Title:   "docker stop: permission denied (AppArmor, Ubuntu 22.04)",
		What:    "Can't stop or restart any container: Error response from daemon: cannot stop container: ...: permission denied. docker kill same. Happened after snap refreshed docker.",
		Why:     "AppArmor still has the old snap docker profiles loaded; the daemon's signal to the container is denied by a profile that no longer exists on disk.",
		Learned: "aa-remove-unknown drops the stale profiles; long-term, removed snap docker and installed docker-ce from Docker's apt repo.",
		Fix:     "sudo aa-remove-unknown && sudo systemctl restart docker"})
	h.ask("snap-docker-apparmor/stop", "switchyard", "linux", "docker compose down",
		"[+] Running 1/2\n ⠿ Container switchyard-api-1     Stopping                                     10.1s\n ⠿ Container switchyard-broker-1  Error while Stopping                         10.1s\nError response from daemon: cannot stop container: 4b1c7f0d9a2e8c3b6a5f4e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b: permission denied\n",
		"snap-docker-apparmor", "unseen2: stored")

	h.note(Note{ID: "wsl-clock-skew", Project: "mosswood", OS: "windows", Lang: "shell", At: day(2024, 1, 9),
		Title:   "WSL: apt says Release file is not valid yet",
		What:    "In the Ubuntu WSL distro after the laptop slept: `E: Release file for http://archive.ubuntu.com/ubuntu/dists/jammy-updates/InRelease is not valid yet (invalid for another 6h 41min 12s). Updates for this repository will not be applied.`",
		Why:     "WSL2's clock doesn't resync after the host resumes from sleep, so the VM lives hours in the past.",
		Learned: "From PowerShell, wsl --shutdown and reopen; inside the distro `sudo hwclock -s` also works without restarting.",
		Fix:     "wsl --shutdown"})
	h.note(Note{ID: "docker-mac-clock-skew", Project: "mosswood", OS: "darwin", Lang: "shell", At: day(2024, 2, 13),
		Title:   "docker build on the Mac: apt Release file not valid yet",
		What:    "Same 'Release file ... is not valid yet' from apt-get update, but inside docker build on the MacBook.",
		Why:     "Docker Desktop's Linux VM drifted after sleep; the container takes the VM's clock, the Mac's own clock is fine.",
		Learned: "Restart Docker Desktop (Troubleshoot → Restart works too). Nothing to change in the Dockerfile.",
		Fix:     "osascript -e 'quit app \"Docker\"' && open -a Docker"})
	notValid := "Get:1 http://archive.ubuntu.com/ubuntu jammy InRelease [270 kB]\nGet:2 http://archive.ubuntu.com/ubuntu jammy-updates InRelease [128 kB]\nGet:3 http://security.ubuntu.com/ubuntu jammy-security InRelease [129 kB]\nReading package lists...\nE: Release file for http://archive.ubuntu.com/ubuntu/dists/jammy-updates/InRelease is not valid yet (invalid for another 4h 3min 27s). Updates for this repository will not be applied.\nE: Release file for http://security.ubuntu.com/ubuntu/dists/jammy-security/InRelease is not valid yet (invalid for another 4h 2min 51s). Updates for this repository will not be applied.\n"
	h.ask("clock-skew/wsl", "mosswood", "windows", "wsl -d Ubuntu -- sudo apt-get update", crlf(notValid),
		"wsl-clock-skew", "unseen2: twin on another system, CRLF")
	h.ask("clock-skew/mac", "mosswood", "darwin", "docker build -t mosswood-ci .",
		"#5 [2/6] RUN apt-get update && apt-get install -y curl git\n#5 0.301 "+
			"Get:1 http://archive.ubuntu.com/ubuntu jammy InRelease [270 kB]\n#5 1.120 Reading package lists...\n#5 1.127 E: Release file for http://archive.ubuntu.com/ubuntu/dists/jammy-updates/InRelease is not valid yet (invalid for another 2h 17min 9s). Updates for this repository will not be applied.\n#5 ERROR: process \"/bin/sh -c apt-get update && apt-get install -y curl git\" did not complete successfully: exit code: 100\n",
		"docker-mac-clock-skew", "unseen2: twin on another system, docker build log")

	h.note(Note{ID: "brew-arm-prefix", Project: "mosswood", Scope: "global", OS: "darwin", Lang: "shell", At: day(2022, 1, 25),
		Title:   "M1: brew refuses to install into /usr/local",
		What:    "`Error: Cannot install in Homebrew on ARM processor in Intel default prefix (/usr/local)!` when running brew from the old dotfiles PATH.",
		Why:     "The migrated dotfiles put /usr/local/bin first, so the Intel brew (from the Migration Assistant copy) runs on the M1. Native Homebrew lives in /opt/homebrew.",
		Learned: "Use /opt/homebrew/bin/brew and put its shellenv in ~/.zprofile; remove the /usr/local brew once nothing needs Rosetta.",
		Fix:     "echo 'eval \"$(/opt/homebrew/bin/brew shellenv)\"' >> ~/.zprofile && eval \"$(/opt/homebrew/bin/brew shellenv)\""})
	h.ask("brew-arm-prefix/mosswood", "mosswood", "darwin", "brew install watchman",
		"Error: Cannot install in Homebrew on ARM processor in Intel default prefix (/usr/local)!\nPlease create a new installation in /opt/homebrew using one of the\n\"Alternative Installs\" from:\n  https://docs.brew.sh/Installation\nYou can migrate your previously installed formula list with:\n  brew bundle dump\n",
		"brew-arm-prefix", "unseen2: stored")
	h.ask("brew-arm-prefix/quillmark", "quillmark", "darwin", "brew install pandoc",
		"==> Downloading https://formulae.brew.sh/api/formula.jws.json\n######################################################################## 100.0%\nError: Cannot install in Homebrew on ARM processor in Intel default prefix (/usr/local)!\nPlease create a new installation in /opt/homebrew using one of the\n\"Alternative Installs\" from:\n  https://docs.brew.sh/Installation\n",
		"brew-arm-prefix", "unseen2: global note, another project")
	h.ask("brew-link-conflict", "mosswood", "darwin", "brew install node@20",
		"==> Pouring node@20--20.11.0.arm64_sonoma.bottle.tar.gz\nError: The `brew link` step did not complete successfully\nThe formula built, but is not symlinked into /opt/homebrew\nCould not symlink bin/npm\nTarget /opt/homebrew/bin/npm\nalready exists. You may want to remove it:\n  rm '/opt/homebrew/bin/npm'\n\nTo force the link and overwrite all conflicting files:\n  brew link --overwrite node@20\n",
		"", "unseen2: same tool, another error")

	h.note(Note{ID: "choco-elevated", Project: "mosswood", OS: "windows", Lang: "powershell", At: day(2023, 8, 7),
		Title:   "choco install fails without an elevated shell",
		What:    "choco install -y nodejs-lts in the normal VS Code terminal:\n```\nAccess to the path 'C:\\ProgramData\\chocolatey\\lib-bad' is denied.\n```\nplus the warning that it's not running from an elevated command shell.",
		Why:     "Chocolatey installs machine-wide into C:\\ProgramData\\chocolatey, which needs admin.",
		Learned: "Open an admin PowerShell for choco, or use winget/scoop for per-user installs.",
		Fix:     "Start-Process powershell -Verb RunAs -ArgumentList '-NoExit','-Command','choco install -y nodejs-lts'"})
	h.ask("choco-elevated/jdk", "mosswood", "windows", "choco install -y temurin17",
		crlf("Chocolatey v2.2.2\nChocolatey detected you are not running from an elevated command shell\n (cmd/powershell).\n\n You may experience errors - many functions/packages\n require admin rights. Only advanced users should run choco w/out an\n elevated shell. When you open the command shell, you should ensure\n that you do so with \"Run as Administrator\" selected. If you are\n attempting to use Chocolatey in a non-administrator setting, you\n must select a different location other than the default install\n location. See\n https://docs.chocolatey.org/en-us/choco/setup#non-administrative-install\n for details.\n\nInstalling the following packages:\ntemurin17\nBy installing, you accept licenses for the packages.\nAccess to the path 'C:\\ProgramData\\chocolatey\\lib-bad' is denied.\n\nChocolatey installed 0/1 packages. 1 packages failed.\n See the log for details (C:\\ProgramData\\chocolatey\\logs\\chocolatey.log).\n"),
		"choco-elevated", "unseen2: stored, another package, CRLF")

	h.note(Note{ID: "az-refresh-expired-win", Project: "switchyard", OS: "windows", Lang: "powershell", At: day(2024, 9, 24),
		Title:   "az: AADSTS700082 refresh token expired",
		What:    "az aks get-credentials → AADSTS700082: The refresh token has expired due to inactivity.",
		Why:     "Hadn't used az on this laptop for 90+ days; the cached MSAL token is dead.",
		Learned: "Log in again against the right tenant (the default one is the personal MSA tenant).",
		Fix:     "az login --tenant switchyard.onmicrosoft.com"})
	h.note(Note{ID: "az-refresh-expired-devcontainer", Project: "switchyard", OS: "linux", Lang: "shell", At: day(2024, 11, 5),
		Title:   "devcontainer: az token expired, az login can't open a browser",
		What:    "Inside the devcontainer the same AADSTS700082 'refresh token has expired' error; plain az login then hangs waiting for a browser that doesn't exist.",
		Why:     "The container has no browser and no port forward for the localhost redirect.",
		Learned: "Use the device-code flow and finish the login in the host browser.",
		Fix:     "az login --use-device-code --tenant switchyard.onmicrosoft.com"})
	aad := "ERROR: AADSTS700082: The refresh token has expired due to inactivity. The token was issued on 2024-06-11T08:14:22.5513402Z and was inactive for 90.00:00:00. Trace ID: 3f1d2c4b-7a8e-4b9c-9d0e-1f2a3b4c5d6e Correlation ID: 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d Timestamp: 2024-11-05 09:41:17Z\nInteractive authentication is needed. Please run:\naz login --scope https://management.core.windows.net//.default\n"
	h.ask("az-refresh/windows", "switchyard", "windows", "az aks get-credentials -g switchyard-prod -n switchyard-aks",
		crlf(aad), "az-refresh-expired-win", "unseen2: twin on another system, CRLF")
	h.ask("az-refresh/devcontainer", "switchyard", "linux", "az acr login -n switchyardcr",
		aad, "az-refresh-expired-devcontainer", "unseen2: twin on another system")
	h.ask("az-subscription-not-found", "switchyard", "linux", "az account set --subscription switchyard-staging",
		"ERROR: The subscription of 'switchyard-staging' doesn't exist in cloud 'AzureCloud'.\n",
		"", "unseen2: same tool, another error")
}

func unseen2Services(h *hand) {
	h.note(Note{ID: "rabbit-guest-localhost", Project: "switchyard", OS: "linux", Lang: "python", At: day(2021, 7, 19),
		Title:   "worker can't log in to RabbitMQ as guest from another container",
		What:    "pika.exceptions.ProbableAuthenticationError: ConnectionClosedByBroker: (403) 'ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN.' — but guest/guest is right.",
		Why:     "RabbitMQ only lets guest connect from localhost (loopback_users). The broker log says: user 'guest' can only connect via localhost.",
		Learned: "Create a real user through RABBITMQ_DEFAULT_USER/RABBITMQ_DEFAULT_PASS in compose and use it in AMQP_URL; don't flip loopback_users.",
		Fix:     "docker compose exec broker rabbitmqctl add_user switchyard \"$AMQP_PASS\" && docker compose exec broker rabbitmqctl set_permissions -p / switchyard '.*' '.*' '.*'"})
	h.ask("rabbit-guest/worker", "switchyard", "linux", "docker compose logs worker broker --tail 8",
		"broker-1  | 2021-08-02 10:14:03.119821+00:00 [info] <0.912.0> accepting AMQP connection <0.912.0> (172.19.0.5:40312 -> 172.19.0.3:5672)\nbroker-1  | 2021-08-02 10:14:03.124002+00:00 [error] <0.912.0> Error on AMQP connection <0.912.0> (172.19.0.5:40312 -> 172.19.0.3:5672, state: starting):\nbroker-1  | 2021-08-02 10:14:03.124002+00:00 [error] <0.912.0> PLAIN login refused: user 'guest' can only connect via localhost\nworker-1  | Traceback (most recent call last):\nworker-1  |   File \"/app/switchyard/worker.py\", line 22, in <module>\nworker-1  |     conn = pika.BlockingConnection(pika.URLParameters(os.environ[\"AMQP_URL\"]))\nworker-1  | pika.exceptions.ProbableAuthenticationError: ConnectionClosedByBroker: (403) 'ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker logfile.'\n",
		"rabbit-guest-localhost", "unseen2: stored")
	h.ask("rabbit-bad-password", "switchyard", "linux", "docker compose logs worker broker --tail 8",
		"broker-1  | 2022-02-14 16:40:51.771204+00:00 [info] <0.1033.0> accepting AMQP connection <0.1033.0> (172.19.0.6:51822 -> 172.19.0.3:5672)\nbroker-1  | 2022-02-14 16:40:51.775530+00:00 [error] <0.1033.0> PLAIN login refused: user 'switchyard' - invalid credentials\nworker-1  | pika.exceptions.ProbableAuthenticationError: ConnectionClosedByBroker: (403) 'ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker logfile.'\n",
		"", "unseen2: same text, another cause")

	h.note(Note{ID: "mongo-authsource", Project: "switchyard", OS: "darwin", Lang: "typescript", At: day(2022, 12, 6),
		Title:   "MongoServerError: Authentication failed — authSource",
		What:    "The audit service can't connect: MongoServerError: Authentication failed. User/password copied from the compose file, so they're right.",
		Why:     "MONGO_INITDB_ROOT_USERNAME creates the user in the admin database, but our URI ends in /audit, so the driver authenticates against audit.",
		Learned: "Append ?authSource=admin to MONGO_URL (or create an app user in the audit db).",
		Fix:     "export MONGO_URL='mongodb://root:secret@localhost:27017/audit?authSource=admin'"})
	mongo := "/Users/kim/code/switchyard/services/audit/node_modules/mongodb/lib/cmap/connection.js:213\n                    callback(new error_1.MongoServerError(document));\n                             ^\n\nMongoServerError: Authentication failed.\n    at Connection.onMessage (/Users/kim/code/switchyard/services/audit/node_modules/mongodb/lib/cmap/connection.js:213:30)\n    at MessageStream.<anonymous> (/Users/kim/code/switchyard/services/audit/node_modules/mongodb/lib/cmap/connection.js:59:60)\n    at MessageStream.emit (node:events:517:28)\n    at processIncomingData (/Users/kim/code/switchyard/services/audit/node_modules/mongodb/lib/cmap/message_stream.js:124:16) {\n  ok: 0,\n  code: 18,\n  codeName: 'AuthenticationFailed',\n  connectionGeneration: 0,\n  [Symbol(errorLabels)]: Set(2) { 'HandshakeError', 'ResetPool' }\n}\n\nNode.js v18.19.0\n"
	h.ask("mongo-authsource/audit", "switchyard", "darwin", "npm run dev -w services/audit", mongo,
		"mongo-authsource", "unseen2: stored, stack trace")
	h.ask("mongo-authsource/paperkite", "paperkite", "darwin", "npm run seed",
		strings.ReplaceAll(mongo, "/Users/kim/code/switchyard/services/audit", "/Users/kim/code/paperkite"), "", "unseen2: another project's project note")

	h.note(Note{ID: "es-max-map-count", Project: "switchyard", Scope: "global", OS: "linux", Lang: "shell", At: day(2023, 6, 13),
		Title:   "elasticsearch container exits: vm.max_map_count too low",
		What:    "ES 8 in compose exits during bootstrap checks: `max virtual memory areas vm.max_map_count [65530] is too low, increase to at least [262144]`",
		Why:     "It's a kernel setting of the host, the container can't raise it. Only enforced when ES binds a non-loopback address (so it 'worked' with discovery.type=single-node on one laptop and not another).",
		Learned: "Set it on the host and persist in /etc/sysctl.d/99-elasticsearch.conf.",
		Fix:     "sudo sysctl -w vm.max_map_count=262144 && echo 'vm.max_map_count=262144' | sudo tee /etc/sysctl.d/99-elasticsearch.conf"})
	h.note(Note{ID: "es-max-map-count-wsl", Project: "switchyard", Scope: "global", OS: "windows", Lang: "powershell", At: day(2023, 10, 2),
		Title:   "Docker Desktop on Windows: vm.max_map_count for Elasticsearch",
		What:    "On Windows the ES container fails with the same vm.max_map_count [65530] is too low bootstrap check. There's no /etc/sysctl.d to edit.",
		Why:     "The kernel is Docker Desktop's WSL2 VM. sysctl in the docker-desktop distro is reset on every WSL restart.",
		Learned: "Put `kernelCommandLine = \"sysctl.vm.max_map_count=262144\"` under [wsl2] in %USERPROFILE%\\.wslconfig, then wsl --shutdown. One-off: wsl -d docker-desktop -u root sysctl -w vm.max_map_count=262144.",
		Fix:     "Add-Content $env:USERPROFILE\\.wslconfig \"[wsl2]`nkernelCommandLine = `\"sysctl.vm.max_map_count=262144`\"\"; wsl --shutdown"})
	es := "es01-1  | {\"@timestamp\":\"2023-10-02T08:12:44.913Z\", \"log.level\":\"ERROR\", \"message\":\"node validation exception\\n[1] bootstrap checks failed. You must address the points described in the following [1] lines before starting Elasticsearch. For more information see [https://www.elastic.co/guide/en/elasticsearch/reference/8.10/bootstrap-checks.html]\\nbootstrap check failure [1] of [1]: max virtual memory areas vm.max_map_count [65530] is too low, increase to at least [262144]; for more information see [https://www.elastic.co/guide/en/elasticsearch/reference/8.10/_maximum_map_count_check.html]\", \"ecs.version\": \"1.2.0\",\"service.name\":\"ES_ECS\",\"event.dataset\":\"elasticsearch.server\",\"process.thread.name\":\"main\",\"log.logger\":\"org.elasticsearch.bootstrap.Elasticsearch\",\"elasticsearch.node.name\":\"es01\",\"elasticsearch.cluster.name\":\"switchyard\"}\nes01-1  | ERROR: Elasticsearch did not exit normally - check the logs at /usr/share/elasticsearch/logs/switchyard.log\nes01-1 exited with code 78\n"
	h.ask("es-map-count/linux", "switchyard", "linux", "docker compose up es01", es, "es-max-map-count", "unseen2: twin on another system")
	h.ask("es-map-count/windows", "switchyard", "windows", "docker compose up es01", crlf(es), "es-max-map-count-wsl", "unseen2: twin on another system, CRLF")
	h.ask("es-map-count/tidewater", "tidewater", "linux", "docker compose -f compose.search.yml up",
		"opensearch-node1  | [2024-03-11T10:01:22,404][ERROR][o.o.b.OpenSearchBootstrap] [opensearch-node1] node validation exception\nopensearch-node1  | [1] bootstrap checks failed\nopensearch-node1  | [1]: max virtual memory areas vm.max_map_count [65530] is too low, increase to at least [262144]\nopensearch-node1 exited with code 78\n",
		"es-max-map-count", "unseen2: global note, another project and tool")
	h.ask("es-heap-oom", "switchyard", "linux", "docker compose logs es01 --tail 6",
		"es01-1  | {\"@timestamp\":\"2024-02-20T14:22:09.118Z\", \"log.level\":\"ERROR\", \"message\":\"fatal error in thread [elasticsearch[es01][write][T#3]], exiting\", \"error.type\":\"java.lang.OutOfMemoryError\",\"error.message\":\"Java heap space\",\"error.stack_trace\":\"java.lang.OutOfMemoryError: Java heap space\\n\\tat org.apache.lucene.util.BytesRefHash.rehash(BytesRefHash.java:416)\\n\"}\nes01-1  | # java.lang.OutOfMemoryError: Java heap space\nes01-1  | # -XX:OnOutOfMemoryError=\"kill -9 %p\"\nes01-1 exited with code 127\n",
		"", "unseen2: same tool, another error")

	h.note(Note{ID: "grpc-dns-roundrobin", Project: "switchyard", OS: "linux", Lang: "go", At: day(2024, 7, 30),
		Title: "DeadlineExceeded from inventory for a minute after each rollout",
		What:  "orders → inventory calls fail with `rpc error: code = DeadlineExceeded desc = context deadline exceeded` for ~60s after every inventory deploy, then recover.",
		Why: "The client dialed inventory:50051 (ClusterIP, passthrough resolver) and kept one HTTP/2 connection to an old pod that is draining; " +
			"new pods never get traffic until the connection breaks.",
		Where:   "internal/clients/inventory.go",
		Learned: "Dial dns:///inventory-headless:50051 with the round_robin balancer so the client watches pod IPs; keepalive of 30s.",
		Fix:     "kubectl -n switchyard set env deploy/orders INVENTORY_ADDR=dns:///inventory-headless.switchyard.svc:50051"})
	h.ask("grpc-deadline/rollout", "switchyard", "linux", "kubectl -n switchyard logs deploy/orders --since=5m",
		"{\"level\":\"info\",\"ts\":\"2024-08-14T09:30:02.114Z\",\"msg\":\"reserve stock\",\"order\":\"o-88121\"}\n{\"level\":\"error\",\"ts\":\"2024-08-14T09:30:02.616Z\",\"msg\":\"reserve failed\",\"order\":\"o-88121\",\"error\":\"inventory.Reserve: rpc error: code = DeadlineExceeded desc = context deadline exceeded\"}\n{\"level\":\"error\",\"ts\":\"2024-08-14T09:30:03.119Z\",\"msg\":\"reserve failed\",\"order\":\"o-88122\",\"error\":\"inventory.Reserve: rpc error: code = DeadlineExceeded desc = context deadline exceeded\"}\n{\"level\":\"info\",\"ts\":\"2024-08-14T09:30:03.402Z\",\"msg\":\"rollout observed\",\"deployment\":\"inventory\",\"revision\":41}\n",
		"grpc-dns-roundrobin", "unseen2: stored, paraphrased note")
	h.ask("grpc-deadline/slow-query", "switchyard", "linux", "kubectl -n switchyard logs deploy/pricing --since=5m",
		"{\"level\":\"warn\",\"ts\":\"2025-01-08T12:04:40.901Z\",\"msg\":\"slow query\",\"query\":\"SELECT ... FROM price_rules WHERE sku = ANY($1)\",\"elapsed\":\"4.82s\"}\n{\"level\":\"error\",\"ts\":\"2025-01-08T12:04:40.905Z\",\"msg\":\"quote failed\",\"error\":\"pricing.Quote: rpc error: code = DeadlineExceeded desc = context deadline exceeded\"}\n",
		"", "unseen2: same text, another cause")

	h.note(Note{ID: "protobuf-pin-320", Project: "switchyard", OS: "linux", Lang: "python", At: day(2022, 6, 2),
		Title:   "python grpc client: Descriptors cannot be created directly",
		What:    "After a fresh pip install the report job dies importing our *_pb2.py with TypeError: Descriptors cannot be created directly.",
		Why:     "protobuf 4.21 (released last week) rejects code generated by old protoc; our stubs are from protoc 3.12.",
		Learned: "Pinned protobuf==3.20.* in requirements.txt for now.",
		Fix:     "pip install 'protobuf==3.20.*'"})
	h.note(Note{ID: "protobuf-regen", Project: "switchyard", OS: "linux", Lang: "python", At: day(2023, 11, 21), ProseOver: "protobuf-pin-320",
		Title:   "regenerated the python stubs, protobuf pin removed",
		What:    "The protobuf 3.20 pin is no longer how we handle 'Descriptors cannot be created directly': grpcio 1.59 needs protobuf>=4.21, so the pin blocked every upgrade.",
		Why:     "Regenerated the stubs with grpcio-tools (make proto-py) and dropped the pin; if the error shows up again, someone committed stubs from an old protoc.",
		Learned: "Never pin protobuf to work around it, regenerate. And don't set PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python, it's 10x slower.",
		Fix:     "python -m grpc_tools.protoc -I proto --python_out=gen/py --grpc_python_out=gen/py proto/switchyard/*.proto"})
	h.ask("protobuf/report", "switchyard", "linux", "python -m switchyard.reports.daily",
		"Traceback (most recent call last):\n  File \"<frozen runpy>\", line 198, in _run_module_as_main\n  File \"/home/ci/build/switchyard/switchyard/reports/daily.py\", line 9, in <module>\n    from gen.py.switchyard import inventory_pb2\n  File \"/home/ci/build/switchyard/gen/py/switchyard/inventory_pb2.py\", line 33, in <module>\n    _descriptor.FieldDescriptor(\n  File \"/home/ci/build/switchyard/.venv/lib/python3.12/site-packages/google/protobuf/descriptor.py\", line 621, in __new__\n    _message.Message._CheckCalledFromGeneratedFile()\nTypeError: Descriptors cannot be created directly.\nIf this call came from a _pb2.py file, your generated code is out of date and must be regenerated with protoc >= 3.19.0.\nIf you cannot immediately regenerate your protos, some other possible workarounds are:\n 1. Downgrade the protobuf package to 3.20.x or lower.\n 2. Set PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python (but this will use pure-Python parsing and will be much slower).\n\nMore information: https://developers.google.com/protocol-buffers/docs/news/2022-05-06#python-updates\n",
		"protobuf-regen", "unseen2: superseded in prose", "protobuf-pin-320")
	h.ask("protobuf/pip-conflict", "switchyard", "linux", "pip install -r requirements.txt",
		"Collecting grpcio==1.62.1\n  Using cached grpcio-1.62.1-cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (5.5 MB)\nINFO: pip is looking at multiple versions of grpcio-status to determine which version is compatible with other requirements. This could take a while.\nERROR: Cannot install -r requirements.txt (line 4) and protobuf==3.20.3 because these package versions have conflicting dependencies.\n\nThe conflict is caused by:\n    The user requested protobuf==3.20.3\n    grpcio-status 1.62.1 depends on protobuf>=4.21.6\n\nTo fix this you could try to:\n1. loosen the range of package versions you've specified\n2. remove package versions to allow pip to attempt to solve the dependency conflict\n\nERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts\n",
		"protobuf-regen", "unseen2: superseded in prose, the old fix's own error", "protobuf-pin-320")
}
