package replay

import "time"

// kubectl and Terraform: the GKE auth plugin, image pulls that fail for
// two reasons, EKS tokens, OOM kills; state locks, provider checksums per
// platform, the core version pin, AWS credentials.
func unseen5Infra(h *hand) {
	h.note(Note{ID: "gke-env", Project: "gridwatch", OS: "linux", Lang: "shell", At: day(2022, time.May, 24),
		Title:   "kubectl: gcp auth plugin deprecated warning",
		What:    "every kubectl call prints: WARNING: the gcp auth plugin is deprecated in v1.22+, unavailable in v1.25+; use gcloud instead.",
		Why:     "in-tree gcp auth provider is going away",
		Learned: "export USE_GKE_GCLOUD_AUTH_PLUGIN=True in .bashrc and re-run gcloud container clusters get-credentials",
		Fix:     "export USE_GKE_GCLOUD_AUTH_PLUGIN=True"})
	h.note(Note{ID: "gke-plugin", Project: "gridwatch", OS: "darwin", Lang: "shell", At: day(2023, time.August, 29), ProseOver: "gke-env",
		Title:   "kubectl 1.27 on the new mac: gcp auth plugin removed",
		What:    "```\nerror: The gcp auth plugin has been removed.\nPlease use the \"gke-gcloud-auth-plugin\" kubectl/client-go credential plugin instead.\n```",
		Why:     "kubectl ≥1.26 has no built-in gcp provider at all.",
		Learned: "The USE_GKE_GCLOUD_AUTH_PLUGIN variable I noted last year was only the transition switch; it does nothing now. What's needed is the plugin binary itself: gcloud components install gke-gcloud-auth-plugin (or the brew/apt package), then get-credentials again so the kubeconfig user has exec: gke-gcloud-auth-plugin.",
		Fix:     "gcloud components install gke-gcloud-auth-plugin && gcloud container clusters get-credentials gridwatch-prod --region europe-west4"})
	h.ask("gke-plugin/1", "gridwatch", "linux", "kubectl -n gridwatch get pods", `error: The gcp auth plugin has been removed.
Please use the "gke-gcloud-auth-plugin" kubectl/client-go credential plugin instead.
See https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke for further details`, "gke-plugin", u5Prose, "gke-env")
	h.ask("gke-plugin/2", "gridwatch", "darwin", "kubectl rollout status deploy/collector -n gridwatch", `E0312 09:41:07.551203   81244 memcache.go:265] couldn't get current server API group list: Get "https://34.90.12.7/api?timeout=32s": getting credentials: exec: executable gke-gcloud-auth-plugin not found

It looks like you are trying to use a client-go credential plugin that is not installed.

To learn more about this feature, consult the documentation available at:
      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins

Install gke-gcloud-auth-plugin for use with kubectl by following https://cloud.google.com/kubernetes-engine/docs/how-to/cluster-access-for-kubectl#install_plugin
Unable to connect to the server: getting credentials: exec: executable gke-gcloud-auth-plugin not found`, "gke-plugin", u5Prose, "gke-env")

	h.note(Note{ID: "pull-auth", Project: "gridwatch", OS: "linux", Lang: "yaml", At: day(2024, time.February, 13),
		Title:   "ImagePullBackOff: ghcr pull secret expired",
		What:    "collector pods stuck in ImagePullBackOff; describe says failed to authorize ... 401 Unauthorized from ghcr.io",
		Why:     "the ghcr-pull secret was made from a personal PAT that expired after 90 days.",
		Learned: "Recreated it from the org bot's fine-grained token (read:packages, no expiry policy) — kubectl create secret docker-registry ghcr-pull --docker-server=ghcr.io ... then delete the failing pods.",
		Where:   "deploy/collector.yaml (imagePullSecrets)"})
	h.note(Note{ID: "pull-platform", Project: "gridwatch", OS: "linux", Lang: "yaml", At: day(2025, time.June, 17),
		Title:   "ImagePullBackOff only on the new arm64 node pool",
		What:    "ErrImagePull / ImagePullBackOff for the collector on the t2a nodes: no match for platform in manifest: not found",
		Why:     "our image was published amd64-only; the new Graviton/T2A pool is arm64.",
		Learned: "Publish multi-arch (buildx --platform linux/amd64,linux/arm64) — until then a nodeSelector kubernetes.io/arch: amd64 on the deployment. Pull secret was fine, don't chase it.",
		Where:   "deploy/collector.yaml, .github/workflows/image.yml"})
	h.ask("pull-auth/1", "gridwatch", "linux", "kubectl -n gridwatch describe pod collector-7d9f8b6c5-xk2lp", `Events:
  Type     Reason     Age                From               Message
  ----     ------     ----               ----               -------
  Normal   Scheduled  2m10s              default-scheduler  Successfully assigned gridwatch/collector-7d9f8b6c5-xk2lp to gke-gridwatch-pool-1-8c1e2f3a-9z8y
  Normal   Pulling    43s (x4 over 2m9s) kubelet            Pulling image "ghcr.io/gridwatch/collector:0.14.2"
  Warning  Failed     43s (x4 over 2m9s) kubelet            Failed to pull image "ghcr.io/gridwatch/collector:0.14.2": failed to pull and unpack image "ghcr.io/gridwatch/collector:0.14.2": failed to resolve reference "ghcr.io/gridwatch/collector:0.14.2": failed to authorize: failed to fetch oauth token: unexpected status from GET request to https://ghcr.io/token?scope=repository%3Agridwatch%2Fcollector%3Apull&service=ghcr.io: 401 Unauthorized
  Warning  Failed     43s (x4 over 2m9s) kubelet            Error: ErrImagePull
  Normal   BackOff    5s (x6 over 2m8s)  kubelet            Back-off pulling image "ghcr.io/gridwatch/collector:0.14.2"
  Warning  Failed     5s (x6 over 2m8s)  kubelet            Error: ImagePullBackOff`, "pull-auth", u5Cause)
	h.ask("pull-platform/1", "gridwatch", "linux", "kubectl -n gridwatch describe pod collector-5b8c7d9e4-q7rtn", `Events:
  Type     Reason     Age                From               Message
  ----     ------     ----               ----               -------
  Normal   Scheduled  96s                default-scheduler  Successfully assigned gridwatch/collector-5b8c7d9e4-q7rtn to gke-gridwatch-t2a-pool-41b0c9d2-m3n4
  Normal   Pulling    20s (x4 over 95s)  kubelet            Pulling image "ghcr.io/gridwatch/collector:0.19.0"
  Warning  Failed     19s (x4 over 94s)  kubelet            Failed to pull image "ghcr.io/gridwatch/collector:0.19.0": rpc error: code = NotFound desc = failed to pull and unpack image "ghcr.io/gridwatch/collector:0.19.0": no match for platform in manifest: not found
  Warning  Failed     19s (x4 over 94s)  kubelet            Error: ErrImagePull
  Normal   BackOff    3s (x5 over 93s)   kubelet            Back-off pulling image "ghcr.io/gridwatch/collector:0.19.0"
  Warning  Failed     3s (x5 over 93s)   kubelet            Error: ImagePullBackOff`, "pull-platform", u5Cause)
	h.ask("pull-notfound", "gridwatch", "linux", "kubectl -n gridwatch get events --field-selector involvedObject.name=api-6c5d4f7b8-w2x9z", `LAST SEEN   TYPE      REASON    OBJECT                       MESSAGE
12s         Warning   Failed    pod/api-6c5d4f7b8-w2x9z      Failed to pull image "ghcr.io/gridwatch/api:0.19.1-rc1": rpc error: code = NotFound desc = failed to pull and unpack image "ghcr.io/gridwatch/api:0.19.1-rc1": failed to resolve reference "ghcr.io/gridwatch/api:0.19.1-rc1": ghcr.io/gridwatch/api:0.19.1-rc1: not found
12s         Warning   Failed    pod/api-6c5d4f7b8-w2x9z      Error: ErrImagePull
1s          Warning   Failed    pod/api-6c5d4f7b8-w2x9z      Error: ImagePullBackOff`, "", u5NeverObj)

	h.note(Note{ID: "eks-sso", Project: "kiln-deploy", OS: "darwin", Lang: "shell", At: day(2025, time.February, 11),
		Title:   "kubectl Unauthorized against EKS in the morning",
		What:    "error: You must be logged in to the server (Unauthorized)",
		Why:     "kubeconfig uses aws eks get-token with the SSO profile; the SSO session expires after 8h and get-token fails quietly into Unauthorized.",
		Learned: "aws sso login --profile kiln-prod, nothing else. If that doesn't fix it the IAM role lost its access entry on the cluster.",
		Fix:     "aws sso login --profile kiln-prod"})
	h.ask("eks-sso/1", "kiln-deploy", "darwin", "kubectl get nodes", `E1104 08:02:11.418230   30112 memcache.go:265] couldn't get current server API group list: the server has asked for the client to provide credentials
E1104 08:02:11.611904   30112 memcache.go:265] couldn't get current server API group list: the server has asked for the client to provide credentials
error: You must be logged in to the server (the server has asked for the client to provide credentials)`, "eks-sso", u5Stored)
	h.ask("k8s-crd", "kiln-deploy", "linux", "kubectl apply -f k8s/certificate.yaml", `error: resource mapping not found for name: "kiln-web" namespace: "kiln" from "k8s/certificate.yaml": no matches for kind "Certificate" in version "cert-manager.io/v1"
ensure CRDs are installed first`, "", u5Tool)

	h.note(Note{ID: "oomkilled", Project: "gridwatch", OS: "linux", Lang: "go", At: day(2025, time.October, 6),
		Title:   "collector CrashLoopBackOff = OOMKilled at 256Mi",
		What:    "kubectl describe: Last State: Terminated, Reason: OOMKilled, Exit Code: 137",
		Why:     "the batch buffer grew past the 256Mi limit under the new customer's load; Go doesn't know the cgroup limit.",
		Learned: "limit 512Mi and GOMEMLIMIT=450MiB via the downward API (resourceFieldRef limits.memory) so the GC works harder before the kernel kills it.",
		Where:   "deploy/collector.yaml"})
	h.ask("oomkilled/1", "gridwatch", "linux", "kubectl -n gridwatch describe pod collector-7f6d5c9b8-lm4kq", `    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
      Started:      Mon, 10 Nov 2025 14:02:51 +0000
      Finished:     Mon, 10 Nov 2025 14:07:12 +0000
    Ready:          False
    Restart Count:  7
    Limits:
      cpu:     500m
      memory:  512Mi
    Requests:
      cpu:      100m
      memory:   256Mi`, "oomkilled", u5Stored)
	h.ask("k8s-forbidden", "gridwatch", "linux", "kubectl -n gridwatch get pods", `Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:ci:deployer" cannot list resource "pods" in API group "" in the namespace "gridwatch"`, "", u5NeverFail)

	h.note(Note{ID: "tf-lock", Project: "saltmarsh-infra", OS: "linux", Lang: "hcl", At: day(2022, time.August, 16),
		Title:   "terraform plan blocked by a stale state lock",
		What:    "Error acquiring the state lock — ConditionalCheckFailedException, lock held by the CI runner from an apply that was cancelled",
		Why:     "cancelling the workflow killed terraform before it released the DynamoDB lock.",
		Learned: "check the Lock Info (Who/Created) that no apply is really running, then terraform force-unlock <ID>. Set cancel-in-progress: false on the apply workflow so it can't happen again.",
		Fix:     "terraform force-unlock -force <LOCK_ID>"})
	h.ask("tf-lock/1", "saltmarsh-infra", "linux", "terraform plan -out=tfplan", `\e[31m╷\e[0m\e[0m
\e[31m│\e[0m \e[0m\e[1m\e[31mError: \e[0m\e[0m\e[1mError acquiring the state lock\e[0m
\e[31m│\e[0m \e[0m
\e[31m│\e[0m \e[0m\e[0mError message: operation error DynamoDB: PutItem, https response error
\e[31m│\e[0m \e[0mStatusCode: 400, RequestID: 6QK2S3O1B5R0F8GHIJKLMNOPQRSVV4KQNSO5AEMVJF66Q9ASUAAJG,
\e[31m│\e[0m \e[0mConditionalCheckFailedException: The conditional request failed
\e[31m│\e[0m \e[0mLock Info:
\e[31m│\e[0m \e[0m  ID:        1f0b6c1e-93a5-2d7e-8c44-0a9e7d3b2c61
\e[31m│\e[0m \e[0m  Path:      saltmarsh-tfstate/prod/network.tfstate
\e[31m│\e[0m \e[0m  Operation: OperationTypeApply
\e[31m│\e[0m \e[0m  Who:       runner@fv-az1107-233
\e[31m│\e[0m \e[0m  Version:   1.9.8
\e[31m│\e[0m \e[0m  Created:   2025-02-03 16:20:44.51931 +0000 UTC
\e[31m│\e[0m \e[0m  Info:
\e[31m│\e[0m \e[0m
\e[31m│\e[0m \e[0m
\e[31m│\e[0m \e[0mTerraform acquires a state lock to protect the state from being written
\e[31m│\e[0m \e[0mby multiple users at the same time. Please resolve the issue above and try
\e[31m│\e[0m \e[0magain. For most commands, you can disable locking with the "-lock=false"
\e[31m│\e[0m \e[0mflag, but this is not recommended.
\e[31m╵\e[0m\e[0m`, "tf-lock", u5Stored)

	h.note(Note{ID: "tf-lock-platform", Project: "saltmarsh-infra", OS: "darwin", Lang: "hcl", At: day(2023, time.April, 25),
		Title:   ".terraform.lock.hcl only had my mac's hashes",
		What:    "CI init: the local package for registry.terraform.io/hashicorp/aws doesn't match any of the checksums previously recorded in the dependency lock file",
		Why:     "terraform init on darwin_arm64 records only that platform's h1: hash; the linux runner's zip hashes differently.",
		Learned: "terraform providers lock -platform=linux_amd64 -platform=darwin_arm64 -platform=darwin_amd64 after every provider bump, commit the lock file.",
		Where:   ".terraform.lock.hcl",
		Fix:     "terraform providers lock -platform=linux_amd64 -platform=darwin_arm64 -platform=darwin_amd64"})
	h.ask("tf-lock-platform/1", "saltmarsh-infra", "linux", "terraform init -input=false", `Initializing the backend...
Initializing provider plugins...
- Reusing previous version of hashicorp/aws from the dependency lock file
- Reusing previous version of hashicorp/random from the dependency lock file
- Installing hashicorp/random v3.6.3...
- Installed hashicorp/random v3.6.3 (signed by HashiCorp)
- Installing hashicorp/aws v5.82.2...
╷
│ Error: Failed to install provider
│ 
│ Error while installing hashicorp/aws v5.82.2: the local package for
│ registry.terraform.io/hashicorp/aws 5.82.2 doesn't match any of the
│ checksums previously recorded in the dependency lock file (this might be
│ because the available checksums are for packages targeting different
│ platforms); for more information:
│ https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification
╵`, "tf-lock-platform", u5Stored)

	h.note(Note{ID: "tf-core-tfenv", Project: "saltmarsh-infra", OS: "linux", Lang: "hcl", At: day(2023, time.January, 10),
		Title:   "Unsupported Terraform Core version on the runner",
		What:    "Error: Unsupported Terraform Core version — required_version = \"~> 1.3.0\", runner has 1.4.0",
		Why:     "the runner's tfenv picked latest.",
		Learned: "tfenv install 1.3.9 && tfenv use 1.3.9 in the workflow before init.",
		Fix:     "tfenv install 1.3.9 && tfenv use 1.3.9"})
	h.note(Note{ID: "tf-core-mise", Project: "saltmarsh-infra", OS: "linux", Lang: "hcl", At: day(2025, time.September, 23), Supersedes: "tf-core-tfenv",
		Title:   "terraform version comes from .terraform-version via mise now",
		What:    "Unsupported Terraform Core version after the runner image update",
		Why:     "tfenv was dropped from the runner images; whatever terraform happened to be on PATH ran.",
		Learned: "jdx/mise-action installs what .terraform-version says (1.9.8). required_version is \">= 1.9, < 2.0\" now instead of a ~> patch pin; bump .terraform-version and it follows everywhere, laptops included (mise install).",
		Where:   ".terraform-version, versions.tf, .github/workflows/terraform.yml",
		Fix:     "mise install"})
	h.ask("tf-core-mise/1", "saltmarsh-infra", "linux", "terraform init", `╷
│ Error: Unsupported Terraform Core version
│ 
│   on versions.tf line 2, in terraform:
│    2:   required_version = ">= 1.9, < 2.0"
│ 
│ This configuration does not support Terraform version 1.5.7. To proceed,
│ either choose another supported Terraform version or update this version
│ constraint. Version constraints are normally set for good reason, so
│ updating the constraint may lead to other errors or unexpected behavior.
╵`, "tf-core-mise", u5Declared, "tf-core-tfenv")

	h.note(Note{ID: "aws-sso-creds", Project: "saltmarsh-infra", Scope: "global", OS: "windows", Lang: "hcl", At: day(2024, time.April, 2),
		Title:   "terraform/aws: no valid credential sources",
		What:    "terraform plan → Error: No valid credential sources found … failed to refresh cached credentials, no EC2 IMDS role found",
		Why:     "AWS_PROFILE not set in that PowerShell session, so the SDK walked the chain down to IMDS; the SSO profile's session had expired anyway.",
		Learned: "$env:AWS_PROFILE = 'saltmarsh-dev'; aws sso login. The IMDS line at the end is a red herring on a laptop — it only means nothing earlier in the chain worked.",
		Fix:     "aws sso login --profile saltmarsh-dev"})
	h.ask("aws-sso-creds/1", "kiln-deploy", "linux", "terraform plan", `Planning failed. Terraform encountered an error while generating this plan.

╷
│ Error: No valid credential sources found
│ 
│   with provider["registry.terraform.io/hashicorp/aws"],
│   on providers.tf line 1, in provider "aws":
│    1: provider "aws" {
│ 
│ Please see https://registry.terraform.io/providers/hashicorp/aws
│ for more information about providing credentials.
│ 
│ Error: failed to refresh cached credentials, no EC2 IMDS role found,
│ operation error ec2imds: GetMetadata, request canceled, context deadline
│ exceeded
│ 
╵`, "aws-sso-creds", u5Global)
	h.ask("tf-bucket-exists", "saltmarsh-infra", "linux", "terraform apply tfplan", `aws_s3_bucket.logs: Creating...
╷
│ Error: creating S3 Bucket (saltmarsh-logs): operation error S3: CreateBucket, https response error StatusCode: 409, RequestID: 8XJ2K1Q0W9E7R6T5, HostID: aGVsbG8gd29ybGQ=, BucketAlreadyExists: 
│ 
│   with aws_s3_bucket.logs,
│   on logging.tf line 1, in resource "aws_s3_bucket" "logs":
│    1: resource "aws_s3_bucket" "logs" {
│ 
╵`, "", u5NeverFail)
	h.ask("tf-lock-other", "kiln-deploy", "linux", "terraform apply -auto-approve", `╷
│ Error: Error acquiring the state lock
│ 
│ Error message: resource temporarily unavailable
│ Lock Info:
│   ID:        3c7e2a10-5f1b-4d8c-9e6a-0b2d4f6a8c10
│   Path:      terraform.tfstate
│   Operation: OperationTypeApply
│   Who:       dev@kiln-build-02
│   Version:   1.10.3
│   Created:   2026-01-20 09:14:02.1183 +0000 UTC
│   Info:      
│ 
│ Terraform acquires a state lock to protect the state from being written
│ by multiple users at the same time. Please resolve the issue above and try
│ again. For most commands, you can disable locking with the "-lock=false"
│ flag, but this is not recommended.
╵`, "", u5Other)
}
