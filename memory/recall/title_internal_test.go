package recall

import "testing"

// TestTitleContext holds which words of a title say when, where or how
// rather than what failed: they name no object a query must print.
func TestTitleContext(t *testing.T) {
	for _, c := range []struct {
		title      string
		context    []string
		notContext []string
	}{
		{"nvidia-smi: Driver/library version mismatch after unattended-upgrades", []string{"unattended", "upgrades"}, []string{"nvidia", "driver", "mismatch"}},
		{"setup-python can't find 3.7 on ubuntu-latest", []string{"ubuntu", "latest"}, []string{"setup", "python"}},
		{"docker stop: permission denied (AppArmor, Ubuntu 22.04)", []string{"apparmor", "ubuntu"}, []string{"docker", "stop", "permission"}},
		{"air-gapped GPU node: set HF_HUB_OFFLINE", []string{"hf_hub_offline"}, []string{"gpu", "node"}},
		{"npm install ERESOLVE: formik wants react 17", nil, []string{"formik", "eresolve", "react"}},
		{"kind cluster ImagePullBackOff for ghcr.io/acme/inventory", nil, []string{"inventory", "imagepullbackoff"}},
	} {
		got := titleContext(c.title)
		for _, w := range c.context {
			if !got[w] {
				t.Errorf("titleContext(%q) lacks %q: %v", c.title, w, got)
			}
		}
		for _, w := range c.notContext {
			if got[w] {
				t.Errorf("titleContext(%q) holds %q", c.title, w)
			}
		}
	}
}
