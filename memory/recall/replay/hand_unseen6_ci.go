package replay

import "time"

// CI: GitHub Actions (bakery-pos, harborview, ledgerline, routeplan) and
// GitLab CI (parcelhub).
func unseen6CI(h *hand) {
	h.note(Note{ID: "ci-compose-v1-gone", Project: "bakery-pos", OS: "linux", Lang: "yaml", At: day(2024, time.April, 8),
		Title:   "GitHub runner: docker-compose: command not found",
		What:    "system test job: §docker-compose: command not found§, exit 127, worked last week",
		Why:     "GitHub removed Compose v1 (the docker-compose binary) from the ubuntu runner images; v2 is the docker compose plugin",
		Where:   ".github/workflows/system-tests.yml, bin/ci",
		Learned: "replace docker-compose with docker compose everywhere (workflow + bin/ci script). Flags are the same for what we use.",
	})
	h.ask("ci-compose-v1-gone/1", "bakery-pos", "linux", "bin/ci system", `Run bin/ci system
+ docker-compose -f docker-compose.ci.yml up -d db redis
bin/ci: line 14: docker-compose: command not found
Error: Process completed with exit code 127.`, "ci-compose-v1-gone", "hand: stored")

	h.note(Note{ID: "ci-ghcr-packages-write", Project: "harborview", OS: "linux", Lang: "yaml", At: day(2023, time.September, 26),
		Title:   "push to ghcr from Actions: 403 Forbidden",
		What:    "docker/build-push-action: §failed to push ghcr.io/harborview/api:sha-...: unexpected status from POST request to https://ghcr.io/v2/harborview/api/blobs/uploads/: 403 Forbidden§",
		Why:     "org default GITHUB_TOKEN permissions were switched to read-only; the workflow didn't ask for packages: write",
		Where:   ".github/workflows/image.yml",
		Learned: "permissions: { contents: read, packages: write } at the job level. Also the package must grant the repo access (package settings > Manage Actions access) if the package was first pushed from another repo.",
	})
	h.ask("ci-ghcr-packages-write/1", "harborview", "linux", "docker buildx build --push -t ghcr.io/harborview/notify:sha-9e1c2ab .", `#18 exporting to image
#18 exporting layers 2.9s done
#18 exporting manifest sha256:4c1f9e0b3a2d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f done
#18 pushing layers 0.4s done
#18 ERROR: failed to push ghcr.io/harborview/notify:sha-9e1c2ab: unexpected status from POST request to https://ghcr.io/v2/harborview/notify/blobs/uploads/: 403 Forbidden
------
 > exporting to image:
------
ERROR: failed to solve: failed to push ghcr.io/harborview/notify:sha-9e1c2ab: unexpected status from POST request to https://ghcr.io/v2/harborview/notify/blobs/uploads/: 403 Forbidden
Error: buildx failed with: ERROR: failed to solve: failed to push ghcr.io/harborview/notify:sha-9e1c2ab: unexpected status from POST request to https://ghcr.io/v2/harborview/notify/blobs/uploads/: 403 Forbidden`, "ci-ghcr-packages-write", "hand: stored")

	h.note(Note{ID: "ci-gitlab-dind", Project: "parcelhub", OS: "linux", Lang: "yaml", At: day(2022, time.August, 16),
		Title:   "gitlab dind: Cannot connect to the Docker daemon at tcp://docker:2375",
		What:    "Cannot connect to the Docker daemon at tcp://docker:2375. Is the docker daemon running?",
		Why:     "docker:20.10-dind generates TLS certs and listens on 2376 only, our job still talks plain 2375",
		Where:   ".gitlab-ci.yml",
		Learned: "variables: DOCKER_HOST: tcp://docker:2376, DOCKER_TLS_CERTDIR: \"/certs\", DOCKER_TLS_VERIFY: 1, DOCKER_CERT_PATH: \"$DOCKER_TLS_CERTDIR/client\" and the runner must mount /certs/client (runner config volumes).",
	})
	h.note(Note{ID: "ci-gitlab-dind-k8s", Project: "parcelhub", OS: "linux", Lang: "yaml", At: day(2025, time.March, 31),
		Title:      "dind on the new Kubernetes runners: talk to localhost",
		Supersedes: "ci-gitlab-dind",
		What:       "All docker-build jobs fail after the runner migration: §Cannot connect to the Docker daemon at tcp://docker:2376. Is the docker daemon running?§",
		Why:        "with the Kubernetes executor services run as containers in the same pod; the 'docker' alias is not resolvable there, the daemon is on localhost. The /certs volume isn't shared unless declared.",
		Where:      ".gitlab-ci.yml",
		Learned:    "DOCKER_HOST: tcp://localhost:2376 and keep DOCKER_TLS_CERTDIR: /certs; add an emptyDir for /certs/client in the runner's config.toml ([[runners.kubernetes.volumes.empty_dir]]). Plus a 'until docker info; do sleep 1; done' because the service may start after the job container.",
	})
	h.ask("ci-gitlab-dind-k8s/1", "parcelhub", "linux", "docker build -t $CI_REGISTRY_IMAGE/tracking:$CI_COMMIT_SHORT_SHA .", `Running with gitlab-runner 17.9.1 (f2d2d9a7)
  on k8s-runner-parcelhub-7b9f4 t3_Xy2kP, system ID: r_1b2c3d4e5f6a
Preparing the "kubernetes" executor
Using Kubernetes namespace: gitlab-runners
Using Kubernetes executor with image docker:27.3 ...
Using attach strategy to execute scripts...
Preparing environment
Waiting for pod gitlab-runners/runner-t3xy2kp-project-118-concurrent-0-8h1k2l3m to be running, status is Pending
Running on runner-t3xy2kp-project-118-concurrent-0-8h1k2l3m via k8s-runner-parcelhub-7b9f4...
Getting source from Git repository
Executing "step_script" stage of the job script
$ docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" $CI_REGISTRY
WARNING! Using --password via the CLI is insecure. Use --password-stdin.
error during connect: Post "https://docker:2376/v1.47/auth": dial tcp: lookup docker on 10.96.0.10:53: no such host
$ docker build -t $CI_REGISTRY_IMAGE/tracking:$CI_COMMIT_SHORT_SHA .
Cannot connect to the Docker daemon at tcp://docker:2376. Is the docker daemon running?
Cleaning up project directory and file based variables
ERROR: Job failed: command terminated with exit code 1`, "ci-gitlab-dind-k8s", "superseded, declared", "ci-gitlab-dind")
	h.ask("ci-gitlab-stuck/1", "parcelhub", "linux", "gitlab-runner verify", `Runtime platform                                    arch=amd64 os=linux pid=2212 revision=f2d2d9a7 version=17.9.1
Running in system-mode.                            
                                                   
Verifying runner... is removed                      runner=t3_Xy2kP
ERROR: Verifying runner... failed                   runner=t3_Xy2kP status=couldn't execute POST against https://gitlab.parcelhub.internal/api/v4/runners/verify: Post "https://gitlab.parcelhub.internal/api/v4/runners/verify": 403 Forbidden`, "", "never stored: another failure")

	h.note(Note{ID: "ci-oidc-sub", Project: "ledgerline", OS: "linux", Lang: "yaml", At: day(2024, time.September, 4),
		Title:   "deploy job can't assume the AWS role via OIDC after adding environment: prod",
		What:    "aws-actions/configure-aws-credentials: Could not assume role with OIDC: Not authorized to perform sts:AssumeRoleWithWebIdentity",
		Why:     "once a job has environment: prod the token's sub claim is repo:ledgerline/api:environment:prod instead of repo:ledgerline/api:ref:refs/heads/main, and the role's trust policy only allowed the ref form",
		Where:   "infra/iam/github-oidc.tf",
		Learned: "trust policy condition token.actions.githubusercontent.com:sub StringLike [\"repo:ledgerline/api:ref:refs/heads/main\", \"repo:ledgerline/api:environment:prod\"]. Decode the token in a debug step to see the real sub.",
	})
	h.ask("ci-oidc-sub/1", "ledgerline", "linux", "aws-actions/configure-aws-credentials@v4", `Run aws-actions/configure-aws-credentials@v4
  with:
    role-to-assume: arn:aws:iam::318924005117:role/ledgerline-deploy-prod
    aws-region: eu-west-1
    audience: sts.amazonaws.com
Assuming role with OIDC
Assuming role with OIDC
Assuming role with OIDC
Error: Could not assume role with OIDC: Not authorized to perform sts:AssumeRoleWithWebIdentity`, "ci-oidc-sub", "hand: stored")
	h.ask("ci-oidc-sub/2", "harborview", "linux", "aws-actions/configure-aws-credentials@v4", `Run aws-actions/configure-aws-credentials@v4
  with:
    role-to-assume: arn:aws:iam::520144771893:role/harborview-charts-publish
    aws-region: eu-west-1
Assuming role with OIDC
Error: Could not assume role with OIDC: Not authorized to perform sts:AssumeRoleWithWebIdentity`, "", "another project's project note")

	h.note(Note{ID: "ci-shallow-describe", Project: "routeplan", OS: "linux", Lang: "kotlin", At: day(2025, time.May, 6),
		Title:   "version plugin: fatal: No names found, cannot describe anything (CI only)",
		What:    "gradle build in Actions: the git-version plugin fails with §fatal: No names found, cannot describe anything.§",
		Why:     "actions/checkout fetches depth 1 without tags",
		Where:   ".github/workflows/build.yml",
		Learned: "actions/checkout with fetch-depth: 0 (and fetch-tags: true). Locally it always worked because of the full clone.",
	})
	h.ask("ci-shallow-describe/1", "routeplan", "linux", "./gradlew build", `> Configure project :
fatal: No names found, cannot describe anything.

FAILURE: Build failed with an exception.

* Where:
Build file '/home/runner/work/routeplan/routeplan/build.gradle.kts' line: 9

* What went wrong:
An exception occurred applying plugin request [id: 'com.palantir.git-version', version: '3.1.0']
> Failed to apply plugin 'com.palantir.git-version'.
   > Process 'command 'git'' finished with non-zero exit value 128

BUILD FAILED in 6s`, "ci-shallow-describe", "hand: stored")
	h.ask("ci-gha-not-accessible/1", "storefront-next", "linux", "actions/github-script@v7", `Run actions/github-script@v7
RequestError [HttpError]: Resource not accessible by integration
    at /home/runner/work/_actions/actions/github-script/v7/dist/index.js:9537:21
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
    at async eval (eval at callAsyncFunction (/home/runner/work/_actions/actions/github-script/v7/dist/index.js:36187:16), <anonymous>:3:1) {
  status: 403,
  response: {
    url: 'https://api.github.com/repos/acme-shop/storefront-next/issues/412/comments',
    status: 403,
    data: {
      message: 'Resource not accessible by integration',
      documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment'
    }
  }
}
Error: Unhandled error: HttpError: Resource not accessible by integration`, "", "never stored: same kind, another object")
	h.ask("ci-gha-cache-tar/1", "bakery-pos", "linux", "actions/cache@v4", `Run actions/cache@v4
Received 134217728 of 512000000 (26.2%), 127.9 MBs/sec
Received 402653184 of 512000000 (78.6%), 191.6 MBs/sec
Received 512000000 of 512000000 (100.0%), 162.2 MBs/sec
Cache Size: ~488 MB (512000000 B)
/usr/bin/tar -xf /home/runner/work/_temp/2d4a0c1e-3b5f-4a7c-9e1d-8f6b2c0a4e3d/cache.tzst -P -C /home/runner/work/bakery-pos/bakery-pos --use-compress-program unzstd
/usr/bin/tar: ../../../../../usr/local/bundle/gems/nokogiri-1.16.5-x86_64-linux/lib/nokogiri/3.3/nokogiri.so: Cannot open: Permission denied
/usr/bin/tar: Exiting with failure status due to previous errors
Warning: Failed to restore: "/usr/bin/tar" failed with error: The process '/usr/bin/tar' failed with exit code 2`, "", "never stored: another failure")
}
