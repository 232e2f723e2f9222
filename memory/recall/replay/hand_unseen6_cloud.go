package replay

import "time"

// Cloud CLIs and serverless, Docker and compose, Kubernetes and Helm:
// harborview (the platform team's charts and clusters) and the product
// projects deploying through it.
func unseen6Cloud(h *hand) {
	h.note(Note{ID: "cl-aws-sso", Project: "ledgerline", Scope: "global", OS: "darwin", Lang: "shell", At: day(2023, time.March, 6),
		Title:   "aws cli: SSO token expired",
		What:    "§Error when retrieving token from sso: Token has expired and refresh failed§",
		Why:     "IAM Identity Center sessions last 8h; the cached token in ~/.aws/sso/cache is stale",
		Learned: "aws sso login --profile <profile> (same for terraform/cdk which use the same cache). If it keeps failing, delete ~/.aws/sso/cache/*.json.",
		Fix:     "aws sso login --profile ledger-dev"})
	h.ask("cl-aws-sso/1", "ledgerline", "darwin", "aws s3 ls s3://ledgerline-statements-dev --profile ledger-dev", `
Error when retrieving token from sso: Token has expired and refresh failed`, "cl-aws-sso", "hand: stored")
	h.ask("cl-aws-sso/2", "tripmate", "linux", "npx cdk diff TripmateApiStack --profile tripmate-staging", `Unable to resolve AWS account to use. It must be either configured when you define your CDK Stack, or through the environment

[Error at /TripmateApiStack] Could not assume role in target account using current credentials (which are for account ???) . Please make sure that this role exists in the account. If it doesn't exist, (re)-bootstrap the environment with the right '--trust', using the latest version of the CDK CLI.
Error when retrieving token from sso: Token has expired and refresh failed`, "cl-aws-sso", "global note, another project")
	h.ask("cl-aws-s3-denied/1", "ledgerline", "linux", "aws s3 cp build/statements.zip s3://ledgerline-statements-prod/2025/06/", `upload failed: build/statements.zip to s3://ledgerline-statements-prod/2025/06/statements.zip An error occurred (AccessDenied) when calling the PutObject operation: User: arn:aws:sts::318924005117:assumed-role/ledgerline-ci-deploy/GitHubActions is not authorized to perform: s3:PutObject on resource: "arn:aws:s3:::ledgerline-statements-prod/2025/06/statements.zip" with an explicit deny in a resource-based policy`, "", "same tool, another error")

	h.note(Note{ID: "cl-lambda-size", Project: "pollen-api", OS: "linux", Lang: "python", At: day(2024, time.August, 14),
		Title:   "serverless deploy: unzipped size must be smaller than 262144000 bytes",
		What:    "sls deploy fails on the ingest function: §Unzipped size must be smaller than 262144000 bytes§",
		Why:     "serverless-python-requirements bundled pandas + numpy + boto3 + the tests folder; 250MB unzipped limit for zip lambdas",
		Where:   "serverless.yml",
		Learned: "custom.pythonRequirements: slim: true, noDeploy: [boto3, botocore], package.patterns exclude tests/** and .venv/**; moved pandas into a layer. If it still doesn't fit: container image lambda (10GB limit).",
	})
	h.ask("cl-lambda-size/1", "pollen-api", "linux", "npx serverless deploy --stage prod", `Deploying "pollen-ingest" to stage "prod" (eu-central-1)
Running "serverless-python-requirements"
Installing requirements from "/home/runner/.cache/serverless-python-requirements/5f1c.../requirements.txt" ...
Zipping required Python packages for ingest...
Packaging service...

✖ Stack pollen-ingest-prod failed to deploy (74s)
Environment: linux, node 20.15.1, framework 3.39.0, plugin 7.2.3, SDK 4.5.1
Docs:        docs.serverless.com
Support:     forum.serverless.com
Bugs:        github.com/serverless/serverless/issues

Error:
UPDATE_FAILED: IngestLambdaFunction (AWS::Lambda::Function)
Resource handler returned message: "Unzipped size must be smaller than 262144000 bytes (Service: Lambda, Status Code: 400, Request ID: 3b6f0d5e-91a4-4c2e-8d1b-2f0a7c9e4d11)" (RequestToken: 0e1b4a2f-6c3d-2a1f-9e8b-7d6c5b4a3f2e, HandlerErrorCode: InvalidRequest)`, "cl-lambda-size", "hand: stored")

	h.note(Note{ID: "cl-gcloud-quota-project", Project: "rosterapp", OS: "darwin", Lang: "python", At: day(2024, time.April, 23),
		Title:   "local app can't reach Cloud SQL: API disabled in *my* project",
		What:    "google.api_core.exceptions.PermissionDenied: 403 Cloud SQL Admin API has not been used in project 764086051850 before or it is disabled — that project number is my personal sandbox, not roster-prod",
		Why:     "Application Default Credentials carry a quota project, and mine was set to the sandbox when I first ran gcloud auth application-default login",
		Learned: "gcloud auth application-default set-quota-project roster-prod (gcloud prints a warning about the mismatch on every command, worth reading).",
		Fix:     "gcloud auth application-default set-quota-project roster-prod"})
	h.ask("cl-gcloud-quota-project/1", "rosterapp", "darwin", "python manage.py runserver", `WARNING: Your active project does not match the quota project in your local Application Default Credentials file. This might result in unexpected quota issues.

To update your Application Default Credentials quota project, use the §gcloud auth application-default set-quota-project§ command.
Watching for file changes with StatReloader
Performing system checks...

Exception in thread django-main-thread:
Traceback (most recent call last):
  File "/Users/ines/rosterapp/.venv/lib/python3.12/site-packages/google/cloud/sql/connector/connector.py", line 348, in connect_async
    conn_info = await cache.connect_info()
  File "/Users/ines/rosterapp/.venv/lib/python3.12/site-packages/google/api_core/grpc_helpers_async.py", line 88, in __await__
    raise exceptions.from_grpc_error(rpc_error) from rpc_error
google.api_core.exceptions.PermissionDenied: 403 Cloud SQL Admin API has not been used in project 764086051850 before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/sqladmin.googleapis.com/overview?project=764086051850 then retry. [reason: "SERVICE_DISABLED"]`, "cl-gcloud-quota-project", "hand: stored")
	h.ask("cl-gcloud-actas/1", "rosterapp", "linux", "gcloud run deploy roster-web --image europe-west3-docker.pkg.dev/roster-prod/web/roster:1.19.0 --region europe-west3", `Deploying container to Cloud Run service [roster-web] in project [roster-prod] region [europe-west3]
X Deploying...
  . Creating Revision...
Deployment failed
ERROR: (gcloud.run.deploy) PERMISSION_DENIED: Permission 'iam.serviceaccounts.actAs' denied on service account roster-web@roster-prod.iam.gserviceaccount.com (or it may not exist). This command is authenticated as ci-deployer@roster-prod.iam.gserviceaccount.com which is the active account specified by the [core/account] property.`, "", "never stored: same kind, another object")

	h.note(Note{ID: "cl-az-mfa-tenant", Project: "fleetdesk", OS: "windows", Lang: "shell", At: day(2025, time.September, 9),
		Title:   "az CLI: AADSTS50076 MFA required for the fleet subscription",
		What:    "az account get-access-token / az deployment group create fail with §AADSTS50076: Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication§",
		Why:     "conditional access now demands MFA for the management endpoint; the cached refresh token predates it",
		Learned: "az logout, then az login --tenant <fleetdesk tenant id> --scope https://management.core.windows.net//.default (the double slash is right). WAM login prompt on Windows handles the MFA.",
		Fix:     "az login --tenant fleetdesk.onmicrosoft.com --scope https://management.core.windows.net//.default"})
	h.ask("cl-az-mfa-tenant/1", "fleetdesk", "windows", "az deployment group create -g rg-fleet-prod -f infra/main.bicep", u6crlf(`ERROR: AADSTS50076: Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access '797f4846-ba00-4fd7-ba43-dac1f8f63013'. Trace ID: 1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d Correlation ID: 9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a Timestamp: 2025-10-14 07:02:41Z
Interactive authentication is needed. Please run:
az login --scope https://management.core.windows.net//.default
`), "cl-az-mfa-tenant", "hand: stored")
	h.ask("cl-az-subscription/1", "fleetdesk", "darwin", "az account set --subscription fleet-prod", `ERROR: The subscription of 'fleet-prod' doesn't exist in cloud 'AzureCloud'.`, "", "same tool, another error")

	h.note(Note{ID: "cl-docker-exec-format", Project: "storefront-next", OS: "darwin", Lang: "shell", At: day(2023, time.February, 2),
		Title:   "pod crashloops with exec format error — image built on the M1",
		What:    "kubectl logs: §exec /usr/local/bin/docker-entrypoint.sh: exec format error§",
		Why:     "docker build on Apple silicon produces linux/arm64; the cluster nodes are amd64",
		Learned: "docker buildx build --platform linux/amd64 (or both: --platform linux/amd64,linux/arm64 --push). CI builds on amd64 anyway, this only bites when pushing from a laptop.",
		Fix:     "docker buildx build --platform linux/amd64 -t $IMAGE --push ."})
	h.ask("cl-docker-exec-format/1", "storefront-next", "darwin", "kubectl -n storefront logs storefront-web-7d9c8b6f5-x2k4q --previous", `exec /usr/local/bin/docker-entrypoint.sh: exec format error`, "cl-docker-exec-format", "hand: stored")

	h.note(Note{ID: "cl-entrypoint-crlf", Project: "fleetdesk", OS: "windows", Lang: "shell", At: day(2024, time.July, 30),
		Title:   "container: entrypoint.sh 'no such file or directory' though it's there",
		What:    "§exec /app/entrypoint.sh: no such file or directory§ — the file is in the image, ls shows it",
		Why:     "git on windows checked it out with CRLF (core.autocrlf=true), so the shebang is #!/bin/sh\\r and the kernel looks for an interpreter named 'sh\\r'",
		Where:   ".gitattributes, docker/entrypoint.sh",
		Learned: "*.sh text eol=lf in .gitattributes, then git add --renormalize . ; file entrypoint.sh says 'with CRLF line terminators' when this is the cause.",
		Fix:     "git add --renormalize ."})
	h.note(Note{ID: "cl-entrypoint-bash", Project: "fleetdesk", OS: "linux", Lang: "shell", At: day(2025, time.January, 22),
		Title:   "alpine-based worker image: entrypoint not found (it's bash)",
		What:    "Same 'exec /app/entrypoint.sh: no such file or directory' after switching the runtime image to mcr.microsoft.com/dotnet/runtime:8.0-alpine.",
		Why:     "the script starts with #!/bin/bash and alpine has no bash; line endings were fine this time (checked with file)",
		Where:   "docker/entrypoint.sh, src/Fleetdesk.Worker/Dockerfile",
		Learned: "make the script POSIX and use #!/bin/sh, or apk add --no-cache bash in the image.",
	})
	h.ask("cl-entrypoint-crlf/1", "fleetdesk", "windows", "docker compose up worker", u6crlf(`[+] Running 2/2
 ✔ Container fleetdesk-sql-1     Running                                                                   0.0s 
 ✔ Container fleetdesk-worker-1  Recreated                                                                 0.2s 
Attaching to worker-1
worker-1  | exec /app/entrypoint.sh: no such file or directory
worker-1 exited with code 1
PS C:\src\fleetdesk> git config core.autocrlf
true
PS C:\src\fleetdesk> docker run --rm --entrypoint sh fleetdesk-worker:dev -c "head -c 20 /app/entrypoint.sh | od -c"
0000000   #   !   /   b   i   n   /   s   h  \r  \n   s   e   t       -
`), "cl-entrypoint-crlf", "same text, another cause")
	h.ask("cl-entrypoint-bash/1", "fleetdesk", "linux", "docker run --rm fleetdesk-worker:alpine", `exec /app/entrypoint.sh: no such file or directory
$ docker run --rm --entrypoint /bin/sh fleetdesk-worker:alpine -c 'file /app/entrypoint.sh; ls -l /bin/bash'
/app/entrypoint.sh: Bourne-Again shell script, ASCII text executable
ls: /bin/bash: No such file or directory`, "cl-entrypoint-bash", "same text, another cause")
	h.ask("cl-dockerfile-copy/1", "fleetdesk", "linux", "docker build -f src/Fleetdesk.Worker/Dockerfile .", `#0 building with "default" instance using docker driver

#1 [internal] load build definition from Dockerfile
#1 transferring dockerfile: 1.02kB done
#1 DONE 0.0s
#8 [build 3/7] COPY src/Fleetdesk.Worker/Fleetdesk.Worker.csproj src/Fleetdesk.Worker/
#8 ERROR: failed to calculate checksum of ref 1f0c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b::k3j2h1g0f9e8d7c6b5a4: "/src/Fleetdesk.Shared/Fleetdesk.Shared.csproj": not found
------
 > [build 4/7] COPY src/Fleetdesk.Shared/Fleetdesk.Shared.csproj src/Fleetdesk.Shared/:
------
Dockerfile:7
--------------------
   5 |     WORKDIR /src
   6 |     COPY src/Fleetdesk.Worker/Fleetdesk.Worker.csproj src/Fleetdesk.Worker/
   7 | >>> COPY src/Fleetdesk.Shared/Fleetdesk.Shared.csproj src/Fleetdesk.Shared/
--------------------
ERROR: failed to solve: failed to compute cache key: failed to calculate checksum of ref 1f0c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b::k3j2h1g0f9e8d7c6b5a4: "/src/Fleetdesk.Shared/Fleetdesk.Shared.csproj": not found`, "", "generic file name")

	h.note(Note{ID: "cl-compose-healthy", Project: "bakery-pos", OS: "linux", Lang: "yaml", At: day(2022, time.October, 4),
		Title:   "web starts before postgres accepts connections",
		What:    "docker compose up: web exits with PG::ConnectionBad ... Connection refused, on the first up only; a second up works",
		Why:     "depends_on only waits for the container to start, not for postgres to be ready",
		Where:   "docker-compose.yml",
		Learned: "healthcheck on db (pg_isready -U postgres) and depends_on: db: condition: service_healthy on web.",
	})
	h.ask("cl-compose-healthy/1", "bakery-pos", "linux", "docker compose up", `[+] Running 3/3
 ✔ Network bakery-pos_default  Created                                     0.1s 
 ✔ Container bakery-pos-db-1   Created                                     0.1s 
 ✔ Container bakery-pos-web-1  Created                                     0.1s 
Attaching to db-1, web-1
db-1   | The files belonging to this database system will be owned by user "postgres".
db-1   | initdb: warning: enabling "trust" authentication for local connections
web-1  | bin/rails aborted!
web-1  | ActiveRecord::ConnectionNotEstablished: connection to server at "172.19.0.2", port 5432 failed: Connection refused (ActiveRecord::ConnectionNotEstablished)
web-1  | 	Is the server running on that host and accepting TCP/IP connections?
web-1  | Tasks: TOP => db:prepare
web-1 exited with code 1
db-1   | 2023-03-14 09:20:41.118 UTC [1] LOG:  database system is ready to accept connections`, "cl-compose-healthy", "hand: stored")

	h.note(Note{ID: "cl-ecr-pull-node-role", Project: "harborview", OS: "linux", Lang: "yaml", At: day(2023, time.June, 20),
		Title:   "new EKS node group can't pull from ECR",
		What:    "pods on the new spot node group stuck in ImagePullBackOff: §failed to authorize: failed to fetch anonymous token ... 403 Forbidden§ / no basic auth credentials",
		Why:     "the node group was created with a custom IAM role that lacked AmazonEC2ContainerRegistryReadOnly",
		Where:   "terraform/eks/nodegroups.tf",
		Learned: "attach arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly to the node role. Pods on the old group kept working, which is the tell.",
	})
	h.ask("cl-ecr-pull-node-role/1", "harborview", "linux", "kubectl -n payments describe pod ledger-api-6f8d7c9b4-pq7zt", `Events:
  Type     Reason     Age                 From               Message
  ----     ------     ----                ----               -------
  Normal   Scheduled  2m10s               default-scheduler  Successfully assigned payments/ledger-api-6f8d7c9b4-pq7zt to ip-10-30-14-201.eu-west-1.compute.internal
  Normal   Pulling    41s (x4 over 2m9s)  kubelet            Pulling image "318924005117.dkr.ecr.eu-west-1.amazonaws.com/ledgerline/api:0.44.1"
  Warning  Failed     41s (x4 over 2m9s)  kubelet            Failed to pull image "318924005117.dkr.ecr.eu-west-1.amazonaws.com/ledgerline/api:0.44.1": failed to pull and unpack image "318924005117.dkr.ecr.eu-west-1.amazonaws.com/ledgerline/api:0.44.1": failed to resolve reference "318924005117.dkr.ecr.eu-west-1.amazonaws.com/ledgerline/api:0.44.1": pull access denied, repository does not exist or may require authorization: authorization failed: no basic auth credentials
  Warning  Failed     41s (x4 over 2m9s)  kubelet            Error: ErrImagePull
  Normal   BackOff    5s (x6 over 2m8s)   kubelet            Back-off pulling image "318924005117.dkr.ecr.eu-west-1.amazonaws.com/ledgerline/api:0.44.1"
  Warning  Failed     5s (x6 over 2m8s)   kubelet            Error: ImagePullBackOff`, "cl-ecr-pull-node-role", "hand: stored")
	h.ask("cl-image-manifest-unknown/1", "harborview", "darwin", "kubectl -n roster get events --field-selector involvedObject.name=roster-web-5c9d8f7b6-hh2lm", `LAST SEEN   TYPE      REASON    OBJECT                          MESSAGE
12s         Warning   Failed    pod/roster-web-5c9d8f7b6-hh2lm   Failed to pull image "europe-west3-docker.pkg.dev/roster-prod/web/roster:1.19.0-rc1": rpc error: code = NotFound desc = failed to pull and unpack image "europe-west3-docker.pkg.dev/roster-prod/web/roster:1.19.0-rc1": failed to resolve reference "europe-west3-docker.pkg.dev/roster-prod/web/roster:1.19.0-rc1": europe-west3-docker.pkg.dev/roster-prod/web/roster:1.19.0-rc1: not found
12s         Warning   Failed    pod/roster-web-5c9d8f7b6-hh2lm   Error: ErrImagePull`, "", "never stored: same kind, another object")

	h.note(Note{ID: "cl-helm-selector", Project: "harborview", OS: "darwin", Lang: "yaml", At: day(2024, time.December, 3),
		Title:   "helm upgrade: Deployment spec.selector field is immutable",
		What:    "§Error: UPGRADE FAILED: cannot patch \"harborview-api\" with kind Deployment: Deployment.apps \"harborview-api\" is invalid: spec.selector: Invalid value: ...: field is immutable§",
		Why:     "the chart refactor added app.kubernetes.io/component to the selector labels; selectors can't change on an existing Deployment",
		Where:   "charts/harborview-api/templates/_helpers.tpl",
		Learned: "Either keep selectorLabels stable (put new labels only in metadata/template labels) or delete the Deployment without killing pods: kubectl delete deploy harborview-api --cascade=orphan, then helm upgrade recreates it and adopts the ReplicaSet pods.",
		Fix:     "kubectl delete deployment harborview-api --cascade=orphan"})
	h.ask("cl-helm-selector/1", "harborview", "linux", "helm upgrade --install notify charts/notify -n platform -f values/prod.yaml", `coalesce.go:289: warning: destination for notify.worker.resources is a table. Ignoring non-table value ()
Error: UPGRADE FAILED: cannot patch "notify-worker" with kind Deployment: Deployment.apps "notify-worker" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app.kubernetes.io/component":"worker", "app.kubernetes.io/instance":"notify", "app.kubernetes.io/name":"notify"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable`, "cl-helm-selector", "hand: stored")
	h.ask("cl-helm-name-in-use/1", "harborview", "linux", "helm install notify charts/notify -n platform", `Error: INSTALLATION FAILED: cannot re-use a name that is still in use`, "", "same tool, another error")
	h.ask("cl-svc-clusterip/1", "harborview", "darwin", "kubectl apply -f manifests/gateway-svc.yaml", `The Service "gateway" is invalid: spec.clusterIPs[0]: Invalid value: []string{"None"}: may not change once set`, "", "never stored: same kind, another object")
	h.ask("cl-helm-selector/2", "shopwright", "linux", "helm upgrade shopwright ./deploy/chart -n shop", `Error: UPGRADE FAILED: cannot patch "shopwright-web" with kind Deployment: Deployment.apps "shopwright-web" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"shopwright", "tier":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable`, "", "another project's project note")

	h.note(Note{ID: "cl-compose-healthy-init", Project: "bakery-pos", OS: "linux", Lang: "yaml", At: day(2026, time.March, 2),
		Title:     "db reports healthy while its init scripts still run",
		ProseOver: "cl-compose-healthy",
		What:      "web dies with Connection refused on a fresh volume even though compose waited for db to be healthy.",
		Why:       "The plain pg_isready healthcheck from 2022 is no longer good enough since we load the 2GB demo dump from docker-entrypoint-initdb.d: during init the entrypoint runs a temporary server on the unix socket only, pg_isready (socket) says ready, compose starts web, and then the temp server shuts down for the real start.",
		Where:     "docker-compose.yml",
		Learned:   "check over TCP, which the temporary init server doesn't listen on: test: [\"CMD-SHELL\", \"pg_isready -h 127.0.0.1 -U postgres -d bakery_development\"], with start_period: 120s. Keep depends_on condition: service_healthy.",
	})
	h.ask("cl-compose-healthy-init/1", "bakery-pos", "linux", "docker compose up -d && docker compose logs web db", `[+] Running 3/3
 ✔ Volume "bakery-pos_pgdata"  Created                                     0.0s 
 ✔ Container bakery-pos-db-1   Healthy                                     6.1s 
 ✔ Container bakery-pos-web-1  Started                                     6.3s 
db-1   | /usr/local/bin/docker-entrypoint.sh: running /docker-entrypoint-initdb.d/10-demo-data.sql.gz
web-1  | bin/rails aborted!
web-1  | ActiveRecord::ConnectionNotEstablished: connection to server at "172.20.0.2", port 5432 failed: Connection refused (ActiveRecord::ConnectionNotEstablished)
web-1  | 	Is the server running on that host and accepting TCP/IP connections?
web-1  | Tasks: TOP => db:prepare
db-1   | waiting for server to shut down.... done
db-1   | server stopped
db-1   | 
db-1   | PostgreSQL init process complete; ready for start up.
db-1   | 2026-03-09 08:12:55.410 UTC [1] LOG:  database system is ready to accept connections`, "cl-compose-healthy-init", "superseded in prose", "cl-compose-healthy")
}
