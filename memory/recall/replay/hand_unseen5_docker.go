package replay

import "time"

// Docker and docker compose: the daemon and its socket on each system,
// images built for the wrong CPU, compose v1 and v2, health checks,
// ports taken on the host, build contexts, a full disk.
func unseen5Docker(h *hand) {
	h.note(Note{ID: "sock-perm", Project: "saltmarsh-infra", Scope: "global", OS: "linux", Lang: "shell", At: day(2022, time.February, 15),
		Title:   "docker needs sudo on a new Linux box",
		What:    "permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock",
		Why:     "user not in the docker group",
		Learned: "sudo usermod -aG docker $USER, then log out and in (or newgrp docker in the current shell). Rootless docker is the other option on shared machines.",
		Fix:     "sudo usermod -aG docker $USER && newgrp docker"})
	h.ask("sock-perm/1", "copperkettle", "linux", "docker compose up -d", `permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get "http://%2Fvar%2Frun%2Fdocker.sock/v1.47/containers/json?all=1&filters=%7B%22label%22%3A%7B%22com.docker.compose.config-hash%22%3Atrue%2C%22com.docker.compose.project%3Dcopperkettle%22%3Atrue%7D%7D": dial unix /var/run/docker.sock: connect: permission denied`, "sock-perm", u5Global)

	h.note(Note{ID: "daemon-wsl", Project: "ledgerline", Scope: "global", OS: "linux", Lang: "shell", At: day(2023, time.October, 10),
		Title:   "WSL2 Ubuntu: docker daemon not running after reboot",
		What:    "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?",
		Why:     "docker-ce installed inside WSL (no Docker Desktop); WSL didn't run systemd, so nothing starts dockerd.",
		Learned: "Enable systemd in /etc/wsl.conf ([boot] systemd=true), wsl --shutdown from Windows, then sudo systemctl enable --now docker. On a normal Linux host it's just systemctl start docker.",
		Fix:     "sudo systemctl enable --now docker"})
	h.note(Note{ID: "daemon-colima", Project: "fernweh-app", Scope: "global", OS: "darwin", Lang: "shell", At: day(2024, time.March, 1),
		Title:   "mac: docker CLI can't reach a daemon (colima)",
		What:    "`Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?`",
		Why:     "We replaced Docker Desktop with colima; the colima VM isn't started at login, and the CLI's context was still 'default' pointing at /var/run/docker.sock.",
		Learned: "colima start, then docker context use colima. brew services start colima to have it at login. Don't bother with /var/run/docker.sock symlinks.",
		Fix:     "colima start && docker context use colima"})
	h.ask("daemon-wsl/1", "harborview", "linux", "docker compose ps", `Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?`, "daemon-wsl", u5Twin)
	h.ask("daemon-colima/1", "tinsel-ui", "darwin", "docker build -t tinsel-ui .", `ERROR: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?`, "daemon-colima", u5Twin)
	h.ask("daemon-colima/2", "fernweh-app", "darwin", "docker run --rm -p 8080:80 nginx:alpine", `docker: Cannot connect to the Docker daemon at unix:///Users/lukas/.colima/default/docker.sock. Is the docker daemon running?.
See 'docker run --help'.`, "daemon-colima", u5Stored)

	h.note(Note{ID: "exec-arm-image", Project: "tollgate", OS: "darwin", Lang: "shell", At: day(2023, time.June, 6),
		Title:   "image built on the M2 won't start on the amd64 hosts",
		What:    "staging pod/container: exec /usr/local/bin/tollgate: exec format error",
		Why:     "docker build on Apple silicon makes linux/arm64 images by default; I pushed that tag and the hosts are amd64.",
		Learned: "docker buildx build --platform linux/amd64 (or both, linux/amd64,linux/arm64) for anything pushed. The run warns about the platform mismatch right before the exec error — that line is the tell.",
		Fix:     "docker buildx build --platform linux/amd64,linux/arm64 -t ghcr.io/tollgate/tollgate:$TAG --push ."})
	h.note(Note{ID: "exec-goarch", Project: "tollgate", OS: "linux", Lang: "go", At: day(2025, time.August, 21),
		Title:   "scratch image: exec format error from a wrong-GOARCH binary",
		What:    "`make image && docker run tollgate:dev` → exec /tollgate: exec format error",
		Why:     "The Makefile builds the binary on the host and COPYs it into FROM scratch. My .envrc exported GOARCH=arm64 from Pi experiments, and the Makefile only sets GOOS=linux, so it built an arm64 binary into an amd64 image.",
		Learned: "Makefile sets both GOOS and GOARCH explicitly now (GOARCH ?= amd64 was not enough because the env var wins over ?=). `file bin/tollgate` shows the arch in one second.",
		Where:   "Makefile"})
	h.ask("exec-arm-image/1", "tollgate", "linux", "docker run --rm ghcr.io/tollgate/tollgate:0.21.0 --version", `Unable to find image 'ghcr.io/tollgate/tollgate:0.21.0' locally
0.21.0: Pulling from tollgate/tollgate
Digest: sha256:44b2c0e19f7a7f0e2c0d9a1b5e3f6c7d8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d
Status: Downloaded newer image for ghcr.io/tollgate/tollgate:0.21.0
WARNING: The requested image's platform (linux/arm64/v8) does not match the detected host platform (linux/amd64/v4) and no specific platform was requested
exec /usr/local/bin/tollgate: exec format error`, "exec-arm-image", u5Cause)
	h.ask("exec-goarch/1", "tollgate", "linux", "make image && docker run --rm tollgate:dev", `GOOS=linux CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o bin/tollgate ./cmd/tollgate
docker build -t tollgate:dev -f Dockerfile.scratch .
[+] Building 0.6s (6/6) FINISHED                                 docker:default
 => [internal] load build definition from Dockerfile.scratch                0.0s
 => [1/2] COPY bin/tollgate /tollgate                                       0.1s
 => exporting to image                                                      0.1s
 => => naming to docker.io/library/tollgate:dev                             0.0s
exec /tollgate: exec format error
make: *** [Makefile:34: run-image] Error 255`, "exec-goarch", u5Cause)

	h.note(Note{ID: "compose-v1", Project: "quillmate", OS: "linux", Lang: "yaml", At: day(2022, time.September, 13),
		Title:   "apt's docker-compose too old for our compose file",
		What:    "ERROR: Version in \"./docker-compose.yml\" is unsupported. You might be seeing this error because you're using the wrong Compose file version.",
		Why:     "Ubuntu's docker-compose package is 1.25; our file uses version: \"3.9\".",
		Learned: "pip install docker-compose==1.29.2 on the CI box (in a venv).",
		Where:   "docker-compose.yml"})
	h.note(Note{ID: "compose-v2", Project: "quillmate", OS: "linux", Lang: "yaml", At: day(2024, time.August, 12), Supersedes: "compose-v1",
		Title:   "use the compose plugin (docker compose), not docker-compose",
		What:    "new runner: `docker-compose: command not found`",
		Why:     "Compose v1 (the python docker-compose) is end of life and not on the new images.",
		Learned: "apt install docker-compose-plugin and call `docker compose` (space). Scripts and Makefile updated. The top-level version: key is obsolete in v2, removed it; container names now use - instead of _ (quillmate-db-1), fixed the two scripts that grepped for them.",
		Where:   "Makefile, scripts/dev-db.sh, docker-compose.yml",
		Fix:     "sudo apt-get install -y docker-compose-plugin"})
	h.ask("compose-v2/1", "quillmate", "linux", "docker-compose -f docker-compose.yml up -d db", `/bin/bash: line 1: docker-compose: command not found
make: *** [Makefile:12: db-up] Error 127`, "compose-v2", u5Declared, "compose-v1")
	h.ask("compose-v2/2", "quillmate", "linux", "docker-compose -f docker-compose.ci.yml run --rm tests", `ERROR: Version in "./docker-compose.ci.yml" is unsupported. You might be seeing this error because you're using the wrong Compose file version. Either specify a supported version (e.g "2.2" or "3.3") and place your service definitions under the §services§ key, or omit the §version§ key and place your service definitions at the root of the file to use version 1.
For more on the Compose file format versions, see https://docs.docker.com/compose/compose-file/`, "compose-v2", u5Declared, "compose-v1")

	h.note(Note{ID: "pg-healthcheck", Project: "quillmate", OS: "darwin", Lang: "yaml", At: day(2023, time.November, 28),
		Title:   "compose: db never healthy, api never starts",
		What:    "dependency failed to start: container quillmate-db-1 is unhealthy",
		Why:     "healthcheck was `pg_isready` with no args; inside the container it runs as root → logs full of FATAL: role \"root\" does not exist and the check fails.",
		Learned: "test: [\"CMD-SHELL\", \"pg_isready -U $${POSTGRES_USER} -d $${POSTGRES_DB}\"] — note the $$ so compose doesn't interpolate it.",
		Where:   "docker-compose.yml"})
	h.ask("pg-healthcheck/1", "quillmate", "linux", "docker compose up -d api", ` ✔ Network quillmate_default  Created                                     0.1s
 ✔ Container quillmate-db-1   Created                                     0.1s
 ✔ Container quillmate-api-1  Created                                     0.1s
 ⠿ Container quillmate-db-1   Waiting                                    31.2s
dependency failed to start: container quillmate-db-1 is unhealthy
$ docker compose logs db | tail -3
db-1  | 2024-02-19 10:11:41.218 UTC [88] FATAL:  role "root" does not exist
db-1  | 2024-02-19 10:11:46.301 UTC [95] FATAL:  role "root" does not exist
db-1  | 2024-02-19 10:11:51.377 UTC [102] FATAL:  role "root" does not exist`, "pg-healthcheck", u5Stored)
	h.ask("redis-healthcheck", "quillmate", "linux", "docker compose up -d worker", ` ✔ Container quillmate-redis-1   Created                                   0.1s
 ✔ Container quillmate-worker-1  Created                                   0.1s
dependency failed to start: container quillmate-redis-1 is unhealthy
$ docker inspect --format '{{json .State.Health.Log}}' quillmate-redis-1 | jq -r '.[-1].Output'
NOAUTH Authentication required.`, "", u5NeverObj)

	h.note(Note{ID: "port-5432", Project: "quillmate", OS: "darwin", Lang: "shell", At: day(2023, time.April, 4),
		Title:   "compose db can't bind 5432 on my mac",
		What:    "Ports are not available: exposing port TCP 0.0.0.0:5432 -> 0.0.0.0:0: listen tcp 0.0.0.0:5432: bind: address already in use",
		Why:     "Homebrew postgresql@14 was running as a service from another project.",
		Learned: "brew services stop postgresql@14. (Or map 5433:5432 in a compose override, but then every DATABASE_URL needs changing.) lsof -iTCP:5432 -sTCP:LISTEN shows who has it.",
		Fix:     "brew services stop postgresql@14"})
	h.ask("port-5432/1", "quillmate", "darwin", "docker compose up -d", `[+] Running 1/2
 ✔ Container quillmate-redis-1  Started                                   0.4s
 ⠸ Container quillmate-db-1     Starting                                  0.4s
Error response from daemon: Ports are not available: exposing port TCP 0.0.0.0:5432 -> 127.0.0.1:0: listen tcp 0.0.0.0:5432: bind: address already in use`, "port-5432", u5Stored)
	h.ask("port-8000", "quillmate", "darwin", "docker compose up api", `Error response from daemon: Ports are not available: exposing port TCP 0.0.0.0:8000 -> 127.0.0.1:0: listen tcp 0.0.0.0:8000: bind: address already in use
$ lsof -nP -iTCP:8000 -sTCP:LISTEN
COMMAND   PID USER   FD   TYPE             DEVICE SIZE/OFF NODE NAME
Python  61234  kai    3u  IPv4 0x1b2c3d4e5f6a7b8c      0t0  TCP 127.0.0.1:8000 (LISTEN)`, "", u5NeverObj)

	h.note(Note{ID: "dockerignore-config", Project: "tollgate", OS: "windows", Lang: "shell", At: day(2023, time.December, 4),
		Title:   "COPY config/ fails: the .dockerignore eats it",
		What:    "docker build: failed to compute cache key: ... \"/config/tollgate.yaml\": not found",
		Why:     ".dockerignore had `config/` (added to keep local secrets out), so the default config isn't in the context.",
		Learned: "ignore config/*.local.yaml only. The not-found path in that message is relative to the context, not to the Dockerfile.",
		Where:   ".dockerignore"})
	h.ask("dockerignore-config/1", "tollgate", "linux", "docker build -t tollgate:ci .", `#9 [stage-1 3/4] COPY config/routes.default.yaml /etc/tollgate/routes.yaml
#9 ERROR: failed to calculate checksum of ref 5c3f1e1e-77a2-4b1f-9d53-0d2f6a5b8c11::q8z2l5m3x9w1k7j4h6g0: "/config/routes.default.yaml": not found
------
 > [stage-1 3/4] COPY config/routes.default.yaml /etc/tollgate/routes.yaml:
------
Dockerfile:21
--------------------
  19 |     FROM gcr.io/distroless/static-debian12
  20 |     COPY --from=build /out/tollgate /usr/local/bin/tollgate
  21 | >>> COPY config/routes.default.yaml /etc/tollgate/routes.yaml
  22 |     ENTRYPOINT ["/usr/local/bin/tollgate"]
--------------------
ERROR: failed to solve: failed to compute cache key: failed to calculate checksum of ref 5c3f1e1e-77a2-4b1f-9d53-0d2f6a5b8c11::q8z2l5m3x9w1k7j4h6g0: "/config/routes.default.yaml": not found`, "dockerignore-config", u5Stored)
	h.ask("no-dockerfile", "kiln-deploy", "linux", "docker build -t kiln-deploy .", `[+] Building 0.0s (1/1) FINISHED                                 docker:default
 => [internal] load build definition from Dockerfile                        0.0s
 => => transferring dockerfile: 2B                                          0.0s
ERROR: failed to solve: failed to read dockerfile: open Dockerfile: no such file or directory`, "", u5Generic)

	h.note(Note{ID: "disk-full", Project: "gridwatch", Scope: "global", OS: "linux", Lang: "shell", At: day(2024, time.November, 18),
		Title:   "builds die with no space left on device (docker)",
		What:    "failed to register layer: write /usr/lib/x86_64-linux-gnu/libLLVM-15.so.1: no space left on device",
		Why:     "months of dangling images and build cache in /var/lib/docker on the self-hosted runner",
		Learned: "docker system df to see it, docker system prune -af and docker builder prune -af to reclaim. Added a weekly cron on the runners. On GitHub-hosted runners, remove the preinstalled toolchains (/usr/local/lib/android etc.) instead.",
		Fix:     "docker system prune -af && docker builder prune -af"})
	h.ask("disk-full/1", "kiln-deploy", "linux", "docker pull ghcr.io/kiln-labs/runner-base:2025.10", `2025.10: Pulling from kiln-labs/runner-base
a1b2c3d4e5f6: Already exists
0f9e8d7c6b5a: Extracting [==================================================>]  1.13GB/1.13GB
failed to register layer: write /opt/hostedtoolcache/CodeQL/2.19.1/x64/codeql/tools/linux64/lib64/libcodeql.so: no space left on device`, "disk-full", u5Global)
	h.ask("pull-ratelimit", "kiln-deploy", "linux", "docker pull node:20-bookworm-slim", `Error response from daemon: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit`, "", u5NeverFail)
}
